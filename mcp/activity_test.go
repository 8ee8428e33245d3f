package mcp_test

import (
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
)

// OnActivity tells the host when it has gone quiet (it trims its memory then): it must run
// after every message handled, and again when a long call ends, after the message that
// started it.
func TestOnActivityRunsAfterEachMessageAndWhenACallEnds(t *testing.T) {
	activity := make(chan struct{}, 64)
	b := newBlocker()
	_, url := startServer(t, mcp.Config{
		Tools:      []mcp.Tool{b.tool()},
		OnActivity: func() { activity <- struct{}{} },
	})
	c := mcptest.Dial(t, mcptest.WebSocketURL(url), testToken)
	c.Initialize() // initialize, notifications/initialized, ide_connected, tools/list
	expect := func(n int, after string) {
		t.Helper()
		for i := range n {
			select {
			case <-activity:
			case <-time.After(wait):
				t.Fatalf("%d of %d activity calls after %s", i, n, after)
			}
		}
	}
	expect(4, "initialize")
	pending, err := c.Start("tools/call", map[string]any{"name": "block", "arguments": map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	<-b.started
	expect(1, "the tools/call message")
	close(b.release)
	if _, err := pending.Wait(); err != nil {
		t.Fatal(err)
	}
	expect(1, "the call's end")
}
