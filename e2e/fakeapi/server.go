// Package fakeapi is a scripted stand-in for the Anthropic Messages API, for driving the real
// Claude Code CLI in tests without a network or an account.
//
// Point the CLI at it with ANTHROPIC_BASE_URL=Server.URL(). Each request of the main
// conversation consumes the next scripted Turn, in order; side requests (the session title
// and other small helper queries) get a canned answer and consume nothing. Every request is
// recorded, and a test can wait for the next main request to assert what context reached the
// model.
//
// Telling them apart: the CLI's conversation requests always offer the model its tools
// (Read, Edit, Bash, …), while its helper queries send "tools": [] and, for the title, ask for
// structured JSON output ("output_config": {"format": {"type": "json_schema", …}}); see
// Classify. (The main requests also carry the "claude-code-20250219" beta header, the title
// request does not; the model name is no use: both can be any model.)
package fakeapi

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Server is the stand-in. Its methods are safe for concurrent use.
type Server struct {
	srv *httptest.Server

	mu        sync.Mutex
	script    []Turn
	reqs      []Request
	mainSeen  int // main requests handed out by NextMain
	nextTool  int
	problems  []string
	changed   chan struct{} // closed and replaced whenever reqs grows
	mainCount int
	// toolIDs are the ids given to the scripted tool uses, by tool name, in order.
	toolIDs map[string][]string
	// searched is set when the head turn's deferred tools were fetched with ToolSearch.
	searched bool
	// agents are the subagents' scripts (see Agent).
	agents  []*agentScript
	summary string // SetSummary
}

// New starts a stand-in on 127.0.0.1 with the given script. It is closed when the test ends;
// the test then fails if any main request found the script exhausted or could not be decoded.
func New(t testing.TB, script ...Turn) *Server {
	t.Helper()
	s := &Server{script: append([]Turn(nil), script...), changed: make(chan struct{})}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	t.Cleanup(func() {
		s.srv.Close()
		for _, p := range s.Problems() {
			t.Errorf("fakeapi: %s", p)
		}
	})
	return s
}

// URL is the base URL for ANTHROPIC_BASE_URL, e.g. http://127.0.0.1:41234.
func (s *Server) URL() string { return s.srv.URL }

// Push appends turns to the script.
func (s *Server) Push(turns ...Turn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, turns...)
}

// Replace drops the turns not yet consumed and scripts turns instead: after a failure the
// CLI repeated an unknown number of times (a 400 is sent again with other options before
// the CLI gives up), the next turn starts from a known script.
func (s *Server) Replace(turns ...Turn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append([]Turn(nil), turns...)
	s.searched = false
}

// Remaining is the number of scripted turns not yet consumed.
func (s *Server) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.script)
}

// Problems lists what went wrong so far (exhausted script, undecodable bodies).
func (s *Server) Problems() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.problems...)
}

// Requests returns every request recorded so far, in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Main returns the main-conversation requests recorded so far.
func (s *Server) Main() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Request
	for _, r := range s.reqs {
		if r.Kind == Main {
			out = append(out, r)
		}
	}
	return out
}

// NextMain waits for the next main request that no earlier NextMain call returned (the first
// call returns the first main request, even if it arrived before the call).
func (s *Server) NextMain(ctx context.Context) (Request, error) {
	s.mu.Lock()
	n := s.mainSeen + 1
	s.mu.Unlock()
	r, err := s.WaitMain(ctx, n)
	if err != nil {
		return r, err
	}
	s.mu.Lock()
	if s.mainSeen < n {
		s.mainSeen = n
	}
	s.mu.Unlock()
	return r, nil
}

// WaitMain waits until n main requests have arrived and returns the n-th (1-based).
func (s *Server) WaitMain(ctx context.Context, n int) (Request, error) {
	return s.WaitFor(ctx, fmt.Sprintf("main request #%d", n), func(reqs []Request) (Request, bool) {
		seen := 0
		for _, r := range reqs {
			if r.Kind == Main {
				if seen++; seen == n {
					return r, true
				}
			}
		}
		return Request{}, false
	})
}

