package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
	"github.com/gorilla/websocket"
)

const testToken = "test-token-0123456789"

// wait is the generous bound on waiting for something that should happen
// promptly; it only turns a hang into a failure.
const wait = 20 * time.Second

// startServer serves cfg (with testToken and a test logger by default) on
// an httptest server and returns it and its http:// URL.
func startServer(t *testing.T, cfg mcp.Config) (*mcp.Server, string) {
	t.Helper()
	if cfg.Token == "" {
		cfg.Token = testToken
	}
	if cfg.Logger == nil {
		cfg.Logger = mcp.NewTestLogger(t)
	}
	if cfg.ListenDelay == 0 {
		cfg.ListenDelay = -1 // notifications flow as soon as tools/list is answered
	}
	srv, err := mcp.NewServer(cfg)
	if err != nil {
		t.Fatalf("NewServer: %v", err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		closeServer(t, srv)
		ts.Close()
	})
	return srv, ts.URL
}

func closeServer(t *testing.T, srv *mcp.Server) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	if err := srv.Close(ctx); err != nil {
		t.Errorf("Close: %v", err)
	}
}

// blocker is a tool that blocks until released or until its context ends.
type blocker struct {
	started  chan struct{} // one value per call that started
	release  chan struct{} // close to let every call return "released"
	finished chan error    // the context error of each call that ended by cancellation
}

func newBlocker() *blocker {
	return &blocker{started: make(chan struct{}, 16), release: make(chan struct{}), finished: make(chan error, 16)}
}

func (b *blocker) tool() mcp.Tool {
	return mcp.Tool{Name: "block", Description: "Block until released",
		Handler: func(ctx context.Context, _ json.RawMessage) (*mcp.ToolResult, error) {
			b.started <- struct{}{}
			select {
			case <-b.release:
				return mcp.TextResult("released"), nil
			case <-ctx.Done():
				b.finished <- ctx.Err()
				// A result, not an error: if the server sent anything for
				// a cancelled call, the test would see this.
				return mcp.TextResult("answered after cancellation"), nil
			}
		}}
}

// recv takes the next value from ch, giving up after wait.
func recv[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(wait):
		t.Fatalf("timed out waiting for %s", what)
		panic("unreachable")
	}
}

// tokenHeader is the upgrade header the CLI sends, with testToken.
func tokenHeader() http.Header {
	return http.Header{mcptest.TokenHeader: {testToken}}
}

// dialRaw connects a plain gorilla client the way the CLI does (headers h
// plus the token), for tests that need exact control over frames.
func dialRaw(t *testing.T, url string, h http.Header) *websocket.Conn {
	t.Helper()
	h.Set(mcptest.TokenHeader, testToken)
	ws, _, err := mcptest.DialConn(url, h)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws
}

func sendJSON(t *testing.T, ws *websocket.Conn, frame string) {
	t.Helper()
	if err := ws.WriteMessage(websocket.TextMessage, []byte(frame)); err != nil {
		t.Fatalf("send %s: %v", frame, err)
	}
}

// nextFrame reads ws's next frame, giving up after wait.
func nextFrame(ws *websocket.Conn) ([]byte, error) {
	_ = ws.SetReadDeadline(time.Now().Add(wait))
	_, data, err := ws.ReadMessage()
	return data, err
}

// readFrame is nextFrame for a frame that must come.
func readFrame(t *testing.T, ws *websocket.Conn) []byte {
	t.Helper()
	data, err := nextFrame(ws)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	return data
}

var echoTool = mcp.Tool{Name: "echo", Description: "Echo text",
	InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
	Handler: func(_ context.Context, args json.RawMessage) (*mcp.ToolResult, error) {
		var a struct{ Text string }
		if err := mcp.DecodeArgs(args, &a); err != nil {
			return nil, err
		}
		return mcp.TextResult(a.Text), nil
	}}

var panicTool = mcp.Tool{Name: "panic", Description: "Panic",
	Handler: func(context.Context, json.RawMessage) (*mcp.ToolResult, error) { panic("boom") }}

// sizeTool answers the length of its data argument.
var sizeTool = mcp.Tool{Name: "size", Description: "Length of data",
	InputSchema: json.RawMessage(`{"type":"object","properties":{"data":{"type":"string"}},"required":["data"]}`),
	Handler: func(_ context.Context, args json.RawMessage) (*mcp.ToolResult, error) {
		var a struct{ Data string }
		if err := mcp.DecodeArgs(args, &a); err != nil {
			return nil, err
		}
		return mcp.TextResult(strconv.Itoa(len(a.Data))), nil
	}}

// callText calls a tool that must answer with one text block.
func callText(t *testing.T, c *mcptest.Client, name string, args any) string {
	t.Helper()
	res, err := c.CallTool(name, args)
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	if len(res.Content) != 1 || res.IsError {
		t.Fatalf("call %s: result %+v, want one text block and no error", name, res)
	}
	return res.Content[0].Text
}

// rpcCode is the JSON-RPC error code in err, or 0 if it is not one.
func rpcCode(err error) int {
	var e *mcptest.RPCError
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}
