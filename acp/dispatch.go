package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
)

// requestHandler serves one kind of agent request; params are the request's, already
// known to name a session of this connection.
type requestHandler func(ctx context.Context, params json.RawMessage) (any, error)

// methodPermission is the one request answered "cancelled" rather than with an error when
// its context ends.
const methodPermission = "session/request_permission"

// handlersFor is the agent requests the client serves: what it implements.
func handlersFor(client Client) map[string]requestHandler {
	h := map[string]requestHandler{}
	if p, ok := client.(PermissionHandler); ok {
		h[methodPermission] = func(ctx context.Context, params json.RawMessage) (any, error) {
			req, err := decodeParams[PermissionRequest](params)
			if err != nil {
				return nil, err
			}
			out, err := p.RequestPermission(ctx, req)
			if err != nil || out.Cancelled {
				return out, err
			}
			if _, offered := findOption(req.Options, out.OptionID); !offered {
				// Fail closed: an answer the agent did not offer must not read as consent.
				return nil, Errorf(CodeInternalError, "the client chose option %q, which was not offered", out.OptionID)
			}
			return out, nil
		}
	}
	if r, ok := client.(FileReader); ok {
		h["fs/read_text_file"] = func(ctx context.Context, params json.RawMessage) (any, error) {
			req, err := decodeParams[ReadTextFileRequest](params)
			if err != nil {
				return nil, err
			}
			text, err := r.ReadTextFile(ctx, req)
			if err != nil {
				return nil, err
			}
			return struct {
				Content string `json:"content"`
			}{text}, nil
		}
	}
	if w, ok := client.(FileWriter); ok {
		h["fs/write_text_file"] = func(ctx context.Context, params json.RawMessage) (any, error) {
			req, err := decodeParams[WriteTextFileRequest](params)
			if err != nil {
				return nil, err
			}
			return struct{}{}, w.WriteTextFile(ctx, req)
		}
	}
	if t, ok := client.(Terminals); ok {
		h["terminal/create"] = func(ctx context.Context, params json.RawMessage) (any, error) {
			req, err := decodeParams[CreateTerminalRequest](params)
			if err != nil {
				return nil, err
			}
			id, err := t.CreateTerminal(ctx, req)
			return struct {
				TerminalID string `json:"terminalId"`
			}{id}, err
		}
		h["terminal/output"] = terminalHandler(t.TerminalOutput)
		h["terminal/wait_for_exit"] = terminalHandler(t.WaitForTerminalExit)
		h["terminal/kill"] = terminalHandler(func(ctx context.Context, req *TerminalRequest) (struct{}, error) {
			return struct{}{}, t.KillTerminal(ctx, req)
		})
		h["terminal/release"] = terminalHandler(func(ctx context.Context, req *TerminalRequest) (struct{}, error) {
			return struct{}{}, t.ReleaseTerminal(ctx, req)
		})
	}
	return h
}

func terminalHandler[R any](f func(context.Context, *TerminalRequest) (R, error)) requestHandler {
	return func(ctx context.Context, params json.RawMessage) (any, error) {
		req, err := decodeParams[TerminalRequest](params)
		if err != nil {
			return nil, err
		}
		if req.TerminalID == "" {
			return nil, Errorf(CodeInvalidParams, "invalid params: terminalId is required")
		}
		return f(ctx, req)
	}
}

func decodeParams[T any](params json.RawMessage) (*T, error) {
	var v T
	if params == nil {
		return nil, Errorf(CodeInvalidParams, "invalid params: missing")
	}
	if err := json.Unmarshal(params, &v); err != nil {
		return nil, Errorf(CodeInvalidParams, "invalid params: %v", err)
	}
	return &v, nil
}

func findOption(opts []PermissionOption, id string) (PermissionOption, bool) {
	for _, o := range opts {
		if o.OptionID == id {
			return o, true
		}
	}
	return PermissionOption{}, false
}

// incomingCall is an agent request being served.
type incomingCall struct {
	method    string
	sessionID string
	cancel    context.CancelCauseFunc
}

// errWithdrawn is the cause of a handler's context when the agent withdrew the request.
var errWithdrawn = errors.New("the agent withdrew the request")

// errTurnCancelled is the cause when we cancelled the turn the request belongs to.
var errTurnCancelled = errors.New("the turn was cancelled")

