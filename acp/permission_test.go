package acp_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/acp"
	"github.com/claude-nvim/claude.nvim/acp/acptest"
)

// permissionParams is claude-agent-acp's request (testdata) with the options in the given
// order and the session given.
func permissionParams(t *testing.T, sessionID string, reorder bool) map[string]any {
	t.Helper()
	_, line := realLines(t)
	var m struct {
		Params map[string]any `json:"params"`
	}
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatal(err)
	}
	m.Params["sessionId"] = sessionID
	if reorder {
		opts := m.Params["options"].([]any)
		for i, j := 0, len(opts)-1; i < j; i, j = i+1, j-1 {
			opts[i], opts[j] = opts[j], opts[i]
		}
	}
	return m.Params
}

func selectedOption(t *testing.T, m acptest.Msg) string {
	t.Helper()
	var r struct {
		Outcome struct {
			Outcome  string `json:"outcome"`
			OptionID string `json:"optionId"`
		} `json:"outcome"`
	}
	if m.Error != nil || json.Unmarshal(m.Result, &r) != nil {
		t.Errorf("permission answered %s; want an outcome", m.Line)
	}
	if r.Outcome.Outcome == "cancelled" {
		return "cancelled"
	}
	return r.Outcome.OptionID
}

func TestPermissionIsAnsweredByTheOptionsKindNotItsPlace(t *testing.T) {
	for _, kind := range []string{acp.AllowOnce, acp.AllowAlways, acp.RejectOnce} {
		t.Run(kind, func(t *testing.T) {
			var asked atomic.Pointer[acp.PermissionRequest]
			client := permitter{recorder: newRecorder(), answer: func(_ context.Context, req *acp.PermissionRequest) (acp.PermissionOutcome, error) {
				asked.Store(req)
				o, ok := req.Option(kind)
				if !ok {
					t.Errorf("no %s option in %+v", kind, req.Options)
				}
				return acp.Select(o), nil
			}}
			want := map[string]string{acp.AllowOnce: "allow-once", acp.AllowAlways: "allow-with-updates", acp.RejectOnce: "reject"}[kind]
			c := scripted(t, client, acp.Options{}, func(p *acptest.Peer) {
				agentHandshake(p)
				m := p.Expect("session/prompt")
				id := p.Request("session/request_permission", permissionParams(t, "s1", true))
				if got := selectedOption(t, p.ExpectResponse(id)); got != want {
					t.Errorf("choosing %s among reversed options answered %q; want %q", kind, got, want)
				}
				p.Reply(m, map[string]any{"stopReason": "end_turn"})
			})
			handshake(t, c)
			if _, err := c.Prompt(ctx(t), "s1", []acp.ContentBlock{acp.Text("write it")}); err != nil {
				t.Fatal(err)
			}
			req := asked.Load()
			if req == nil || req.SessionID != "s1" || req.ToolCall.ToolCallID != "toolu_fakeapi_0001" || len(req.ToolCall.Content) != 1 ||
				req.ToolCall.Content[0].Type != "diff" || req.ToolCall.Content[0].OldText != nil || req.ToolCall.Content[0].NewText != "fresh\n" {
				t.Errorf("the handler got %+v; want the Write's tool call with its diff", req)
			}
		})
	}
}

func TestAnOptionThatWasNotOfferedIsNeverSentAsConsent(t *testing.T) {
	client := permitter{recorder: newRecorder(), answer: func(context.Context, *acp.PermissionRequest) (acp.PermissionOutcome, error) {
		return acp.PermissionOutcome{OptionID: "allow-everything-forever"}, nil
	}}
	c := scripted(t, client, acp.Options{}, func(p *acptest.Peer) {
		agentHandshake(p)
		m := p.Expect("session/prompt")
		id := p.Request("session/request_permission", permissionParams(t, "s1", false))
		if got := p.ExpectResponse(id); got.Error == nil || got.Result != nil {
			t.Errorf("a handler's unknown option was answered %s; want an error", got.Line)
		}
		p.Reply(m, map[string]any{"stopReason": "end_turn"})
	})
	handshake(t, c)
	if _, err := c.Prompt(ctx(t), "s1", []acp.ContentBlock{acp.Text("hi")}); err != nil {
		t.Fatal(err)
	}
}

func TestAPermissionForASessionThatIsNotOpenIsRefused(t *testing.T) {
	var called atomic.Int32
	client := permitter{recorder: newRecorder(), answer: func(_ context.Context, req *acp.PermissionRequest) (acp.PermissionOutcome, error) {
		called.Add(1)
		o, _ := req.Option(acp.AllowOnce)
		return acp.Select(o), nil
	}}
	closed := make(chan struct{})
	c := scripted(t, client, acp.Options{}, func(p *acptest.Peer) {
		agentHandshake(p)
		m := p.Expect("session/prompt")
		for _, session := range []string{"never-opened", ""} {
			id := p.Request("session/request_permission", permissionParams(t, session, false))
			got := p.ExpectResponse(id)
			if got.Error == nil || (got.Error.Code != acp.CodeNotFound && got.Error.Code != acp.CodeInvalidParams) {
				t.Errorf("a permission request for session %q was answered %s; want an error", session, got.Line)
			}
		}
		p.Reply(m, map[string]any{"stopReason": "end_turn"})
		// After the session is closed (the agent offers session/close), the same.
		p.Reply(p.Expect("session/close"), map[string]any{})
		<-closed
		id := p.Request("session/request_permission", permissionParams(t, "s1", false))
		if got := p.ExpectResponse(id); got.Error == nil || got.Error.Code != acp.CodeNotFound || !strings.Contains(got.Error.Message, "s1") {
			t.Errorf("a permission request for a closed session was answered %s; want -32002 naming it", got.Line)
		}
	})
	handshake(t, c)
	if _, err := c.Prompt(ctx(t), "s1", []acp.ContentBlock{acp.Text("hi")}); err != nil {
		t.Fatal(err)
	}
	if err := c.CloseSession(ctx(t), "s1"); err != nil {
		t.Fatal(err)
	}
	close(closed)
	<-c.Done() // the script ends, and with it the connection
	if n := called.Load(); n != 0 {
		t.Errorf("the handler was asked %d times for sessions that were not open", n)
	}
}

