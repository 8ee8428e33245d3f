package mcp_test

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
	"github.com/gorilla/websocket"
)

// startListening serves cfg with Start, which (unlike Handler under
// httptest) applies the pre-upgrade limits, and returns the server and its
// http:// URL.
func startListening(t *testing.T, cfg mcp.Config) (*mcp.Server, string) {
	t.Helper()
	cfg.Token = testToken
	if cfg.Logger == nil {
		cfg.Logger = mcp.NewTestLogger(t)
	}
	srv, err := mcp.NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	port, err := srv.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeServer(t, srv) })
	return srv, "http://127.0.0.1:" + strconv.Itoa(port)
}

// dialTCP opens a plain TCP connection to the server at url, for requests
// no WebSocket client would send.
func dialTCP(t *testing.T, url string) net.Conn {
	t.Helper()
	nc, err := net.Dial("tcp", mustURL(t, url).Host)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	return nc
}

// waitClosed reads nc until the server closes it, failing if it is still
// open after wait.
func waitClosed(t *testing.T, nc net.Conn, what string) {
	t.Helper()
	_ = nc.SetReadDeadline(time.Now().Add(wait))
	_, err := io.Copy(io.Discard, nc)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("%s: the server kept the connection open", what)
	}
}

func TestRefusedRequestsCloseTheConnection(t *testing.T) {
	_, url := startListening(t, mcp.Config{})
	upgrade := "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
	tests := []struct {
		name    string
		request string
		want    int
	}{
		{"a wrong token is answered 401 and closed",
			"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + upgrade + "X-Claude-Code-Ide-Authorization: wrong\r\n\r\n", 401},
		{"a browser's Origin is answered 403 and closed",
			"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n" + upgrade + "Origin: http://evil.example\r\n\r\n", 403},
		{"a request that is not an upgrade is answered 400 and closed, even with the token",
			"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Claude-Code-Ide-Authorization: " + testToken + "\r\n\r\n", 400},
		{"a refused request with an unsent body is answered and closed",
			"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000\r\n\r\n", 401},
		{"headers past the limit are answered 431 and closed",
			"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + strings.Repeat("x", 100<<10) + "\r\n\r\n", 431},
		{"pipelined refused requests get one answer, then the connection closes",
			"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nGET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 401},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nc := dialTCP(t, url)
			if _, err := io.WriteString(nc, tt.request); err != nil {
				t.Fatal(err)
			}
			_ = nc.SetReadDeadline(time.Now().Add(wait))
			br := bufio.NewReader(nc)
			resp, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatalf("read the answer: %v", err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.want || !resp.Close {
				t.Errorf("answer %d with Connection %q, want %d and close", resp.StatusCode, resp.Header.Get("Connection"), tt.want)
			}
			if rest, _ := io.ReadAll(br); len(rest) > 0 {
				t.Errorf("after the answer the server sent %q, want nothing", rest)
			}
			waitClosed(t, nc, "after the answer")
		})
	}
}

func TestSilentAndTricklingConnectionsTimeOut(t *testing.T) {
	_, url := startListening(t, mcp.Config{Limits: mcp.Limits{Handshake: 50 * time.Millisecond}})
	tests := []struct {
		name string
		sent string
	}{
		{"a connection that sends nothing is closed", ""},
		{"a connection that never finishes its headers is closed", "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"},
		{"a connection that never sends the body it announced is closed",
			"POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Claude-Code-Ide-Authorization: " + testToken + "\r\nContent-Length: 10\r\n\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nc := dialTCP(t, url)
			if _, err := io.WriteString(nc, tt.sent); err != nil {
				t.Fatal(err)
			}
			waitClosed(t, nc, "held open")
		})
	}
}

// A process without the token can fill the pending cap with silent
// connections; the CLI must still get in, and the holder loses its oldest.
func TestTheCLIConnectsWhileSilentConnectionsHoldThePendingCap(t *testing.T) {
	const limit = 4
	srv, url := startListening(t, mcp.Config{
		Tools:  []mcp.Tool{echoTool},
		Limits: mcp.Limits{PendingConns: limit, Handshake: time.Hour},
	})
	var held []net.Conn
	for range 10 {
		held = append(held, dialTCP(t, url))
	}
	cliGetsIn := func(what string) {
		t.Helper()
		cli := mcptest.Dial(t, url, testToken)
		cli.Initialize()
		if got := callText(t, cli, "echo", map[string]any{"text": "in"}); got != "in" {
			t.Fatalf("%s: echo answered %q", what, got)
		}
	}

	cliGetsIn("a CLI after 10 silent connections")
	// 10 silent and the CLI's went over the cap of 4 by 7: the oldest 7
	// silent ones; the CLI's left the pending set by upgrading.
	for j := range 7 {
		waitClosed(t, held[j], "silent connection "+strconv.Itoa(j)+" over the cap")
	}
	if got := srv.PendingConns(); got != 3 {
		t.Errorf("%d pending connections after the first CLI, want the 3 newest silent ones", got)
	}

	held = append(held, dialTCP(t, url)) // the cap is full again
	cliGetsIn("a second CLI while silent connections fill the cap")
	waitClosed(t, held[7], "the oldest silent connection left")
	if got := srv.PendingConns(); got != limit-1 {
		t.Errorf("%d pending connections after the second CLI, want %d", got, limit-1)
	}
}

func TestClientsOverTheCapAreRefused(t *testing.T) {
	gone := make(chan mcp.ClientInfo, 2)
	_, url := startServer(t, mcp.Config{
		Limits:       mcp.Limits{Clients: 2},
		OnClientGone: func(ci mcp.ClientInfo) { gone <- ci },
	})
	first := mcptest.Dial(t, url, testToken)
	mcptest.Dial(t, url, testToken)

	_, resp, err := mcptest.DialConn(url, tokenHeader())
	if err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable || !resp.Close {
		t.Fatalf("a third client: %v (response %+v), want 503 and close", err, resp)
	}

	first.Close()
	recv(t, gone, "the first client to be gone")
	third := mcptest.Dial(t, url, testToken)
	third.Initialize()
}

func TestAClientThatNeverInitializesIsClosed(t *testing.T) {
	_, url := startServer(t, mcp.Config{
		Tools:  []mcp.Tool{echoTool},
		Limits: mcp.Limits{Initialize: 50 * time.Millisecond},
	})
	talker := mcptest.Dial(t, url, testToken)
	talker.Initialize()
	// Connected after talker, so its time runs out after talker's would.
	mute := mcptest.Dial(t, url, testToken)
	recv(t, mute.Done(), "the silent client to be closed")
	if !mcptest.IsCloseError(mute.Err(), websocket.ClosePolicyViolation) {
		t.Errorf("a client that never initialized ended with %v, want close 1008", mute.Err())
	}
	if got := callText(t, talker, "echo", map[string]any{"text": "still here"}); got != "still here" {
		t.Errorf("the initialized client got %q", got)
	}
}
