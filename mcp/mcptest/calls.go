package mcptest

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/gorilla/websocket"
)

// Initialize does what the CLI does on connecting: initialize, then
// notifications/initialized and ide_connected with this process's pid, then
// a ping so that the server is known to have handled them when Initialize
// returns. It returns the initialize result and fails the test on error.
func (c *Client) Initialize() json.RawMessage {
	c.t.Helper()
	res, err := c.Call("initialize", map[string]any{
		"protocolVersion": "2025-11-25",
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "mcptest", "version": "1"},
	})
	if err != nil {
		c.t.Fatalf("mcptest: initialize: %v", err)
	}
	if err := c.Notify("notifications/initialized", nil); err != nil {
		c.t.Fatalf("mcptest: initialized: %v", err)
	}
	if err := c.Notify("ide_connected", map[string]any{"pid": os.Getpid()}); err != nil {
		c.t.Fatalf("mcptest: ide_connected: %v", err)
	}
	// Like the CLI, ask for the tools last: the server starts sending
	// notifications a while after answering (mcp.Config.ListenDelay), and
	// handles a connection's frames in order, so both notifications above
	// have been seen once this is answered.
	if _, err := c.Call("tools/list", nil); err != nil {
		c.t.Fatalf("mcptest: tools/list after initialize: %v", err)
	}
	return res
}

// Pending is a call in flight.
type Pending struct {
	ID int64
	c  *Client
	ch chan response
}

// Start sends a request and returns without waiting for its response.
func (c *Client) Start(method string, params any) (*Pending, error) {
	id := c.nextID.Add(1) - 1 // the CLI starts at 0
	ch := make(chan response, 1)
	c.mu.Lock()
	c.pending[strconv.FormatInt(id, 10)] = ch
	c.mu.Unlock()
	msg := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if err := c.send(msg); err != nil {
		c.mu.Lock()
		delete(c.pending, strconv.FormatInt(id, 10))
		c.mu.Unlock()
		return nil, err
	}
	return &Pending{ID: id, c: c, ch: ch}, nil
}

// Wait waits for the response: its result, an *RPCError, or an error if
// the connection ends or the client's Timeout passes first.
func (p *Pending) Wait() (json.RawMessage, error) {
	t := time.NewTimer(p.c.timeout())
	defer t.Stop()
	select {
	case r := <-p.ch:
		return r.result, r.err
	case <-p.c.done:
		// The response may have arrived just before the end.
		select {
		case r := <-p.ch:
			return r.result, r.err
		default:
		}
		return nil, fmt.Errorf("mcptest: connection ended before response %d: %w", p.ID, p.c.Err())
	case <-t.C:
		return nil, fmt.Errorf("mcptest: no response to request %d within %v", p.ID, p.c.timeout())
	}
}

// Cancel sends notifications/cancelled for this call.
func (p *Pending) Cancel(reason string) error {
	return p.c.Notify("notifications/cancelled", map[string]any{"requestId": p.ID, "reason": reason})
}

// Call sends a request and waits for its response.
func (c *Client) Call(method string, params any) (json.RawMessage, error) {
	p, err := c.Start(method, params)
	if err != nil {
		return nil, err
	}
	return p.Wait()
}

// CallTool calls tools/call and decodes the result.
func (c *Client) CallTool(name string, args any) (*mcp.ToolResult, error) {
	if args == nil {
		args = map[string]any{}
	}
	raw, err := c.Call("tools/call", map[string]any{"name": name, "arguments": args})
	if err != nil {
		return nil, err
	}
	var res mcp.ToolResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, fmt.Errorf("mcptest: decode tool result %s: %w", raw, err)
	}
	return &res, nil
}

// Notify sends a notification.
func (c *Client) Notify(method string, params any) error {
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		msg["params"] = params
	}
	return c.send(msg)
}

// SendRaw sends one text frame exactly as given.
func (c *Client) SendRaw(data []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_ = c.ws.SetWriteDeadline(time.Now().Add(c.timeout()))
	return c.ws.WriteMessage(websocket.TextMessage, data)
}

func (c *Client) send(msg any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return fmt.Errorf("mcptest: encode: %w", err)
	}
	return c.SendRaw(b)
}

// WaitNotification returns the oldest not yet returned notification with
// this method, waiting up to timeout for one to arrive.
func (c *Client) WaitNotification(method string, timeout time.Duration) (json.RawMessage, error) {
	n, err := c.wait(timeout, func() (any, bool) {
		for i, n := range c.notes {
			if n.Method == method {
				c.notes = append(c.notes[:i:i], c.notes[i+1:]...)
				return n.Params, true
			}
		}
		return nil, false
	})
	if err != nil {
		return nil, fmt.Errorf("mcptest: wait for %s: %w", method, err)
	}
	return n.(json.RawMessage), nil
}

// WaitUnmatched returns the oldest response that no call was waiting for.
func (c *Client) WaitUnmatched(timeout time.Duration) (Response, error) {
	r, err := c.wait(timeout, func() (any, bool) {
		if len(c.unmatched) == 0 {
			return nil, false
		}
		r := c.unmatched[0]
		c.unmatched = c.unmatched[1:]
		return r, true
	})
	if err != nil {
		return Response{}, fmt.Errorf("mcptest: wait for unmatched response: %w", err)
	}
	return r.(Response), nil
}

// wait polls take (under c.mu) each time something arrives.
func (c *Client) wait(timeout time.Duration, take func() (any, bool)) (any, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	for {
		c.mu.Lock()
		v, ok := take()
		changed := c.changed
		c.mu.Unlock()
		if ok {
			return v, nil
		}
		select {
		case <-changed:
		case <-c.done:
			c.mu.Lock()
			v, ok := take()
			c.mu.Unlock()
			if ok {
				return v, nil
			}
			return nil, fmt.Errorf("connection ended: %w", c.Err())
		case <-t.C:
			return nil, fmt.Errorf("nothing within %v", timeout)
		}
	}
}

// Next waits for the next notification of method and decodes its params
// into a T, failing the test on timeout or a params shape that does not fit.
func Next[T any](t testing.TB, c *Client, method string) T {
	t.Helper()
	raw, err := c.WaitNotification(method, c.timeout())
	if err != nil {
		t.Fatal(err)
	}
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("mcptest: decode %s %s: %v", method, raw, err)
	}
	return v
}