// WaitFor waits until match finds a request among those recorded; what names it in the error.
func (s *Server) WaitFor(ctx context.Context, what string, match func([]Request) (Request, bool)) (Request, error) {
	for {
		s.mu.Lock()
		reqs, changed := s.reqs, s.changed
		s.mu.Unlock()
		if r, ok := match(reqs); ok {
			return r, nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return Request{}, fmt.Errorf("fakeapi: waiting for %s (%d requests so far): %w", what, len(reqs), ctx.Err())
		}
	}
}

// ToolResult waits for the answer to the first tool use of name the stand-in sent (a
// scripted call, or the ToolSearch step before a deferred one) and returns that tool_result.
func (s *Server) ToolResult(ctx context.Context, name string) (Block, error) {
	return s.NthToolResult(ctx, name, 0)
}

// NthToolResult is ToolResult for the nth (from 0) tool use of name.
func (s *Server) NthToolResult(ctx context.Context, name string, nth int) (Block, error) {
	var got Block
	_, err := s.WaitFor(ctx, fmt.Sprintf("the result of %s call %d", name, nth+1), func(reqs []Request) (Request, bool) {
		s.mu.Lock()
		ids := s.toolIDs[name]
		s.mu.Unlock()
		if len(ids) <= nth {
			return Request{}, false
		}
		for _, r := range reqs {
			if b, ok := r.ResultFor(ids[nth]); ok {
				got = b
				return r, true
			}
		}
		return Request{}, false
	})
	return got, err
}

// Classify tells main-conversation requests from side requests; see the package comment.
func Classify(m *MessagesBody) Kind {
	if len(m.Tools) == 0 {
		return Side
	}
	if m.OutputConfig != nil && m.OutputConfig.Format != nil {
		return Side
	}
	if isCompaction(m) {
		return Compact
	}
	// The prompt suggestion the CLI asks for after a turn when its SDK client wants one
	// (claude-agent-acp does): the conversation so far, tools and all, and a last user
	// message opening with this.
	if strings.HasPrefix(Request{Messages: m}.LastUserText(), suggestionMode) {
		return Side
	}
	return Main
}

// suggestionMode opens the CLI's prompt-suggestion request (2.1.332).
const suggestionMode = "[SUGGESTION MODE:"

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rec := Request{
		Time:   time.Now(),
		Method: r.Method,
		Path:   r.URL.Path,
		Query:  r.URL.RawQuery,
		Header: r.Header.Clone(),
		Body:   body,
	}
	isMessages := r.Method == http.MethodPost && r.URL.Path == "/v1/messages"
	if isMessages {
		var m MessagesBody
		if err := json.Unmarshal(body, &m); err != nil {
			s.record(rec, fmt.Sprintf("undecodable /v1/messages body: %v", err))
			writeError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
			return
		}
		rec.Messages = &m
		rec.Kind = Classify(&m)
	}

	switch {
	case rec.Kind == Main:
		turn, ok := s.recordMain(&rec)
		if !ok {
			turn = Say("fakeapi: no scripted turn left")
		}
		turn = withPlanFile(turn, rec)
		if turn.Gate != nil {
			select {
			case <-turn.Gate:
			case <-r.Context().Done():
				return
			}
		}
		if turn.Fail != 0 {
			typ, msg := apiError(turn)
			if turn.RetryAfter != "" {
				w.Header().Set("Retry-After", turn.RetryAfter)
			}
			writeError(w, turn.Fail, typ, msg)
			return
		}
		writeMessage(r.Context(), w, rec.Messages, s.assistantContent(turn), pacing{chunk: turn.Chunk, delay: turn.Delay, sent: turn.Sent, usage: turn.Usage})
	case rec.Kind == Side:
		s.record(rec, "")
		writeMessage(r.Context(), w, rec.Messages, sideContent(rec.Messages), pacing{})
	case rec.Kind == Compact:
		s.record(rec, "")
		writeMessage(r.Context(), w, rec.Messages, s.compactContent(), pacing{})
	case r.Method == http.MethodPost && r.URL.Path == "/v1/messages/count_tokens":
		s.record(rec, "")
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"input_tokens":%d}`, len(body)/4+1)
	case r.Method == http.MethodGet && r.URL.Path == "/v1/models":
		s.record(rec, "")
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"data":[],"has_more":false,"first_id":null,"last_id":null}`)
	default:
		// HEAD / is the CLI's connectivity probe; anything else is answered harmlessly
		// and left in the record for the test to look at.
		s.record(rec, "")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		if r.Method != http.MethodHead {
			io.WriteString(w, "{}")
		}
	}
}