// startServing checks an agent request on the reader and serves it on a goroutine of its
// own (a permission waits for the user). The session is checked here, in order: a session
// whose answer was read before the request is known.
func (c *Conn) startServing(m message) {
	h, ok := c.handlers[m.method]
	if !ok {
		c.answerLater(encodeError(m.id, Errorf(CodeMethodNotFound, "method not found: %s", bounded(m.method, 100))))
		return
	}
	var sp sessionParams
	if m.params == nil || json.Unmarshal(m.params, &sp) != nil || sp.SessionID == "" {
		c.answerLater(encodeError(m.id, Errorf(CodeInvalidParams, "invalid params: %s needs a sessionId", m.method)))
		return
	}
	m.params = bytes.Clone(m.params) // the line is reused once the reader moves on
	ctx, cancel := context.WithCancelCause(c.ctx)
	in := &incomingCall{method: m.method, sessionID: sp.SessionID, cancel: cancel}
	key, keyed := idKey(m.id)
	c.mu.Lock()
	known := c.sessions[sp.SessionID]
	if known && keyed {
		c.incoming[key] = in
	}
	c.mu.Unlock()
	if !known {
		cancel(nil)
		c.log.Warn("acp: a request for a session that is not open", "method", m.method, "session", sp.SessionID)
		c.answerLater(encodeError(m.id, Errorf(CodeNotFound, "unknown session %q (not open on this connection)", bounded(sp.SessionID, 100))))
		return
	}
	go func() {
		defer cancel(nil)
		result, err := c.run(ctx, h, m)
		if keyed {
			c.mu.Lock()
			if c.incoming[key] == in {
				delete(c.incoming, key)
			}
			c.mu.Unlock()
		}
		if c.ctx.Err() != nil {
			return // the connection ended: nobody reads an answer
		}
		var b []byte
		switch cause := context.Cause(ctx); {
		case m.method == methodPermission && ctx.Err() != nil:
			// The schema: a permission request of a cancelled turn is answered cancelled.
			b = c.encodeAnswer(m, Cancelled, nil)
		case errors.Is(cause, errWithdrawn):
			b = encodeError(m.id, Errorf(CodeRequestCancelled, "request cancelled"))
		case errors.Is(cause, errSessionClosed):
			b = encodeError(m.id, Errorf(CodeNotFound, "session %q was closed", bounded(sp.SessionID, 100)))
		default:
			b = c.encodeAnswer(m, result, err)
		}
		if err := c.write(c.ctx, b); err != nil {
			c.log.Debug("acp: answering", "method", m.method, "err", err)
		}
	}()
}

// run calls the handler; a panic becomes an internal error and the connection lives on.
func (c *Conn) run(ctx context.Context, h requestHandler, m message) (result any, err error) {
	defer func() {
		if p := recover(); p != nil {
			c.log.Error("acp: a request handler panicked", "method", m.method, "panic", p, "stack", string(debug.Stack()))
			result, err = nil, Errorf(CodeInternalError, "internal error serving %s", m.method)
		}
	}()
	return h(ctx, m.params)
}

func (c *Conn) encodeAnswer(m message, result any, err error) []byte {
	if err != nil {
		var re *RPCError
		if !errors.As(err, &re) {
			re = Errorf(CodeInternalError, "%s: %v", m.method, err)
		}
		return encodeError(m.id, re)
	}
	b, merr := json.Marshal(result)
	if merr != nil {
		return encodeError(m.id, Errorf(CodeInternalError, "%s: encode the answer: %v", m.method, merr))
	}
	return encodeResult(m.id, b)
}

// notified acts on a notification, on the reader.
func (c *Conn) notified(m message) {
	switch m.method {
	case "session/update":
		c.sessionUpdate(m.params)
	case "$/cancel_request":
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if m.params != nil && json.Unmarshal(m.params, &p) == nil {
			if key, ok := idKey(p.RequestID); ok {
				c.mu.Lock()
				in := c.incoming[key]
				c.mu.Unlock()
				if in != nil {
					in.cancel(errWithdrawn)
				}
			}
		}
	default:
		if h, ok := c.client.(NotificationHandler); ok {
			params := bytes.Clone(m.params)
			c.safely(m.method, func() { h.Notification(m.method, params) })
		} else {
			c.log.Debug("acp: a notification nobody handles", "method", m.method)
		}
	}
}

func (c *Conn) sessionUpdate(params json.RawMessage) {
	var p struct {
		SessionID string   `json:"sessionId"`
		Update    rawAlias `json:"update"`
	}
	n := SessionNotification{}
	if params == nil || json.Unmarshal(params, &p) != nil || p.Update == nil {
		n.Update = &UnknownUpdate{Raw: bytes.Clone(params), Err: fmt.Errorf("session/update without an update object")}
	} else {
		n.SessionID, n.Update = p.SessionID, decodeUpdate(json.RawMessage(p.Update))
	}
	if u, ok := n.Update.(*UnknownUpdate); ok && u.Err != nil {
		c.log.Warn("acp: an update that did not decode", "session", n.SessionID, "kind", u.SessionUpdate, "err", u.Err)
	}
	c.safely("session/update", func() { c.client.SessionUpdate(n) })
}

// safely calls one of the Client's notification methods; a panic there is logged and the
// reader goes on.
func (c *Conn) safely(what string, f func()) {
	defer func() {
		if p := recover(); p != nil {
			c.log.Error("acp: the client panicked handling a notification", "method", what, "panic", p, "stack", string(debug.Stack()))
		}
	}()
	f()
}

// cancelRequests cancels the agent's permission requests of a session: the turn they
// belong to is being cancelled.
func (c *Conn) cancelRequests(sessionID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, in := range c.incoming {
		if in.sessionID == sessionID && in.method == methodPermission {
			in.cancel(errTurnCancelled)
		}
	}
}
