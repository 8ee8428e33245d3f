package mcp

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
)

// call is one running tools/call.
type call struct {
	cancel    context.CancelFunc
	cancelled bool // by notifications/cancelled; guarded by conn.callsMu
	// args until runCall takes them: they alias the frame, which may be megabytes (an
	// openDiff's), and a parameter of runCall stayed live, frame and all, for as long as
	// the call ran (the user looking at the diff; the host's RSS held the frame).
	args json.RawMessage
}

// handle answers one text frame. It runs on the reader goroutine, so
// everything but tools/call answers synchronously and in order.
func (c *conn) handle(data []byte) {
	if out := c.srv.disp.handle(data, c, c.log); out != nil {
		c.reply(out)
	}
	c.srv.activity()
}

// toolsListed: the CLI starts handling our notifications shortly after
// the tools/list answer lands; see DefaultListenDelay. Scheduled before
// replying so that, without a delay, a client that has the answer listens.
func (c *conn) toolsListed() {
	c.srv.scheduleListening(c, c.srv.listenIn)
}

// initialized keeps the client's name for Clients(); the client has
// done what Limits.Initialize waits for.
func (c *conn) initialized(client ClientInfo, protocol string) {
	c.initTimer.Stop()
	c.srv.mu.Lock()
	c.info.Name, c.info.Version = client.Name, client.Version
	c.srv.mu.Unlock()
	c.log.Info("mcp: initialize", "client_name", client.Name, "client_version", client.Version, "protocol", protocol)
}

// call starts a checked tools/call on its own goroutine; it answers when
// it finishes.
func (c *conn) call(m message, t *toolEntry, args json.RawMessage) []byte {
	if werr := c.launch(m, t, args); werr != nil {
		return encodeError(m.id, werr)
	}
	return nil
}

func (c *conn) notified(m message) {
	switch m.method {
	case "notifications/initialized":
		c.srv.markInitialized(c)
	case "ide_connected":
		var p struct {
			PID int `json:"pid"`
		}
		if m.params != nil {
			if err := json.Unmarshal(m.params, &p); err != nil {
				c.log.Warn("mcp: bad ide_connected params", "err", err)
			}
		}
		c.srv.markReady(c, p.PID)
	case "notifications/cancelled":
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
			Reason    string          `json:"reason"`
		}
		if m.params == nil || json.Unmarshal(m.params, &p) != nil {
			c.log.Debug("mcp: bad notifications/cancelled params")
			return
		}
		c.cancelCall(p.RequestID, p.Reason)
	default:
		// JSON-RPC: notifications get no answer, not even "unknown".
		c.log.Debug("mcp: ignoring notification", "method", short(m.method))
	}
}

// launch registers the call under its id and starts it on a worker.
func (c *conn) launch(m message, tool *toolEntry, args json.RawMessage) *wireError {
	key, _ := idKey(m.id)
	c.callsMu.Lock()
	if _, dup := c.calls[key]; dup {
		c.callsMu.Unlock()
		return errorf(CodeInvalidRequest, "invalid request: id "+short(string(m.id))+" is already in use by a running call")
	}
	if n := len(c.calls); n >= c.srv.limits.CallsInFlight {
		// Refuse rather than stop reading: the reader must stay free for
		// close_tab, notifications/cancelled and pings, or a client
		// whose openDiffs wait for the user could never resolve them.
		// A client sending without reading our answers is still held
		// back: this answer, like any, waits for room in the writer.
		c.callsMu.Unlock()
		c.spiked = true
		return errorf(CodeServerBusy, "server busy: "+strconv.Itoa(n)+" tools/call already in flight on this connection")
	}
	c.srv.mu.Lock()
	version := c.info.Version
	c.srv.mu.Unlock()
	ctx, cancel := context.WithCancel(withClientVersion(c.callCtx, version))
	cl := &call{cancel: cancel, args: args}
	c.calls[key] = cl
	c.callsMu.Unlock()

	// m.id aliases the frame too, and the call keeps its id until it answers: a copy.
	id := slices.Clone(m.id)
	c.srv.wg.Add(1) // the reader holds a count, so this never races Close's Wait
	c.srv.workers.run(func() { c.runCall(ctx, id, key, cl, tool) })
	return nil
}

func (c *conn) runCall(ctx context.Context, id json.RawMessage, key string, cl *call, t *toolEntry) {
	defer c.srv.wg.Done()
	args := cl.args
	cl.args = nil
	big := len(args) >= bigCallArgs
	resp := invoke(ctx, c.log, id, t, args)

	c.callsMu.Lock()
	cancelled := cl.cancelled
	c.callsMu.Unlock()
	if cancelled || ctx.Err() != nil {
		// MCP: a cancelled request gets no answer; a gone client cannot.
		c.log.Debug("mcp: call ended without answer", "tool", t.Name, "cancelled", cancelled)
	} else {
		c.reply(resp)
	}
	// The id stays taken until the answer is queued, so a client that
	// reuses it after seeing it free also sees any answer first.
	c.callsMu.Lock()
	delete(c.calls, key)
	c.callsMu.Unlock()
	cl.cancel()
	if big { // args is dead past invoke: an openDiff's megabytes may go while it waits
		c.srv.mem.request()
	}
	c.srv.activity()
}

// cancelCall cancels a running call by its request id. Unknown ids are
// fine: the call may have finished already.
func (c *conn) cancelCall(requestID json.RawMessage, reason string) {
	key, ok := idKey(requestID)
	if !ok {
		return
	}
	c.callsMu.Lock()
	cl := c.calls[key]
	if cl != nil {
		cl.cancelled = true
	}
	c.callsMu.Unlock()
	if cl != nil {
		c.log.Debug("mcp: call cancelled by client", "id", string(requestID), "reason", short(reason))
		cl.cancel()
	}
}
