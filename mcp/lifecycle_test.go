package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"testing"

	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
	"github.com/gorilla/websocket"
)

func TestCloseSaysGoingAwayAndCancelsCalls(t *testing.T) {
	b := newBlocker()
	srv, url := startServer(t, mcp.Config{Tools: []mcp.Tool{b.tool()}})
	clients := []*mcptest.Client{mcptest.Dial(t, url, testToken), mcptest.Dial(t, url, testToken)}
	for _, c := range clients {
		c.Initialize()
	}
	if _, err := clients[0].Start("tools/call", map[string]any{"name": "block"}); err != nil {
		t.Fatal(err)
	}
	recv(t, b.started, "the call to start")

	closeServer(t, srv)

	if err := recv(t, b.finished, "the running call to be cancelled"); !errors.Is(err, context.Canceled) {
		t.Errorf("running call's ctx.Err() = %v after Close, want context.Canceled", err)
	}
	for i, c := range clients {
		recv(t, c.Done(), "the client to see the close")
		if !mcptest.IsCloseError(c.Err(), websocket.CloseGoingAway) {
			t.Errorf("client %d ended with %v, want close 1001", i, c.Err())
		}
	}
	if n := len(srv.Clients()); n != 0 {
		t.Errorf("Clients() after Close has %d entries", n)
	}

	_, resp, err := mcptest.DialConn(url, tokenHeader())
	if err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("dial after Close: %v, want HTTP 503", err)
	}
}

func TestStartListensOnLoopback(t *testing.T) {
	srv, err := mcp.NewServer(mcp.Config{Token: testToken, Logger: mcp.NewTestLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	port, err := srv.Start()
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	c := mcptest.Dial(t, "ws://127.0.0.1:"+strconv.Itoa(port)+"/any/path", testToken)
	c.Initialize()
	c.Close()
	if _, err := srv.Start(); err == nil {
		t.Errorf("a second Start succeeded")
	}
	closeServer(t, srv)
	if _, err := srv.Start(); !errors.Is(err, mcp.ErrServerClosed) {
		t.Errorf("Start after Close: %v, want ErrServerClosed", err)
	}
}

func TestStartUsesTheConfiguredPortRange(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	port := busy.Addr().(*net.TCPAddr).Port

	srv, err := mcp.NewServer(mcp.Config{Token: testToken, PortMin: port, PortMax: port})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.Start(); err == nil {
		t.Errorf("Start on the busy range [%d,%d] succeeded", port, port)
	}
	busy.Close()
	got, err := srv.Start()
	if err != nil || got != port {
		t.Errorf("Start on the free range [%d,%d] = %d, %v", port, port, got, err)
	}
	closeServer(t, srv)
}

func TestNewServerRejectsBadConfig(t *testing.T) {
	ok := func(context.Context, json.RawMessage) (*mcp.ToolResult, error) { return nil, nil }
	tests := []struct {
		name string
		cfg  mcp.Config
	}{
		{"an empty token is refused", mcp.Config{}},
		{"an inverted port range is refused", mcp.Config{Token: "t", PortMin: 9000, PortMax: 8000}},
		{"a port above 65535 is refused", mcp.Config{Token: "t", PortMin: 1, PortMax: 70000}},
		{"a tool without a name is refused", mcp.Config{Token: "t", Tools: []mcp.Tool{{Handler: ok}}}},
		{"a tool without a handler is refused", mcp.Config{Token: "t", Tools: []mcp.Tool{{Name: "x"}}}},
		{"duplicate tool names are refused", mcp.Config{Token: "t", Tools: []mcp.Tool{{Name: "x", Handler: ok}, {Name: "x", Handler: ok}}}},
		{"a schema that is not JSON is refused", mcp.Config{Token: "t", Tools: []mcp.Tool{{Name: "x", Handler: ok, InputSchema: json.RawMessage(`{`)}}}},
		{"a schema that is not an object schema is refused", mcp.Config{Token: "t", Tools: []mcp.Tool{{Name: "x", Handler: ok, InputSchema: json.RawMessage(`{"type":"string"}`)}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := mcp.NewServer(tt.cfg); err == nil {
				t.Errorf("NewServer(%+v) succeeded", tt.cfg)
			}
		})
	}
	if _, err := mcp.NewServer(mcp.Config{Token: "t", Tools: mcp.IDETools(nil)}); err != nil {
		t.Errorf("NewServer with the IDE tools: %v", err)
	}
}

func ExampleNewServer() {
	srv, err := mcp.NewServer(mcp.Config{
		Token:   "secret-from-the-lock-file",
		Tools:   mcp.IDETools(nil), // pass the real Editor
		Name:    "claude.nvim",
		Version: "1.0.0",
	})
	if err != nil {
		panic(err)
	}
	port, err := srv.Start()
	if err != nil {
		panic(err)
	}
	_ = port // write <port>.lock, then launch claude with CLAUDE_CODE_SSE_PORT=<port>
	defer srv.Close(context.Background())
	fmt.Println("listening")
	// Output: listening
}
