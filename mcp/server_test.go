package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"testing"

	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
	"github.com/google/uuid"
)

func TestABlockedCallDelaysNothingElse(t *testing.T) {
	b := newBlocker()
	srv, url := startServer(t, mcp.Config{Tools: []mcp.Tool{b.tool(), echoTool}})
	c := mcptest.Dial(t, url, testToken)
	c.Initialize()

	var blocked []*mcptest.Pending
	for range 5 {
		p, err := c.Start("tools/call", map[string]any{"name": "block", "arguments": map[string]any{}})
		if err != nil {
			t.Fatal(err)
		}
		blocked = append(blocked, p)
	}
	for range blocked {
		recv(t, b.started, "the blocking calls to start together")
	}

	if got := callText(t, c, "echo", map[string]any{"text": "through"}); got != "through" {
		t.Errorf("echo while calls block = %q, want through", got)
	}
	if _, err := c.Call("ping", nil); err != nil {
		t.Errorf("ping while calls block: %v", err)
	}
	srv.Notify("diagnostics_changed", map[string]any{"uri": "file:///a.go"})
	if _, err := c.WaitNotification("diagnostics_changed", wait); err != nil {
		t.Errorf("notification while calls block: %v", err)
	}
	srv.SendSelection(&mcp.Selection{FilePath: "/a.go"})
	if _, err := c.WaitNotification("selection_changed", wait); err != nil {
		t.Errorf("selection while calls block: %v", err)
	}

	close(b.release)
	for _, p := range blocked {
		res, err := p.Wait()
		if err != nil || !json.Valid(res) {
			t.Fatalf("blocked call %d after release: %s, %v", p.ID, res, err)
		}
		var tr mcp.ToolResult
		if err := json.Unmarshal(res, &tr); err != nil || tr.Content[0].Text != "released" {
			t.Errorf("blocked call %d answered %s, want released", p.ID, res)
		}
	}
}

func TestCancelledCallIsNotAnswered(t *testing.T) {
	b := newBlocker()
	_, url := startServer(t, mcp.Config{Tools: []mcp.Tool{b.tool(), echoTool}})
	ws := dialRaw(t, url, http.Header{})

	sendJSON(t, ws, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"block","arguments":{}}}`)
	recv(t, b.started, "the call to start")
	sendJSON(t, ws, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"user pressed Esc"}}`)
	if err := recv(t, b.finished, "the call's context to end"); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled call's ctx.Err() = %v, want context.Canceled", err)
	}

	// The server frees id 7 only after queueing any answer to the old call,
	// so once a new call with id 7 is accepted, an answer to the cancelled
	// one would already have arrived ahead of it.
	for {
		sendJSON(t, ws, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"probe"}}}`)
		frame := readFrame(t, ws)
		var m struct {
			Result *mcp.ToolResult
			Error  *mcptest.RPCError
		}
		if err := json.Unmarshal(frame, &m); err != nil {
			t.Fatalf("bad frame %s: %v", frame, err)
		}
		if m.Error != nil && m.Error.Code == mcp.CodeInvalidRequest {
			continue // id 7 still taken: the old call is winding down
		}
		if m.Result == nil || len(m.Result.Content) != 1 || m.Result.Content[0].Text != "probe" {
			t.Fatalf("after cancelling call 7 the server sent %s, want only the probe's answer", frame)
		}
		break
	}
}

func TestDisconnectCancelsRunningCalls(t *testing.T) {
	b := newBlocker()
	_, url := startServer(t, mcp.Config{Tools: []mcp.Tool{b.tool()}})
	c := mcptest.Dial(t, url, testToken)
	for range 3 {
		if _, err := c.Start("tools/call", map[string]any{"name": "block"}); err != nil {
			t.Fatal(err)
		}
	}
	for range 3 {
		recv(t, b.started, "the calls to start")
	}
	c.Close()
	for i := range 3 {
		if err := recv(t, b.finished, "the calls' contexts to end"); !errors.Is(err, context.Canceled) {
			t.Errorf("call %d: ctx.Err() = %v after disconnect, want context.Canceled", i, err)
		}
	}
}

func TestHandlerPanicIsInternalErrorAndSessionLives(t *testing.T) {
	_, url := startServer(t, mcp.Config{Tools: []mcp.Tool{panicTool, echoTool}})
	c := mcptest.Dial(t, url, testToken)
	c.Initialize()
	for i := range 2 {
		_, err := c.CallTool("panic", nil)
		if rpcCode(err) != mcp.CodeInternalError {
			t.Errorf("panicking call %d: error %v, want code %d", i, err, mcp.CodeInternalError)
		}
	}
	if got := callText(t, c, "echo", map[string]any{"text": "alive"}); got != "alive" {
		t.Errorf("echo after panics = %q, want alive", got)
	}
}

func TestToolErrorsBecomeIsErrorOrInvalidParams(t *testing.T) {
	failing := mcp.Tool{Name: "fail", Handler: func(_ context.Context, args json.RawMessage) (*mcp.ToolResult, error) {
		var a struct{ Bad bool }
		_ = json.Unmarshal(args, &a)
		if a.Bad {
			return nil, errors.Join(mcp.ErrInvalidParams, errors.New("bad is not allowed"))
		}
		return nil, errors.New("the editor is busy")
	}}
	_, url := startServer(t, mcp.Config{Tools: []mcp.Tool{failing}})
	c := mcptest.Dial(t, url, testToken)

	res, err := c.CallTool("fail", nil)
	if err != nil || !res.IsError || len(res.Content) != 1 || res.Content[0].Text != "the editor is busy" {
		t.Errorf("a failing tool answered %+v, %v; want isError with the error text", res, err)
	}
	if _, err := c.CallTool("fail", map[string]any{"Bad": true}); rpcCode(err) != mcp.CodeInvalidParams {
		t.Errorf("a tool failing with ErrInvalidParams: error %v, want code %d", err, mcp.CodeInvalidParams)
	}
}

func TestClientsAndCallbacks(t *testing.T) {
	ready := make(chan mcp.ClientInfo, 4)
	gone := make(chan mcp.ClientInfo, 4)
	srv, url := startServer(t, mcp.Config{
		OnClientReady: func(ci mcp.ClientInfo) { ready <- ci },
		OnClientGone:  func(ci mcp.ClientInfo) { gone <- ci },
	})
	c := mcptest.Dial(t, url, testToken)
	c.Initialize()

	r := recv(t, ready, "OnClientReady")
	if r.PID != os.Getpid() || !r.Ready {
		t.Errorf("OnClientReady got PID %d Ready %v, want PID %d from ide_connected and Ready", r.PID, r.Ready, os.Getpid())
	}
	clients := srv.Clients()
	if len(clients) != 1 {
		t.Fatalf("Clients() = %+v, want one", clients)
	}
	got := clients[0]
	if _, err := uuid.Parse(got.ID); err != nil || got.ID != r.ID {
		t.Errorf("client ID %q: want a UUID equal to the ready callback's %q", got.ID, r.ID)
	}
	if got.Name != "mcptest" || got.Version != "1" || got.PID != os.Getpid() || !got.Ready ||
		got.RemoteAddr == "" || got.ConnectedAt.IsZero() {
		t.Errorf("Clients()[0] = %+v, want clientInfo mcptest/1, our pid, ready, an address and a time", got)
	}

	c.Close()
	g := recv(t, gone, "OnClientGone")
	if g.ID != r.ID {
		t.Errorf("OnClientGone for %q, want %q", g.ID, r.ID)
	}
	if left := srv.Clients(); len(left) != 0 {
		t.Errorf("Clients() after OnClientGone = %+v, want none", left)
	}
}
