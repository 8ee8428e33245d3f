package acpchat_test

import (
	"context"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/acp/acptest"
)

func init() {
	// Offers no session/list: asked to list, the chat says it cannot.
	scenarios["no-list"] = func(p *acptest.Peer) {
		p.Initialize(acptest.Baseline())
		p.NewSession("s1")
		p.EOF()
	}
	// Lists its conversations in two pages.
	scenarios["two-pages"] = func(p *acptest.Peer) {
		handshake(p)
		m := p.Expect("session/list")
		p.Reply(m, map[string]any{"sessions": []any{map[string]any{"sessionId": "a", "cwd": "/w", "title": "first"}}, "nextCursor": "c2"})
		m = p.Expect("session/list")
		if !strings.Contains(string(m.Params), `"cursor":"c2"`) {
			p.Reply(m, map[string]any{"sessions": []any{}})
			return
		}
		p.Reply(m, map[string]any{"sessions": []any{map[string]any{"sessionId": "b", "cwd": "/w", "title": "second"}}})
		p.EOF()
	}
}

func TestAnAgentWithoutSessionListSaysItCannotList(t *testing.T) {
	b, _ := startScenario(t, "no-list")
	_, err := b.ListConversations(context.Background())
	if err == nil || !strings.Contains(err.Error(), "does not list its conversations") {
		t.Errorf("ListConversations = %v; want an error saying the agent offers no session/list", err)
	}
}

func TestConversationsAreListedAcrossPages(t *testing.T) {
	b, _ := startScenario(t, "two-pages")
	got, err := b.ListConversations(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].SessionID != "a" || got[1].SessionID != "b" {
		t.Errorf("ListConversations = %+v; want a and b, the second page's too", got)
	}
}
