package acp_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/acp"
	"github.com/claude-nvim/claude.nvim/acp/acptest"
)

// The agent's bad lines are answered as JSON-RPC says, and the turn they came in goes on.
func TestBadMessagesAreAnsweredAndTheConnectionKeepsServing(t *testing.T) {
	bad := []struct {
		name, line string
		code       int
		id         string // the id the error answer echoes
	}{
		{"truncated JSON", `{"jsonrpc":"2.0","id":7,"method":"session/request_permission","params":{`, -32700, "null"},
		{"not JSON at all", `hello from a debug print`, -32700, "null"},
		{"a batch", `[{"jsonrpc":"2.0","method":"session/update"}]`, -32600, "null"},
		{"a number", `42`, -32600, "null"},
		{"no method", `{"jsonrpc":"2.0","id":8}`, -32600, "8"},
		{"a wrong version", `{"jsonrpc":"1.0","id":9,"method":"fs/read_text_file","params":{}}`, -32600, "9"},
	}
	rec := newRecorder()
	c := scripted(t, rec, acp.Options{}, func(p *acptest.Peer) {
		agentHandshake(p)
		m := p.Expect("session/prompt")
		for _, b := range bad {
			p.Send(b.line)
			got := p.Read()
			if got.Error == nil || got.Error.Code != b.code || string(got.ID) != b.id {
				t.Errorf("%s: %s was answered %s; want error %d with id %s", b.name, b.line, got.Line, b.code, b.id)
			}
		}
		p.Update("s1", map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": "still here"}})
		p.Reply(m, map[string]any{"stopReason": "end_turn"})
	})
	handshake(t, c)
	res, err := c.Prompt(ctx(t), "s1", []acp.ContentBlock{acp.Text("hi")})
	if err != nil {
		t.Fatalf("the turn after bad lines: %v", err)
	}
	if res.StopReason != acp.StopEndTurn || text(rec.all(), acp.KindAgentMessageChunk) != "still here" {
		t.Errorf("after bad lines: stop reason %q, updates %s; want end_turn and the chunk", res.StopReason, describe(rec.all()))
	}
}

func TestRequestsTheClientDoesNotServeAreMethodNotFound(t *testing.T) {
	rec := newRecorder() // no PermissionHandler, FileReader, FileWriter or Terminals
	c := scripted(t, rec, acp.Options{}, func(p *acptest.Peer) {
		agentHandshake(p)
		m := p.Expect("session/prompt")
		for _, method := range []string{"fs/read_text_file", "fs/write_text_file", "terminal/create", "session/request_permission", "_vendor/thing"} {
			id := p.Request(method, map[string]any{"sessionId": "s1", "path": "/tmp/x", "content": "", "command": "ls", "toolCall": map[string]any{}, "options": []any{}})
			got := p.ExpectResponse(id)
			if got.Error == nil || got.Error.Code != -32601 {
				t.Errorf("%s to a client without it was answered %s; want -32601", method, got.Line)
			}
		}
		// An unknown notification is no request: no answer, and the connection serves on.
		p.Notify("_vendor/status", map[string]any{"ok": true})
		p.Reply(m, map[string]any{"stopReason": "end_turn"})
	})
	handshake(t, c)
	if _, err := c.Prompt(ctx(t), "s1", []acp.ContentBlock{acp.Text("hi")}); err != nil {
		t.Fatal(err)
	}
	rec.mu.Lock()
	notes := rec.notes
	rec.mu.Unlock()
	if len(notes) != 1 || notes[0] != "_vendor/status" {
		t.Errorf("other notifications reached the client as %q; want [_vendor/status]", notes)
	}
}

func TestInitializeAdvertisesWhatTheClientServes(t *testing.T) {
	cases := []struct {
		name   string
		client acp.Client
		want   string
	}{
		{"updates only", newRecorder(), `{"fs":{"readTextFile":false,"writeTextFile":false},"terminal":false}`},
		{"files", files{recorder: newRecorder()}, `{"fs":{"readTextFile":true,"writeTextFile":true},"terminal":false}`},
		{"terminals", terms{recorder: newRecorder()}, `{"fs":{"readTextFile":false,"writeTextFile":false},"terminal":true}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := make(chan acptest.Msg, 1)
			c := scripted(t, tc.client, acp.Options{}, func(p *acptest.Peer) {
				got <- p.Initialize(acptest.Capabilities())
			})
			res, err := c.Initialize(ctx(t), acp.Implementation{Name: "claude.nvim", Version: "1.2.3"})
			if err != nil {
				t.Fatal(err)
			}
			m := <-got
			var params struct {
				ProtocolVersion    int             `json:"protocolVersion"`
				ClientCapabilities json.RawMessage `json:"clientCapabilities"`
				ClientInfo         acp.Implementation
			}
			if err := json.Unmarshal(m.Params, &params); err != nil {
				t.Fatal(err)
			}
			if params.ProtocolVersion != 1 || string(params.ClientCapabilities) != tc.want || params.ClientInfo.Name != "claude.nvim" {
				t.Errorf("initialize params = %s; want version 1, capabilities %s and our name", m.Params, tc.want)
			}
			if !res.AgentCapabilities.LoadSession || !res.AgentCapabilities.SessionCapabilities.CanList() {
				t.Errorf("agent capabilities = %+v; want loadSession and list as offered", res.AgentCapabilities)
			}
		})
	}
}

func TestAnAgentOfAnotherProtocolVersionIsRefused(t *testing.T) {
	c := scripted(t, newRecorder(), acp.Options{}, func(p *acptest.Peer) {
		p.Initialize(map[string]any{"protocolVersion": 2, "agentCapabilities": map[string]any{}})
	})
	_, err := c.Initialize(ctx(t), acp.Implementation{Name: "test", Version: "0"})
	if err == nil || !strings.Contains(err.Error(), "protocol version 2") {
		t.Errorf("initialize with an agent of version 2: %v; want a refusal naming the version", err)
	}
}

func TestMethodsTheAgentDoesNotOfferAreNotSent(t *testing.T) {
	c := scripted(t, newRecorder(), acp.Options{}, func(p *acptest.Peer) {
		p.Initialize(acptest.Baseline())
		p.NewSession("s1")
		// Nothing is sent for load, list, resume or close: the next message is the prompt.
		m := p.Expect("session/prompt")
		p.Reply(m, map[string]any{"stopReason": "end_turn"})
	})
	handshake(t, c)
	calls := map[string]func() error{
		"session/load": func() error {
			_, err := c.LoadSession(ctx(t), acp.LoadSessionRequest{SessionID: "old", Cwd: "/tmp"})
			return err
		},
		"session/list": func() error { _, err := c.ListSessions(ctx(t), acp.ListSessionsRequest{}); return err },
		"session/resume": func() error {
			_, err := c.ResumeSession(ctx(t), acp.ResumeSessionRequest{SessionID: "old", Cwd: "/tmp"})
			return err
		},
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, acp.ErrUnsupported) {
			t.Errorf("%s on an agent without it: %v; want ErrUnsupported", name, err)
		}
	}
	if err := c.CloseSession(ctx(t), "s1"); err != nil {
		t.Errorf("closing a session on an agent without session/close: %v; want it closed on our side only", err)
	}
	if _, err := c.Prompt(ctx(t), "s1", []acp.ContentBlock{acp.Text("hi")}); err != nil {
		t.Fatal(err)
	}
}

func TestARelativeCwdIsRefusedBeforeSending(t *testing.T) {
	c := scripted(t, newRecorder(), acp.Options{}, func(p *acptest.Peer) {
		p.Initialize(acptest.Capabilities())
	})
	if _, err := c.Initialize(ctx(t), acp.Implementation{Name: "test", Version: "0"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.NewSession(ctx(t), acp.NewSessionRequest{Cwd: "project"}); err == nil || !strings.Contains(err.Error(), "absolute") {
		t.Errorf("session/new with a relative cwd: %v; want a refusal", err)
	}
}

func TestAnErrorAnswerIsAnRPCError(t *testing.T) {
	c := scripted(t, newRecorder(), acp.Options{}, func(p *acptest.Peer) {
		p.Initialize(acptest.Capabilities())
		m := p.Expect("session/new")
		p.ReplyError(m, -32000, "Authentication required")
	})
	if _, err := c.Initialize(ctx(t), acp.Implementation{Name: "test", Version: "0"}); err != nil {
		t.Fatal(err)
	}
	_, err := c.NewSession(ctx(t), acp.NewSessionRequest{Cwd: "/tmp"})
	var re *acp.RPCError
	if !errors.As(err, &re) || re.Code != -32000 || !strings.Contains(err.Error(), "session/new") {
		t.Errorf("session/new answered with an error: %v; want an *RPCError -32000 naming the method", err)
	}
}

func TestAHandlerPanicIsAnInternalErrorAndTheConnectionLives(t *testing.T) {
	f := files{recorder: newRecorder(),
		read: func(context.Context, *acp.ReadTextFileRequest) (string, error) { panic("boom") },
		write: func(_ context.Context, req *acp.WriteTextFileRequest) error {
			return acp.Errorf(acp.CodeInvalidParams, "refused: %s is outside the workspace", req.Path)
		},
	}
	c := scripted(t, f, acp.Options{}, func(p *acptest.Peer) {
		agentHandshake(p)
		m := p.Expect("session/prompt")
		id := p.Request("fs/read_text_file", map[string]any{"sessionId": "s1", "path": "/tmp/a"})
		if got := p.ExpectResponse(id); got.Error == nil || got.Error.Code != -32603 {
			t.Errorf("a panicking read was answered %s; want -32603", got.Line)
		}
		id = p.Request("fs/write_text_file", map[string]any{"sessionId": "s1", "path": "/etc/passwd", "content": "x"})
		if got := p.ExpectResponse(id); got.Error == nil || got.Error.Code != -32602 || !strings.Contains(got.Error.Message, "outside the workspace") {
			t.Errorf("a refused write was answered %s; want the handler's -32602", got.Line)
		}
		p.Reply(m, map[string]any{"stopReason": "end_turn"})
	})
	handshake(t, c)
	if _, err := c.Prompt(ctx(t), "s1", []acp.ContentBlock{acp.Text("hi")}); err != nil {
		t.Fatal(err)
	}
}
