package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"runtime/debug"
	"strconv"
)

// Protocol versions we answer, newest first. A client asking for one of
// these gets it echoed; any other gets the newest (the CLI gives up on a
// version it does not know, so never echo an unknown one).
var protocolVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// Fixed results of methods that carry no state.
var (
	resultEmpty         = json.RawMessage(`{}`)
	resultPrompts       = json.RawMessage(`{"prompts":[]}`)
	resultResources     = json.RawMessage(`{"resources":[]}`)
	resultResourceTmpls = json.RawMessage(`{"resourceTemplates":[]}`)
)

// emptyArgs stands for arguments absent or null.
var emptyArgs = json.RawMessage(`{}`)

// call is one running tools/call.
type call struct {
	cancel    context.CancelFunc
	cancelled bool // by notifications/cancelled; guarded by conn.callsMu
}

// handle dispatches one text frame. It runs on the reader goroutine, so
// everything but tools/call answers synchronously and in order.
func (c *conn) handle(data []byte) {
	var m message
	defer func() {
		// Our own methods should not panic, but if one does the session
		// must survive it like a tool panic.
		if r := recover(); r != nil {
			c.log.Error("mcp: panic handling message", "method", m.method, "panic", r, "stack", string(debug.Stack()))
			if m.kind == kindRequest {
				c.reply(encodeError(m.id, errorf(CodeInternalError, "internal error")))
			}
		}
	}()
	m = decode(data)
	switch m.kind {
	case kindInvalid:
		c.log.Debug("mcp: bad message", "code", m.err.Code, "err", m.err.Message)
		c.reply(encodeError(m.id, m.err))
	case kindResponse:
		c.log.Debug("mcp: ignoring a response from the client", "id", short(string(m.id)))
	case kindNotification:
		c.handleNotification(m)
	case kindRequest:
		c.handleRequest(m)
	}
}

func (c *conn) handleRequest(m message) {
	var result json.RawMessage
	var werr *wireError
	switch m.method {
	case "initialize":
		c.initTimer.Stop()
		result, werr = c.initialize(m.params)
	case "ping":
		result = resultEmpty
	case "tools/list":
		result = c.srv.toolsList
	case "tools/call":
		if werr = c.startCall(m); werr == nil {
			return // the call answers when it finishes
		}
	// Not advertised, but answering empty costs nothing and spares a
	// client that asks anyway an error.
	case "prompts/list":
		result = resultPrompts
	case "resources/list":
		result = resultResources
	case "resources/templates/list":
		result = resultResourceTmpls
	default:
		werr = errorf(CodeMethodNotFound, "method not found: "+short(m.method))
	}
	if werr != nil {
		c.reply(encodeError(m.id, werr))
		return
	}
	if m.method == "tools/list" {
		// The CLI starts handling our notifications shortly after this
		// answer lands; see DefaultListenDelay. Scheduled before replying
		// so that, without a delay, a client that has the answer listens.
		c.srv.scheduleListening(c, c.srv.listenIn)
	}
	c.reply(encodeResult(m.id, result))
}

func (c *conn) initialize(params json.RawMessage) (json.RawMessage, *wireError) {
	var p struct {
		ProtocolVersion json.RawMessage `json:"protocolVersion"`
		ClientInfo      json.RawMessage `json:"clientInfo"`
	}
	if params != nil && (params[0] != '{' || json.Unmarshal(params, &p) != nil) {
		return nil, errorf(CodeInvalidParams, "invalid params: initialize params must be an object")
	}
	var asked string
	if !isNull(p.ProtocolVersion) && json.Unmarshal(p.ProtocolVersion, &asked) != nil {
		return nil, errorf(CodeInvalidParams, "invalid params: protocolVersion must be a string")
	}
	version := protocolVersions[0]
	for _, v := range protocolVersions {
		if v == asked {
			version = v
		}
	}
	// clientInfo is only for Clients(); a malformed one is not worth
	// refusing the session over.
	var info struct{ Name, Version string }
	_ = json.Unmarshal(p.ClientInfo, &info)
	c.srv.mu.Lock()
	c.info.Name, c.info.Version = info.Name, info.Version
	c.srv.mu.Unlock()
	c.log.Info("mcp: initialize", "client_name", info.Name, "client_version", info.Version, "protocol", version)

	type named struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	}
	b, err := json.Marshal(struct {
		ProtocolVersion string `json:"protocolVersion"`
		Capabilities    any    `json:"capabilities"`
		ServerInfo      named  `json:"serverInfo"`
	}{
		ProtocolVersion: version,
		Capabilities:    map[string]any{"tools": map[string]bool{"listChanged": true}},
		ServerInfo:      named{c.srv.name, c.srv.version},
	})
	if err != nil {
		return nil, errorf(CodeInternalError, "internal error: "+err.Error())
	}
	return b, nil
}

