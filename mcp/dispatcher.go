package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
)

// The MCP methods, for any transport. The WebSocket connection (conn) and
// the streamable-HTTP endpoint (HTTPEndpoint) both answer through one
// dispatcher, so the two cannot drift apart again: one version
// negotiation, one tools/list, one tools/call check and one error boundary.
// What differs is left to the transport: the WebSocket runs a tools/call
// on a goroutine of its own and answers later, HTTP answers in the request.

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

// transport is what a dispatcher needs from the connection a message came
// on.
type transport interface {
	// initialized records who the client is, once initialize succeeds.
	initialized(client ClientInfo, protocol string)
	// toolsListed is told just before the tools/list answer goes out.
	toolsListed()
	// call runs a checked tools/call. It returns the answer, or nil when
	// the call answers by itself later.
	call(m message, t *toolEntry, args json.RawMessage) []byte
	// notified handles a notification (which never gets an answer).
	notified(m message)
}

// dispatcher answers requests; it holds no connection state and is safe
// for concurrent use.
type dispatcher struct {
	tools     map[string]*toolEntry
	toolsList json.RawMessage       // the tools/list result, encoded once
	initTail  json.RawMessage       // initialize's result after the version, encoded once
	direct    map[string]*toolEntry // the variant protocol's methods, when served (direct.go)
}

