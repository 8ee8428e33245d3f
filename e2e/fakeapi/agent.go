package fakeapi

import "strings"

// Subagents (the Agent tool, "Task" in the CLI's tool list) call the API on their own, with
// their own conversation: the first user message is the prompt the main model gave the Agent
// tool. In 2.1.332 they run in the background by default, so their requests race with the
// main conversation's; a subagent therefore takes its turns from a script of its own, picked
// by its prompt, and never from the main one.

// agentScript is the script of one subagent, found by a text its prompt contains.
type agentScript struct {
	prompt   string
	script   []Turn
	searched bool // as Server.searched, for this subagent's head turn
}

// Agent scripts the turns of the subagent whose prompt (the Agent tool's "prompt" input)
// contains prompt: its requests are recorded with Kind Subagent and answered from turns, in
// order. Call it before the main model's Agent call is answered; turns may be pushed later
// with another call for the same prompt.
func (s *Server) Agent(prompt string, turns ...Turn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, a := range s.agents {
		if a.prompt == prompt {
			a.script = append(a.script, turns...)
			return
		}
	}
	s.agents = append(s.agents, &agentScript{prompt: prompt, script: append([]Turn(nil), turns...)})
}

// Subagents returns the subagents' requests recorded so far.
func (s *Server) Subagents() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Request
	for _, r := range s.reqs {
		if r.Kind == Subagent {
			out = append(out, r)
		}
	}
	return out
}

// agentFor is the script of the subagent rec belongs to (its first user message carries the
// scripted prompt), or nil for the main conversation. s.mu is held.
func (s *Server) agentFor(rec Request) *agentScript {
	first := rec.FirstUserText()
	for _, a := range s.agents {
		if strings.Contains(first, a.prompt) {
			return a
		}
	}
	return nil
}

// FirstUserText is the text of the conversation's first user message: the prompt that
// started it, with what the CLI attached (a subagent's is the Agent tool's prompt).
func (r Request) FirstUserText() string {
	if r.Messages == nil {
		return ""
	}
	for _, m := range r.Messages.Messages {
		if m.Role == "user" {
			return joinTexts(m.Content)
		}
	}
	return ""
}