func (c *conn) handleNotification(m message) {
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

// startCall validates a tools/call and starts it on its own goroutine.
func (c *conn) startCall(m message) *wireError {
	if m.params == nil || m.params[0] != '{' {
		return errorf(CodeInvalidParams, "invalid params: tools/call params must be an object")
	}
	name, args, ok := fastCallParams(m.params)
	if !ok {
		var werr *wireError
		if name, args, werr = callParams(m.params); werr != nil {
			return werr
		}
	}
	tool := c.srv.tools[name]
	if tool == nil {
		return errorf(CodeInvalidParams, "invalid params: unknown tool: "+short(name))
	}
	if isNull(args) {
		args = emptyArgs
	}
	if args[0] != '{' {
		return errorf(CodeInvalidParams, "invalid params: arguments must be an object")
	}
	if err := tool.checkArgs(args); err != nil {
		return errorf(CodeInvalidParams, err.Error())
	}
	return c.launch(m, tool, args)
}

// callParams reads tools/call's params (an object) with encoding/json:
// the tool's name and its arguments as given (nil when absent).
func callParams(params json.RawMessage) (name string, args json.RawMessage, werr *wireError) {
	var p struct {
		Name      json.RawMessage `json:"name"`
		Arguments rawAlias        `json:"arguments"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return "", nil, errorf(CodeInvalidParams, "invalid params: tools/call params must be an object")
	}
	if isNull(p.Name) {
		return "", nil, errorf(CodeInvalidParams, "invalid params: missing tool name")
	}
	if json.Unmarshal(p.Name, &name) != nil {
		return "", nil, errorf(CodeInvalidParams, "invalid params: tool name must be a string")
	}
	return name, json.RawMessage(p.Arguments), nil
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
	cl := &call{cancel: cancel}
	c.calls[key] = cl
	c.callsMu.Unlock()

	c.srv.wg.Add(1) // the reader holds a count, so this never races Close's Wait
	c.srv.workers.run(func() { c.runCall(ctx, m.id, key, cl, tool, args) })
	return nil
}

func (c *conn) runCall(ctx context.Context, id json.RawMessage, key string, cl *call, t *toolEntry, args json.RawMessage) {
	defer c.srv.wg.Done()
	resp := c.invoke(ctx, id, t, args)

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
	if len(args) >= bigCallArgs {
		c.srv.mem.request()
	}
}

// invoke runs a tool handler and encodes its answer; it is the error
// boundary that turns a panic into -32603.
func (c *conn) invoke(ctx context.Context, id json.RawMessage, t *toolEntry, args json.RawMessage) (out []byte) {
	defer func() {
		if r := recover(); r != nil {
			c.log.Error("mcp: tool panicked", "tool", t.Name, "panic", r, "stack", string(debug.Stack()))
			out = encodeError(id, errorf(CodeInternalError, "internal error in tool "+t.Name))
		}
	}()
	res, err := t.Handler(ctx, args)
	if err != nil {
		if errors.Is(err, ErrInvalidParams) {
			return encodeError(id, errorf(CodeInvalidParams, err.Error()))
		}
		c.log.Debug("mcp: tool failed", "tool", t.Name, "err", err)
		res = &ToolResult{Content: []Content{{Type: "text", Text: err.Error()}}, IsError: true}
	}
	if res == nil {
		res = &ToolResult{}
	}
	if res.wire == nil { // a memoized answer comes encoded already
		if err := res.encode(); err != nil {
			return encodeError(id, errorf(CodeInternalError, "internal error: encode result of "+t.Name))
		}
	}
	return encodeResult(id, res.wire)
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

// rawAlias captures a JSON value without copying it: it aliases the frame
// the reader allocated, which nothing else reuses or modifies. A 64 MiB
// openDiff is then not copied again before its handler decodes it.
type rawAlias []byte

func (r *rawAlias) UnmarshalJSON(b []byte) error {
	*r = b
	return nil
}

// short bounds client-supplied text echoed in errors and logs.
func short(s string) string {
	const limit = 100
	if len(s) <= limit {
		return s
	}
	return s[:limit] + "…(" + strconv.Itoa(len(s)) + " bytes)"
}
