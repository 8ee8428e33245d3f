package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Tool is one MCP tool the server offers.
type Tool struct {
	Name        string
	Description string
	// InputSchema is a JSON Schema for the arguments object. The server
	// enforces its top-level "required" list and the "type" of each listed
	// property before the handler runs (answering -32602); unknown
	// properties are passed through, like the VS Code extension does.
	InputSchema json.RawMessage
	// Meta is the tool's _meta in tools/list: what a client reads beside
	// the schema (the Claude CLI reads "anthropic/searchHint", words its
	// ToolSearch matches when the tool is deferred). nil for none.
	Meta map[string]any
	// Handler runs in its own goroutine. ctx ends when the client cancels
	// the call or disconnects; the answer to a call whose ctx ended is never
	// sent. An error wrapping ErrInvalidParams becomes a -32602 response;
	// any other error becomes a result with isError set and the error text.
	// A panic becomes -32603 and the session goes on.
	Handler func(ctx context.Context, args json.RawMessage) (*ToolResult, error)
}

// ToolResult is the result of tools/call.
type ToolResult struct {
	Content []Content `json:"content"`
	IsError bool      `json:"isError,omitempty"`

	wire json.RawMessage // set by encode: the result as sent, reused
}

// Content is one content block of a tool result: text, or (executeCode's
// plots) an image with base64 Data and its MimeType.
type Content struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	Data     string `json:"-"`
	MimeType string `json:"-"`
}

// MarshalJSON writes an image block without the text member a text block
// always has (even empty): MCP's image content is {type, data, mimeType}.
func (c Content) MarshalJSON() ([]byte, error) {
	if c.Type == "image" {
		return json.Marshal(struct {
			Type     string `json:"type"`
			Data     string `json:"data"`
			MimeType string `json:"mimeType"`
		}{c.Type, c.Data, c.MimeType})
	}
	type plain Content // without this method
	return json.Marshal(plain(c))
}

// ErrInvalidParams marks a tool error caused by bad arguments; the server
// answers it with JSON-RPC error -32602 instead of an isError result.
var ErrInvalidParams = errors.New("invalid params")

// TextResult is a result with one text block per string.
func TextResult(texts ...string) *ToolResult {
	r := &ToolResult{Content: make([]Content, len(texts))}
	for i, t := range texts {
		r.Content[i] = Content{Type: "text", Text: t}
	}
	return r
}

// JSONResult is a result with one text block holding v as JSON, the way the
// VS Code extension answers its query tools.
func JSONResult(v any) (*ToolResult, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode tool result: %w", err)
	}
	return TextResult(string(b)), nil
}

// DecodeArgs unmarshals tool arguments into v; a mismatch wraps
// ErrInvalidParams so the client gets -32602.
func DecodeArgs(args json.RawMessage, v any) error {
	if err := json.Unmarshal(args, v); err != nil {
		return fmt.Errorf("%w: %v", ErrInvalidParams, err)
	}
	return nil
}

// toolEntry is a Tool with the parts of its schema the server enforces.
type toolEntry struct {
	Tool
	required []string
	types    map[string][]string // property name -> allowed JSON Schema types
	direct   *directMethod       // set for a direct method of the variant protocol (direct.go)
}

// compileTool checks a tool definition and extracts what argument checking
// needs from its schema.
func compileTool(t Tool) (*toolEntry, error) {
	if t.Name == "" {
		return nil, errors.New("tool with empty name")
	}
	if t.Handler == nil {
		return nil, fmt.Errorf("tool %s: nil handler", t.Name)
	}
	return compileSchema(t)
}

// compileSchema extracts what argument checking needs from t's schema.
func compileSchema(t Tool) (*toolEntry, error) {
	if t.InputSchema == nil {
		t.InputSchema = json.RawMessage(`{"type":"object"}`)
	}
	var schema struct {
		Type       string                     `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if err := json.Unmarshal(t.InputSchema, &schema); err != nil {
		return nil, fmt.Errorf("tool %s: input schema: %w", t.Name, err)
	}
	if schema.Type != "object" {
		return nil, fmt.Errorf("tool %s: input schema type is %q, want \"object\"", t.Name, schema.Type)
	}
	e := &toolEntry{Tool: t, required: schema.Required, types: map[string][]string{}}
	for name, raw := range schema.Properties {
		var prop struct {
			Type json.RawMessage `json:"type"`
		}
		if err := json.Unmarshal(raw, &prop); err != nil {
			return nil, fmt.Errorf("tool %s: property %s: %w", t.Name, name, err)
		}
		if prop.Type == nil {
			continue
		}
		var one string
		var many []string
		switch {
		case json.Unmarshal(prop.Type, &one) == nil:
			e.types[name] = []string{one}
		case json.Unmarshal(prop.Type, &many) == nil:
			e.types[name] = many
		default:
			return nil, fmt.Errorf("tool %s: property %s: type must be a string or a list", t.Name, name)
		}
	}
	return e, nil
}

// checkArgs enforces the schema's required list and property types. args
// is a JSON object (the caller checked).
func (e *toolEntry) checkArgs(args json.RawMessage) error {
	if len(e.required) == 0 && isEmptyObject(args) {
		return nil // {}: nothing to check, and no map to build (issue 15)
	}
	var fields map[string]typeProbe
	if err := json.Unmarshal(args, &fields); err != nil {
		return fmt.Errorf("%w: arguments: %v", ErrInvalidParams, err)
	}
	for _, name := range e.required {
		if _, ok := fields[name]; !ok {
			return fmt.Errorf("%w: missing required argument %q", ErrInvalidParams, name)
		}
	}
	for name, got := range fields {
		want, ok := e.types[name]
		if !ok {
			continue
		}
		if !typeAllowed(string(got), want) {
			return fmt.Errorf("%w: argument %q must be %s, not %s", ErrInvalidParams, name, strings.Join(want, " or "), got)
		}
	}
	return nil
}

// typeProbe records only the JSON type of a value, so checking the
// arguments of a 64 MiB openDiff copies none of the file.
type typeProbe string

func (p *typeProbe) UnmarshalJSON(b []byte) error {
	*p = typeProbe(jsonType(b))
	return nil
}

// jsonType names the JSON Schema type of a raw value; integral numbers are
// "integer".
func jsonType(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "null"
	}
	switch c := raw[0]; {
	case c == '"':
		return "string"
	case c == '{':
		return "object"
	case c == '[':
		return "array"
	case c == 't' || c == 'f':
		return "boolean"
	case c == 'n':
		return "null"
	default:
		var f float64
		if json.Unmarshal(raw, &f) == nil && f == float64(int64(f)) {
			return "integer"
		}
		return "number"
	}
}

func typeAllowed(got string, want []string) bool {
	for _, w := range want {
		if got == w || (w == "number" && got == "integer") {
			return true
		}
	}
	return false
}
