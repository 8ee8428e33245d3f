// Package mcptest is a small MCP client for tests that need to talk to an
// mcp.Server the way the Claude Code CLI does, like net/http/httptest.
//
// A reader goroutine demultiplexes the connection: responses are matched to
// calls by id, and notifications are buffered (never lost) until a test
// waits for them, so a Client is safe for concurrent use.
package mcptest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// DefaultTimeout bounds each wait of Call, CallTool and Pending.Wait. It is
// generous on purpose: it only turns a hung test into a failing one.
const DefaultTimeout = 30 * time.Second

// Client is a connected test client.
type Client struct {
	t  testing.TB
	ws *websocket.Conn

	// Timeout bounds waiting for a response; DefaultTimeout when 0.
	Timeout time.Duration

	writeMu sync.Mutex
	nextID  atomic.Int64

	mu        sync.Mutex
	pending   map[string]chan response
	notes     []Notification
	unmatched []Response
	changed   chan struct{} // closed and replaced whenever notes/unmatched grow
	done      chan struct{} // closed when the reader stops
	err       error         // why the reader stopped
	closeOnce sync.Once
}

// Notification is a server-to-client notification.
type Notification struct {
	Method string
	Params json.RawMessage
}

// Response is a response no call was waiting for (e.g. the id-null error
// answering a malformed frame).
type Response struct {
	ID     json.RawMessage
	Result json.RawMessage
	Error  *RPCError
}

// RPCError is a JSON-RPC error response.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *RPCError) Error() string {
	return fmt.Sprintf("jsonrpc error %d: %s", e.Code, e.Message)
}

type response struct {
	result json.RawMessage
	err    error
}

// TokenHeader carries the lock file's authToken on the upgrade request.
const TokenHeader = "X-Claude-Code-Ide-Authorization"

// DialConn opens a bare WebSocket to url (ws:// or the http:// of an
// httptest.Server) the way the CLI does: offering the subprotocol "mcp",
// with h as the request headers (the CLI puts its token in TokenHeader)
// and the handshake bounded by DefaultTimeout. It is for tests that need
// exact control over frames or want to see a refusal; the caller closes
// the connection.
func DialConn(url string, h http.Header) (*websocket.Conn, *http.Response, error) {
	d := websocket.Dialer{Subprotocols: []string{"mcp"}, HandshakeTimeout: DefaultTimeout}
	return d.Dial(WebSocketURL(url), h)
}

// Dial connects to url with DialConn and the token, as the CLI does. It
// fails the test if the upgrade is refused, and closes the client at
// cleanup.
func Dial(t testing.TB, url, token string) *Client {
	t.Helper()
	return DialFrames(t, url, token, 0)
}

// DialFrames is Dial sending each message as one frame when it is at most
// frameSize bytes: gorilla's client splits a message into frames of its
// write buffer (4 KiB by default), which the CLI never does and some
// servers refuse (continuation frames). 0 keeps the default.
func DialFrames(t testing.TB, url, token string, frameSize int) *Client {
	t.Helper()
	d := websocket.Dialer{Subprotocols: []string{"mcp"}, HandshakeTimeout: DefaultTimeout, WriteBufferSize: frameSize}
	ws, resp, err := d.Dial(WebSocketURL(url), http.Header{TokenHeader: {token}})
	if err != nil {
		status := ""
		if resp != nil {
			status = " (HTTP " + resp.Status + ")"
		}
		t.Fatalf("mcptest: dial %s: %v%s", url, err, status)
	}
	c := &Client{
		t:       t,
		ws:      ws,
		pending: map[string]chan response{},
		changed: make(chan struct{}),
		done:    make(chan struct{}),
	}
	go c.read()
	t.Cleanup(c.Close)
	return c
}

// WebSocketURL turns the http:// or https:// URL of an httptest.Server into
// its ws:// or wss:// form; other URLs are returned unchanged.
func WebSocketURL(url string) string {
	if rest, ok := strings.CutPrefix(url, "http"); ok {
		return "ws" + rest
	}
	return url
}

// Subprotocol is the subprotocol the server agreed to.
func (c *Client) Subprotocol() string { return c.ws.Subprotocol() }

// Done is closed when the connection has ended.
func (c *Client) Done() <-chan struct{} { return c.done }

// Err is why the connection ended (e.g. a *websocket.CloseError), or nil
// while it is open.
func (c *Client) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Close closes the connection with 1000 (as the CLI does on exit) and waits
// for the reader. It is safe to call more than once.
func (c *Client) Close() {
	c.closeOnce.Do(func() {
		c.writeMu.Lock()
		_ = c.ws.WriteControl(websocket.CloseMessage,
			websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
		c.writeMu.Unlock()
		// The server answers our close frame, which ends the reader; don't
		// wait long for a server that has gone already.
		t := time.NewTimer(5 * time.Second)
		defer t.Stop()
		select {
		case <-c.done:
		case <-t.C:
		}
		c.ws.Close()
		<-c.done
	})
}

func (c *Client) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return DefaultTimeout
}

func (c *Client) read() {
	var err error
	defer func() {
		c.mu.Lock()
		c.err = err
		c.mu.Unlock()
		close(c.done)
	}()
	for {
		var data []byte
		_, data, err = c.ws.ReadMessage()
		if err != nil {
			return
		}
		c.dispatch(data)
	}
}

func (c *Client) dispatch(data []byte) {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
		Result json.RawMessage `json:"result"`
		Error  *RPCError       `json:"error"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		c.t.Errorf("mcptest: server sent a frame that is not JSON-RPC: %q: %v", data, err)
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if m.Method != "" {
		c.notes = append(c.notes, Notification{Method: m.Method, Params: m.Params})
		c.signalLocked()
		return
	}
	if ch, ok := c.pending[string(m.ID)]; ok {
		delete(c.pending, string(m.ID))
		r := response{result: m.Result}
		if m.Error != nil {
			r.err = m.Error
		}
		ch <- r
		return
	}
	c.unmatched = append(c.unmatched, Response{ID: m.ID, Result: m.Result, Error: m.Error})
	c.signalLocked()
}

func (c *Client) signalLocked() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// IsCloseError reports whether err ended a connection with one of codes.
func IsCloseError(err error, codes ...int) bool {
	var ce *websocket.CloseError
	if !errors.As(err, &ce) {
		return false
	}
	for _, code := range codes {
		if ce.Code == code {
			return true
		}
	}
	return false
}
