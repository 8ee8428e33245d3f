package fakeapi

import "strings"

// Compaction: /compact, and the CLI's automatic compaction near the end of the context
// window, make the CLI ask the model for a summary of the conversation. 2.1.332 sends the
// whole conversation with its tools and a last user message that opens "CRITICAL: Respond
// with TEXT ONLY." and asks for "an <analysis> block followed by a <summary> block"; an
// answer without a <summary> block is asked for again (with one more paragraph). 2.1.197
// sends the same text as the last block of the last user message, after the prompt. The
// conversation then goes on from the summary alone: the next request's first prompt is
// "This session is being continued from a previous conversation … <the summary>".

// compactAsk is in the CLI's request for a summary, and in no prompt of the user's.
const compactAsk = "Your task is to create a detailed summary of the conversation so far"

// DefaultSummary is what the stand-in summarises every conversation as, unless the test
// set its own (Server.SetSummary).
const DefaultSummary = "fakeapi summary of the conversation"

// isCompaction reports whether m is the CLI asking for a summary of the conversation: a text
// block of its last user message is the CLI's request for one. (A role "system" message, the
// editor context of 2.1.332's beta, may come after it.)
func isCompaction(m *MessagesBody) bool {
	for i := len(m.Messages) - 1; i >= 0; i-- {
		switch m.Messages[i].Role {
		case "system":
			continue
		case "user":
			for _, b := range m.Messages[i].Content {
				text := strings.TrimSpace(b.Text)
				if b.Type == "text" && strings.HasPrefix(text, "CRITICAL: Respond with TEXT ONLY") && strings.Contains(text, compactAsk) {
					return true
				}
			}
		}
		return false
	}
	return false
}

// SetSummary sets the summary the stand-in answers compaction requests with.
func (s *Server) SetSummary(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.summary = text
}

// compactContent is the answer to a compaction request, in the form the CLI asks for.
func (s *Server) compactContent() []Block {
	s.mu.Lock()
	summary := s.summary
	s.mu.Unlock()
	if summary == "" {
		summary = DefaultSummary
	}
	return []Block{{Type: "text", Text: "<analysis>fakeapi</analysis>\n<summary>" + summary + "</summary>"}}
}
