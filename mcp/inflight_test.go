package mcp_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
)

// A client at the limit, e.g. with openDiffs waiting for the user, must
// still be able to ping, cancel and call again once a call has ended.
func TestCallsPastTheInFlightLimitAreAnsweredBusy(t *testing.T) {
	b := newBlocker()
	_, url := startServer(t, mcp.Config{
		Tools:  []mcp.Tool{b.tool(), echoTool},
		Limits: mcp.Limits{CallsInFlight: 3},
	})
	c := mcptest.Dial(t, url, testToken)
	c.Initialize()
	var blocked []*mcptest.Pending
	for range 3 {
		p, err := c.Start("tools/call", map[string]any{"name": "block"})
		if err != nil {
			t.Fatal(err)
		}
		blocked = append(blocked, p)
		recv(t, b.started, "a blocking call to start")
	}

	if _, err := c.CallTool("echo", map[string]any{"text": "x"}); rpcCode(err) != mcp.CodeServerBusy {
		t.Errorf("a fourth call: %v, want error %d", err, mcp.CodeServerBusy)
	}
	if _, err := c.Call("ping", nil); err != nil {
		t.Errorf("ping at the limit: %v", err)
	}

	if err := blocked[0].Cancel("the user answered in the terminal"); err != nil {
		t.Fatal(err)
	}
	recv(t, b.finished, "the cancelled call to end")
	// The slot is free once the call has wound down, a moment after its
	// handler returned; until then the answer is still busy.
	deadline := time.Now().Add(wait)
	for {
		res, err := c.CallTool("echo", map[string]any{"text": "after cancel"})
		if err == nil {
			if res.Content[0].Text != "after cancel" {
				t.Errorf("echo after a cancel answered %+v", res)
			}
			break
		}
		if rpcCode(err) != mcp.CodeServerBusy || time.Now().After(deadline) {
			t.Fatalf("echo after a cancel: %v", err)
		}
	}

	close(b.release)
	for _, p := range blocked[1:] {
		if _, err := p.Wait(); err != nil {
			t.Errorf("blocked call %d after release: %v", p.ID, err)
		}
	}
}

func TestMalformedCallsKeepTheirCodesAtTheLimit(t *testing.T) {
	b := newBlocker()
	_, url := startServer(t, mcp.Config{
		Tools:  []mcp.Tool{b.tool(), echoTool},
		Limits: mcp.Limits{CallsInFlight: 1},
	})
	c := mcptest.Dial(t, url, testToken)
	running, err := c.Start("tools/call", map[string]any{"name": "block"})
	if err != nil {
		t.Fatal(err)
	}
	recv(t, b.started, "the blocking call to start")
	t.Cleanup(func() { close(b.release) })

	tests := []struct {
		name  string
		frame string
		want  int
	}{
		{"bad JSON is still a parse error", `{"jsonrpc":"2.0","id":"a","method":"tools/call"`, mcp.CodeParseError},
		{"an unknown tool is still invalid params", `{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"nope"}}`, mcp.CodeInvalidParams},
		{"arguments that are not an object are still invalid params",
			`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"echo","arguments":[1]}}`, mcp.CodeInvalidParams},
		{"missing required arguments are still invalid params",
			`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"echo","arguments":{}}}`, mcp.CodeInvalidParams},
		{"an unknown method is still method not found", `{"jsonrpc":"2.0","id":"a","method":"nope"}`, mcp.CodeMethodNotFound},
		{"a valid call is busy", `{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}`, mcp.CodeServerBusy},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := c.SendRaw([]byte(tt.frame)); err != nil {
				t.Fatal(err)
			}
			r, err := c.WaitUnmatched(wait)
			if err != nil {
				t.Fatal(err)
			}
			if r.Error == nil || r.Error.Code != tt.want {
				t.Errorf("%s answered %+v, want error %d", tt.frame, r.Error, tt.want)
			}
		})
	}

	// The answer carries the running call's id, so it lands there.
	dup := `{"jsonrpc":"2.0","id":` + strconv.FormatInt(running.ID, 10) + `,"method":"tools/call","params":{"name":"block"}}`
	if err := c.SendRaw([]byte(dup)); err != nil {
		t.Fatal(err)
	}
	if _, err := running.Wait(); rpcCode(err) != mcp.CodeInvalidRequest {
		t.Errorf("a call reusing the running call's id: %v, want error %d", err, mcp.CodeInvalidRequest)
	}
}