// newDispatcher checks the tools and encodes what never changes.
// listChanged is announced to clients only where the transport can send
// notifications/tools/list_changed.
func newDispatcher(name, version string, tools []Tool, listChanged bool) (*dispatcher, error) {
	if name == "" {
		name = "claude.nvim"
	}
	if version == "" {
		version = "dev"
	}
	d := &dispatcher{tools: map[string]*toolEntry{}}
	type listed struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"inputSchema"`
		Meta        map[string]any  `json:"_meta,omitempty"`
	}
	list := make([]listed, 0, len(tools))
	for _, t := range tools {
		e, err := compileTool(t)
		if err != nil {
			return nil, err
		}
		if _, dup := d.tools[t.Name]; dup {
			return nil, fmt.Errorf("duplicate tool %s", t.Name)
		}
		d.tools[t.Name] = e
		list = append(list, listed{e.Name, e.Description, e.InputSchema, e.Meta})
	}
	b, err := json.Marshal(struct {
		Tools []listed `json:"tools"`
	}{list})
	if err != nil {
		return nil, fmt.Errorf("encode tools/list: %w", err)
	}
	d.toolsList = b

	type named struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	}
	tail, err := json.Marshal(struct {
		Capabilities any   `json:"capabilities"`
		ServerInfo   named `json:"serverInfo"`
	}{
		Capabilities: map[string]any{"tools": map[string]bool{"listChanged": listChanged}},
		ServerInfo:   named{name, version},
	})
	if err != nil {
		return nil, fmt.Errorf("encode initialize result: %w", err)
	}
	d.initTail = tail
	return d, nil
}

// handle reads one message and answers it: the encoded answer, or nil for
// none (a notification, a response, or a tools/call that answers later).
// Bad input gets its JSON-RPC error; a panic in our own methods becomes
// -32603, and the session lives on, as after a tool's panic.
func (d *dispatcher) handle(data []byte, t transport, log *slog.Logger) (out []byte) {
	var m message
	defer func() {
		if r := recover(); r != nil {
			log.Error("mcp: panic handling message", "method", m.method, "panic", r, "stack", string(debug.Stack()))
			out = nil
			if m.kind == kindRequest {
				out = encodeError(m.id, errorf(CodeInternalError, "internal error"))
			}
		}
	}()
	m = decode(data)
	switch m.kind {
	case kindInvalid:
		log.Debug("mcp: bad message", "code", m.err.Code, "err", m.err.Message)
		return encodeError(m.id, m.err)
	case kindResponse:
		log.Debug("mcp: ignoring a response from the client", "id", short(string(m.id)))
		return nil
	case kindNotification:
		t.notified(m)
		return nil
	}
	return d.answer(m, t)
}

// answer handles one request: its encoded answer, or nil when a tools/call
// has been started and answers by itself.
func (d *dispatcher) answer(m message, t transport) []byte {
	var result json.RawMessage
	var werr *wireError
	switch m.method {
	case "initialize":
		result, werr = d.initialize(m.params, t)
	case "ping":
		result = resultEmpty
	case "tools/list":
		result = d.toolsList
		t.toolsListed()
	case "tools/call":
		tool, args, err := d.callTarget(m.params)
		if err == nil {
			return t.call(m, tool, args)
		}
		werr = err
	// Not advertised, but answering empty costs nothing and spares a
	// client that asks anyway an error.
	case "prompts/list":
		result = resultPrompts
	case "resources/list":
		result = resultResources
	case "resources/templates/list":
		result = resultResourceTmpls
	default:
		e := d.direct[m.method]
		if e == nil {
			werr = errorf(CodeMethodNotFound, "method not found: "+short(m.method))
			break
		}
		params, err := directParams(m.params, e)
		if err == nil {
			return t.call(m, e, params)
		}
		werr = err
	}
	if werr != nil {
		return encodeError(m.id, werr)
	}
	return encodeResult(m.id, result)
}

func (d *dispatcher) initialize(params json.RawMessage, t transport) (json.RawMessage, *wireError) {
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
	version := negotiate(asked)
	// clientInfo is only for Clients() and the log; a malformed one is not
	// worth refusing the session over.
	var info struct{ Name, Version string }
	_ = json.Unmarshal(p.ClientInfo, &info)
	t.initialized(ClientInfo{Name: info.Name, Version: info.Version}, version)

	b := make([]byte, 0, len(d.initTail)+40)
	b = append(b, `{"protocolVersion":"`...)
	b = append(b, version...)
	b = append(b, `",`...)
	b = append(b, d.initTail[1:]...) // initTail is an object: join its members to ours
	return b, nil
}

// negotiate is the version to answer a client asking for asked.
func negotiate(asked string) string {
	for _, v := range protocolVersions {
		if v == asked {
			return v
		}
	}
	return protocolVersions[0]
}

// knownVersion reports whether v is a version we answer.
func knownVersion(v string) bool { return negotiate(v) == v }

// callTarget checks a tools/call's params: the tool, and its arguments
// ({} when absent or null) checked against its schema.
func (d *dispatcher) callTarget(params json.RawMessage) (*toolEntry, json.RawMessage, *wireError) {
	if params == nil || params[0] != '{' {
		return nil, nil, errorf(CodeInvalidParams, "invalid params: tools/call params must be an object")
	}
	name, args, ok := fastCallParams(params)
	if !ok {
		var werr *wireError
		if name, args, werr = callParams(params); werr != nil {
			return nil, nil, werr
		}
	}
	tool := d.tools[name]
	if tool == nil {
		return nil, nil, errorf(CodeInvalidParams, "invalid params: unknown tool: "+short(name))
	}
	if isNull(args) {
		args = emptyArgs
	}
	if args[0] != '{' {
		return nil, nil, errorf(CodeInvalidParams, "invalid params: arguments must be an object")
	}
	if err := tool.checkArgs(args); err != nil {
		return nil, nil, errorf(CodeInvalidParams, err.Error())
	}
	return tool, args, nil
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

// invoke runs a tool handler and encodes its answer; it is the error
// boundary that turns a panic into -32603.
func invoke(ctx context.Context, log *slog.Logger, id json.RawMessage, t *toolEntry, args json.RawMessage) (out []byte) {
	defer func() {
		if r := recover(); r != nil {
			log.Error("mcp: tool panicked", "tool", t.Name, "panic", r, "stack", string(debug.Stack()))
			out = encodeError(id, errorf(CodeInternalError, "internal error in tool "+t.Name))
		}
	}()
	if t.direct != nil {
		return invokeDirect(ctx, log, id, t, args)
	}
	res, err := t.Handler(ctx, args)
	if err != nil {
		if errors.Is(err, ErrInvalidParams) {
			return encodeError(id, errorf(CodeInvalidParams, err.Error()))
		}
		log.Debug("mcp: tool failed", "tool", t.Name, "err", err)
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
