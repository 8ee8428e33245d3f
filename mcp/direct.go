package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
)

// The WebSocket variant's direct methods (see Workspace): requests named after the
// operation, whose result is the value itself (a string, a list, an object), not a
// tools/call result. They are checked like tools (the schema's required list and types)
// and run like them, each on a goroutine of its own, since writeFile waits for the user.

// directMethod is one direct method: verb names what failed in a -32603 message.
type directMethod struct {
	name   string
	verb   string
	schema json.RawMessage
	run    func(ctx context.Context, params json.RawMessage) (any, error)
}

var (
	schemaReadFile  = json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)
	schemaWriteFile = json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"}},"required":["path","content"]}`)
	schemaListFiles = json.RawMessage(`{"type":"object","properties":{"pattern":{"type":["string","null"]}}}`)
	schemaNoParams  = json.RawMessage(`{"type":"object"}`)
)

func directMethods(ws Workspace) []directMethod {
	return []directMethod{
		{"readFile", "read file", schemaReadFile, func(ctx context.Context, raw json.RawMessage) (any, error) {
			var p struct{ Path string }
			if err := DecodeArgs(raw, &p); err != nil {
				return nil, err
			}
			return ws.ReadFile(ctx, p.Path)
		}},
		{"writeFile", "write file", schemaWriteFile, func(ctx context.Context, raw json.RawMessage) (any, error) {
			var p struct{ Path, Content string }
			if err := DecodeArgs(raw, &p); err != nil {
				return nil, err
			}
			r, err := ws.WriteFile(ctx, p.Path, p.Content)
			if err != nil {
				return nil, err
			}
			type answer struct {
				Path     string  `json:"path"`
				Decision string  `json:"decision"`
				Content  *string `json:"content,omitempty"`
			}
			if r.Accepted {
				return answer{r.Path, "accepted", &r.Content}, nil
			}
			return answer{Path: r.Path, Decision: "rejected"}, nil
		}},
		{"listFiles", "list files", schemaListFiles, func(ctx context.Context, raw json.RawMessage) (any, error) {
			var p struct{ Pattern *string }
			if err := DecodeArgs(raw, &p); err != nil {
				return nil, err
			}
			pattern := ""
			if p.Pattern != nil {
				pattern = *p.Pattern
			}
			files, err := ws.ListFiles(ctx, pattern)
			return nonNil(files), err
		}},
		{"getWorkspaceInfo", "get workspace info", schemaNoParams, func(ctx context.Context, _ json.RawMessage) (any, error) {
			info, err := ws.WorkspaceInfo(ctx)
			info.Folders = nonNil(info.Folders)
			return info, err
		}},
		{"getOpenFiles", "get open files", schemaNoParams, func(ctx context.Context, _ json.RawMessage) (any, error) {
			files, err := ws.OpenFiles(ctx)
			return nonNil(files), err
		}},
		{"getCurrentFile", "get current file", schemaNoParams, func(ctx context.Context, _ json.RawMessage) (any, error) {
			f, err := ws.CurrentFile(ctx)
			if err != nil || f == "" {
				return nil, err // null: no file is active in the workspace
			}
			return f, nil
		}},
	}
}

// nonNil: a list answers [] when empty, never null.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// addDirect makes d answer ws's direct methods.
func (d *dispatcher) addDirect(ws Workspace) error {
	d.direct = map[string]*toolEntry{}
	for _, m := range directMethods(ws) {
		e, err := compileSchema(Tool{Name: m.name, InputSchema: m.schema})
		if err != nil {
			return err
		}
		e.direct = &m
		d.direct[m.name] = e
	}
	return nil
}

// directParams checks a direct method's params: an object ({} when absent or null).
func directParams(params json.RawMessage, e *toolEntry) (json.RawMessage, *wireError) {
	if isNull(params) {
		params = emptyArgs
	}
	if params[0] != '{' {
		return nil, errorf(CodeInvalidParams, "invalid params: "+e.Name+" params must be an object")
	}
	if err := e.checkArgs(params); err != nil {
		return nil, errorf(CodeInvalidParams, err.Error())
	}
	return params, nil
}

// invokeDirect runs a direct method and encodes its answer: the result as is, -32602 for
// a refusal, -32603 for a failure; like invoke, it turns a panic into -32603.
func invokeDirect(ctx context.Context, log *slog.Logger, id json.RawMessage, e *toolEntry, params json.RawMessage) (out []byte) {
	defer func() {
		if r := recover(); r != nil {
			log.Error("mcp: method panicked", "method", e.Name, "panic", r, "stack", string(debug.Stack()))
			out = encodeError(id, errorf(CodeInternalError, "internal error in "+e.Name))
		}
	}()
	v, err := e.direct.run(ctx, params)
	if err != nil {
		if errors.Is(err, ErrInvalidParams) {
			return encodeError(id, errorf(CodeInvalidParams, err.Error()))
		}
		log.Debug("mcp: method failed", "method", e.Name, "err", err)
		return encodeError(id, errorf(CodeInternalError, fmt.Sprintf("failed to %s: %v", e.direct.verb, err)))
	}
	b, err := json.Marshal(v)
	if err != nil {
		return encodeError(id, errorf(CodeInternalError, "internal error: encode result of "+e.Name))
	}
	return encodeResult(id, b)
}