// A burst sent at once starts no more calls than the limit; the rest are
// answered busy, in order, before anything sent after them.
func TestABurstOfCallsStartsAtMostTheLimit(t *testing.T) {
	const limit, burst = 4, 200
	b := newBlocker()
	_, url := startServer(t, mcp.Config{
		Tools:  []mcp.Tool{b.tool()},
		Limits: mcp.Limits{CallsInFlight: limit},
	})
	ws := dialRaw(t, url, http.Header{})
	for i := 1; i <= burst; i++ {
		sendJSON(t, ws, `{"jsonrpc":"2.0","id":`+strconv.Itoa(i)+`,"method":"tools/call","params":{"name":"block"}}`)
	}
	sendJSON(t, ws, `{"jsonrpc":"2.0","id":"done","method":"ping"}`)
	busy := 0
	for {
		var m struct {
			ID    json.RawMessage
			Error *mcptest.RPCError
		}
		if err := json.Unmarshal(readFrame(t, ws), &m); err != nil {
			t.Fatal(err)
		}
		if string(m.ID) == `"done"` {
			break
		}
		if m.Error == nil || m.Error.Code != mcp.CodeServerBusy {
			t.Fatalf("call %s answered %+v while %d calls block, want busy", m.ID, m.Error, limit)
		}
		busy++
	}
	for range limit {
		recv(t, b.started, "the calls within the limit to start")
	}
	if busy != burst-limit || len(b.started) != 0 {
		t.Errorf("%d calls at once with a limit of %d: %d busy and %d more started, want %d busy and none",
			burst, limit, busy, len(b.started), burst-limit)
	}
	close(b.release)
	for range limit {
		readFrame(t, ws)
	}
}

func TestMemoryIsReturnedWhenABurstConnectionEnds(t *testing.T) {
	b := newBlocker()
	srv, url := startServer(t, mcp.Config{
		Tools:  []mcp.Tool{b.tool()},
		Limits: mcp.Limits{CallsInFlight: 1},
	})
	returned := make(chan struct{}, 1)
	srv.OnMemoryReturned(func() { returned <- struct{}{} })
	c := mcptest.Dial(t, url, testToken)
	if _, err := c.Start("tools/call", map[string]any{"name": "block"}); err != nil {
		t.Fatal(err)
	}
	recv(t, b.started, "the call to start")
	if _, err := c.CallTool("block", nil); rpcCode(err) != mcp.CodeServerBusy {
		t.Fatalf("a call past the limit: %v, want busy", err)
	}
	c.Close()
	recv(t, returned, "memory to be returned after the connection ended")
}

// A connection that stays (the CLI's) still gives the memory of a big call
// back once the call ends: an idle host would otherwise hold it for minutes.
func TestMemoryIsReturnedWhenABigCallEnds(t *testing.T) {
	srv, url := startServer(t, mcp.Config{Tools: []mcp.Tool{echoTool}})
	returned := make(chan struct{}, 1)
	srv.OnMemoryReturned(func() { returned <- struct{}{} })
	c := mcptest.Dial(t, url, testToken)
	c.Initialize()
	if _, err := c.CallTool("echo", map[string]string{"text": strings.Repeat("x", 2<<20)}); err != nil {
		t.Fatal(err)
	}
	recv(t, returned, "memory to be returned after the big call ended")
}
