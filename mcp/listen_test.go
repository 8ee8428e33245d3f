package mcp_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
)

// frameName is a frame's method, or "response <id>" for a response; raw
// frames show the arrival order, which mcptest.Client (a demultiplexer)
// does not expose.
func frameName(t *testing.T, data []byte) string {
	t.Helper()
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if m.Method != "" {
		return m.Method
	}
	return "response " + string(m.ID)
}

// The CLI drops notifications that arrive before it has installed its
// handlers, which happens a moment after our tools/list answer: queued
// mentions must come after that answer, and a selection sent earlier must
// come again.
func TestMentionsWaitUntilAfterToolsListAndTheSelectionIsResent(t *testing.T) {
	srv, url := startServer(t, mcp.Config{ListenDelay: 50 * time.Millisecond})
	ws := dialRaw(t, url, http.Header{})
	next := func() string { return frameName(t, readFrame(t, ws)) }
	sendJSON(t, ws, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`)
	sendJSON(t, ws, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	sendJSON(t, ws, `{"jsonrpc":"2.0","method":"ide_connected","params":{"pid":1}}`)
	sendJSON(t, ws, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	for _, want := range []string{"response 0", "response 1"} {
		if got := next(); got != want {
			t.Fatalf("got %s, want %s", got, want)
		}
	}
	line := 3
	srv.Mention(mcp.Mention{Path: "/f", LineStart: &line, LineEnd: &line})
	srv.SendSelection(&mcp.Selection{Text: "x", FilePath: "/f"})
	if got := next(); got != "selection_changed" {
		t.Fatalf("got %s, want the selection at once (the client is initialized)", got)
	}
	sendJSON(t, ws, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	var got []string
	for len(got) < 3 {
		got = append(got, next())
	}
	rest := got[1] + " " + got[2]
	if got[0] != "response 2" || !strings.Contains(rest, "selection_changed") || !strings.Contains(rest, "at_mentioned") {
		t.Errorf("frames after tools/list = %v, want its answer, then the mention and the selection again", got)
	}
}

func TestAClientThatNeverListsToolsStillGetsNotifications(t *testing.T) {
	srv, url := startServer(t, mcp.Config{ListenDelay: time.Hour})
	c := mcptest.Dial(t, url, testToken)
	if _, err := c.Call("initialize", map[string]any{"protocolVersion": "2025-11-25"}); err != nil {
		t.Fatal(err)
	}
	if err := c.Notify("notifications/initialized", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Call("ping", nil); err != nil {
		t.Fatal(err)
	}
	srv.SendSelection(&mcp.Selection{Text: "at once", FilePath: "/f"})
	if raw, err := c.WaitNotification("selection_changed", wait); err != nil || !strings.Contains(string(raw), "at once") {
		t.Errorf("selection to an initialized client: %s, %v", raw, err)
	}
	srv.Mention(mcp.Mention{Path: "/dir/"})
	raw, err := c.WaitNotification("at_mentioned", wait)
	if err != nil || !strings.Contains(string(raw), `"/dir/"`) {
		t.Errorf("mention without tools/list: %s, %v; want it delivered after the fallback delay", raw, err)
	}
}