func (s *Server) record(rec Request, problem string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.appendLocked(rec)
	if problem != "" {
		s.problems = append(s.problems, problem)
	}
}

// recordMain records a main request and takes the next turn for it, in one step so that
// concurrent requests get turns in arrival order. When that turn calls a tool the request
// offers only behind ToolSearch, the answer is the ToolSearch call and the turn waits for
// the next request.
func (s *Server) recordMain(rec *Request) (Turn, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	script, searched := &s.script, &s.searched
	what := ""
	if a := s.agentFor(*rec); a != nil {
		rec.Kind = Subagent
		script, searched = &a.script, &a.searched
		what = fmt.Sprintf("subagent request (%q)", a.prompt)
	} else {
		s.mainCount++
		what = fmt.Sprintf("main request #%d", s.mainCount)
	}
	s.appendLocked(*rec)
	if len(*script) == 0 {
		s.problems = append(s.problems, fmt.Sprintf("%s found the script exhausted; its last user text: %.300q",
			what, rec.LastUserText()))
		return Turn{}, false
	}
	t := (*script)[0]
	if search := deferredIn(*rec, t); len(search) > 0 && !*searched {
		*searched = true
		// A deferred tool's schema is fetched first, as the model does; the turn stays.
		return Use(ToolSearchName, map[string]any{"query": "select:" + strings.Join(search, ",")}), true
	}
	*script = (*script)[1:]
	*searched = false
	return t, true
}

// ToolSearchName is the CLI's tool that loads deferred tools (2.1.332 defers MCP tools).
const ToolSearchName = "ToolSearch"

// deferredIn lists the tools turn t calls that rec offers only behind ToolSearch (not
// callable, ToolSearch offered; MCP tools, and tools rec names as deferred such as
// ExitPlanMode): the real model has to search for them first. Without
// ToolSearch (older CLIs) the call goes out as scripted.
func deferredIn(rec Request, t Turn) []string {
	if !rec.Callable(ToolSearchName) {
		return nil
	}
	var out []string
	for _, tu := range t.Tools {
		if !rec.Callable(tu.Name) && (strings.HasPrefix(tu.Name, "mcp__") || deferredByName(rec, tu.Name)) {
			out = append(out, tu.Name)
		}
	}
	return out
}

func (s *Server) appendLocked(rec Request) {
	rec.Seq = len(s.reqs) + 1
	s.reqs = append(s.reqs, rec)
	close(s.changed)
	s.changed = make(chan struct{})
}

// assistantContent turns a scripted turn into content blocks, filling in tool-use IDs.
func (s *Server) assistantContent(t Turn) []Block {
	var blocks []Block
	if t.Thinking != "" {
		blocks = append(blocks, Block{Type: "thinking", Thinking: t.Thinking, Signature: thinkingSignature})
	}
	if t.Text != "" || len(t.Tools) == 0 {
		blocks = append(blocks, Block{Type: "text", Text: t.Text})
	}
	for _, tu := range t.Tools {
		id := tu.ID
		if id == "" {
			s.mu.Lock()
			s.nextTool++
			id = fmt.Sprintf("toolu_fakeapi_%04d", s.nextTool)
			s.mu.Unlock()
		}
		input, err := json.Marshal(tu.Input)
		if err != nil || tu.Input == nil {
			input = []byte("{}")
		}
		blocks = append(blocks, Block{Type: "tool_use", ID: id, Name: tu.Name, Input: input})
		s.mu.Lock()
		if s.toolIDs == nil {
			s.toolIDs = map[string][]string{}
		}
		s.toolIDs[tu.Name] = append(s.toolIDs[tu.Name], id)
		s.mu.Unlock()
	}
	return blocks
}
