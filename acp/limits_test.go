package acp_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/acp"
	"github.com/claude-nvim/claude.nvim/acp/acptest"
)

func TestATenMiBUpdateArrivesWhole(t *testing.T) {
	big := strings.Repeat("0123456789abcdef\"\\\n", 10<<20/19+1) // escaping makes the line longer still
	rec := newRecorder()
	c := scripted(t, rec, acp.Options{}, func(p *acptest.Peer) {
		agentHandshake(p)
		m := p.Expect("session/prompt")
		p.Update("s1", map[string]any{"sessionUpdate": "tool_call_update", "toolCallId": "t1", "status": "completed",
			"content": []any{map[string]any{"type": "content", "content": map[string]any{"type": "text", "text": big}}}})
		p.Update("s1", map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": "done"}})
		p.Reply(m, map[string]any{"stopReason": "end_turn"})
	})
	handshake(t, c)
	if _, err := c.Prompt(ctx(t), "s1", []acp.ContentBlock{acp.Text("hi")}); err != nil {
		t.Fatal(err)
	}
	ups := rec.all()
	if len(ups) != 2 {
		t.Fatalf("got %d updates; want the big one and the next", len(ups))
	}
	u, ok := ups[0].Update.(*acp.ToolCallUpdate)
	if !ok || len(u.Content) != 1 || u.Content[0].Content == nil || u.Content[0].Content.Text != big {
		t.Errorf("the %d-byte update did not arrive whole: %T", len(big), ups[0].Update)
	}
}

// Past the limit a message is skipped, not held, and what it was is answered or reported:
// the connection serves on.
func TestAMessagePastTheLimitIsSkippedWithAClearError(t *testing.T) {
	const limit = 1 << 20
	huge := strings.Repeat("x", limit+100)
	f := files{recorder: newRecorder(), write: func(context.Context, *acp.WriteTextFileRequest) error {
		t.Error("a write past the limit reached the handler")
		return nil
	}}
	c := scripted(t, f, acp.Options{MaxLine: limit}, func(p *acptest.Peer) {
		agentHandshake(p)
		m := p.Expect("session/prompt")
		// An update: reported as an UnknownUpdate of its session and kind (which come
		// first, as claude-agent-acp writes them).
		p.Send(`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"` + huge + `"}}}}`)
		// A request: answered with the error.
		id := p.Request("fs/write_text_file", map[string]any{"sessionId": "s1", "path": "/tmp/big", "content": huge})
		got := p.ExpectResponse(id)
		if got.Error == nil || got.Error.Code != acp.CodeInvalidRequest || !strings.Contains(got.Error.Message, "exceeds the 1048576-byte limit") {
			t.Errorf("a request past the limit was answered %s; want -32600 saying so", got.Line)
		}
		// An answer: the call it answers fails with the error.
		p.SendJSON(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{"stopReason": "end_turn", "_meta": huge}})
		// And the connection serves on.
		p.Reply(p.Expect("session/set_mode"), map[string]any{})
	})
	handshake(t, c)
	_, err := c.Prompt(ctx(t), "s1", []acp.ContentBlock{acp.Text("hi")})
	var tl *acp.TooLongError
	if !errors.As(err, &tl) || tl.Limit != limit || tl.Size <= limit {
		t.Errorf("a prompt answered past the limit: %v; want a TooLongError", err)
	}
	if err := c.SetMode(ctx(t), "s1", "default"); err != nil {
		t.Errorf("the call after a skipped answer: %v", err)
	}
	ups := f.all()
	if len(ups) != 1 {
		t.Fatalf("updates = %s; want the skipped one reported", describe(ups))
	}
	u, ok := ups[0].Update.(*acp.UnknownUpdate)
	if !ok || ups[0].SessionID != "s1" || u.Kind() != acp.KindAgentMessageChunk || !errors.As(u.Err, &tl) {
		t.Errorf("a skipped update = %s %#v; want an UnknownUpdate of s1, agent_message_chunk, with the TooLongError", ups[0].SessionID, ups[0].Update)
	}
}