// Cancel answers the permission requests of the turn "cancelled" (the protocol's rule), as
// the agent withdrawing one answers it -32800 for other requests.
func TestCancelAnswersTheTurnsPermissionRequestsCancelled(t *testing.T) {
	waiting := make(chan struct{})
	handlerDone := make(chan error, 1)
	client := permitter{recorder: newRecorder(), answer: func(ctx context.Context, req *acp.PermissionRequest) (acp.PermissionOutcome, error) {
		close(waiting)
		<-ctx.Done() // the user has not answered yet
		handlerDone <- context.Cause(ctx)
		o, _ := req.Option(acp.AllowOnce)
		return acp.Select(o), nil // too late: the turn was cancelled
	}}
	c := scripted(t, client, acp.Options{}, func(p *acptest.Peer) {
		agentHandshake(p)
		m := p.Expect("session/prompt")
		id := p.Request("session/request_permission", permissionParams(t, "s1", false))
		p.Expect("session/cancel")
		if got := selectedOption(t, p.ExpectResponse(id)); got != "cancelled" {
			t.Errorf("a permission pending at cancel was answered %q; want cancelled", got)
		}
		p.Reply(m, map[string]any{"stopReason": "cancelled"})
	})
	handshake(t, c)
	turn := make(chan *acp.PromptResult, 1)
	go func() {
		res, err := c.Prompt(ctx(t), "s1", []acp.ContentBlock{acp.Text("write it")})
		if err != nil {
			t.Error(err)
		}
		turn <- res
	}()
	<-waiting
	if err := c.Cancel(ctx(t), "s1"); err != nil {
		t.Fatal(err)
	}
	if res := <-turn; res == nil || res.StopReason != acp.StopCancelled {
		t.Errorf("the cancelled turn ended %+v; want stop reason cancelled", res)
	}
	if err := <-handlerDone; err == nil {
		t.Error("the handler's context did not end at cancel")
	}
}

func TestTheAgentWithdrawingARequestEndsItsHandler(t *testing.T) {
	started := make(chan struct{})
	f := files{recorder: newRecorder(), read: func(ctx context.Context, _ *acp.ReadTextFileRequest) (string, error) {
		close(started)
		<-ctx.Done()
		return "", ctx.Err()
	}}
	c := scripted(t, f, acp.Options{}, func(p *acptest.Peer) {
		agentHandshake(p)
		m := p.Expect("session/prompt")
		id := p.Request("fs/read_text_file", map[string]any{"sessionId": "s1", "path": "/tmp/slow"})
		<-started
		p.Notify("$/cancel_request", map[string]any{"requestId": id})
		if got := p.ExpectResponse(id); got.Error == nil || got.Error.Code != acp.CodeRequestCancelled {
			t.Errorf("a withdrawn read was answered %s; want -32800", got.Line)
		}
		p.Reply(m, map[string]any{"stopReason": "end_turn"})
	})
	handshake(t, c)
	if _, err := c.Prompt(ctx(t), "s1", []acp.ContentBlock{acp.Text("hi")}); err != nil {
		t.Fatal(err)
	}
}

// A turn whose caller gives up is cancelled, not left running tools nobody sees.
func TestAnAbandonedPromptIsCancelled(t *testing.T) {
	rec := newRecorder()
	gotCancel := make(chan []string, 1)
	c := scripted(t, rec, acp.Options{}, func(p *acptest.Peer) {
		agentHandshake(p)
		m := p.Expect("session/prompt")
		p.Update("s1", map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": "working"}})
		// $/cancel_request for the prompt and session/cancel, in either order.
		a, b := p.Read(), p.Read()
		gotCancel <- []string{a.Method, b.Method}
		p.Reply(m, map[string]any{"stopReason": "cancelled"})
	})
	handshake(t, c)
	pctx, cancel := context.WithCancel(ctx(t))
	done := make(chan error, 1)
	go func() {
		_, err := c.Prompt(pctx, "s1", []acp.ContentBlock{acp.Text("hi")})
		done <- err
	}()
	rec.waitCount(t, 1)
	cancel()
	if err := <-done; err == nil || !strings.Contains(err.Error(), "context canceled") {
		t.Errorf("an abandoned prompt returned %v; want ctx's error", err)
	}
	var methods []string
	select {
	case methods = <-gotCancel:
	case <-time.After(waitTimeout):
		t.Fatal("the agent heard nothing after the prompt was given up")
	}
	if !(methods[0] == "session/cancel" && methods[1] == "$/cancel_request" || methods[1] == "session/cancel" && methods[0] == "$/cancel_request") {
		t.Errorf("after giving up on the prompt the agent got %v; want session/cancel and $/cancel_request", methods)
	}
}
