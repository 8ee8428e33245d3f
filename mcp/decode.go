package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
)

// kind classifies an incoming frame.
type kind int

const (
	kindInvalid      kind = iota // answer with message.err
	kindRequest                  // has an id: answer it
	kindNotification             // no id: never answer
	kindResponse                 // the client answering something; we send no requests, so ignore
)

// message is one decoded JSON-RPC frame.
type message struct {
	kind   kind
	id     json.RawMessage // a JSON number or string token; for kindInvalid the id to echo, nil for null
	method string
	params json.RawMessage // nil when absent or null
	err    *wireError      // set for kindInvalid only
}

// envelope captures every member as raw JSON so that members of the wrong
// type are reported as -32600 by us rather than as a decoding failure.
// params aliases the frame instead of copying it (it can be 64 MiB).
type envelope struct {
	JSONRPC json.RawMessage `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  json.RawMessage `json:"method"`
	Params  rawAlias        `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// decode classifies one text frame. It never fails: anything that is not a
// usable message comes back as kindInvalid with the error to answer.
func decode(data []byte) message {
	if m, ok := fastDecode(data); ok {
		return m
	}
	return decodeGeneral(data)
}

// decodeGeneral is decode for any frame, with encoding/json.
func decodeGeneral(data []byte) message {
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) == 0 {
		return invalid(nil, CodeParseError, "parse error: empty message")
	}
	switch trimmed[0] {
	case '{':
	case '[':
		if !json.Valid(trimmed) {
			return invalid(nil, CodeParseError, "parse error: invalid JSON")
		}
		// MCP dropped JSON-RPC batching in 2025-06-18 and the CLI never
		// batches, so a batch is answered as one invalid request.
		return invalid(nil, CodeInvalidRequest, "invalid request: batches are not supported")
	default:
		if !json.Valid(trimmed) {
			return invalid(nil, CodeParseError, "parse error: invalid JSON")
		}
		return invalid(nil, CodeInvalidRequest, "invalid request: not a JSON object")
	}

	var env envelope
	if err := json.Unmarshal(trimmed, &env); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			return invalid(nil, CodeParseError, "parse error: invalid JSON")
		}
		return invalid(nil, CodeInvalidRequest, "invalid request: "+err.Error())
	}

	if env.Method == nil && (env.Result != nil || env.Error != nil) {
		// Never answer a response, however malformed: two peers answering
		// each other's error responses would never stop.
		return message{kind: kindResponse, id: env.ID}
	}
	// The id decides what an error answer echoes, so check it next.
	var id json.RawMessage
	if env.ID != nil {
		if !validID(env.ID) {
			return invalid(nil, CodeInvalidRequest, "invalid request: id must be a string or a number")
		}
		id = env.ID
	}
	var version string
	if json.Unmarshal(env.JSONRPC, &version) != nil || version != "2.0" {
		return invalid(id, CodeInvalidRequest, `invalid request: jsonrpc must be "2.0"`)
	}
	if env.Method == nil {
		return invalid(id, CodeInvalidRequest, "invalid request: missing method")
	}
	var method string
	if json.Unmarshal(env.Method, &method) != nil {
		return invalid(id, CodeInvalidRequest, "invalid request: method must be a string")
	}
	if method == "" {
		return invalid(id, CodeInvalidRequest, "invalid request: empty method")
	}
	params := json.RawMessage(env.Params)
	if isNull(params) {
		params = nil
	}
	if params != nil && params[0] != '{' && params[0] != '[' {
		return invalid(id, CodeInvalidRequest, "invalid request: params must be an object or an array")
	}
	if id == nil {
		return message{kind: kindNotification, method: method, params: params}
	}
	return message{kind: kindRequest, id: id, method: method, params: params}
}

func invalid(id json.RawMessage, code int, msg string) message {
	return message{kind: kindInvalid, id: id, err: errorf(code, msg)}
}

// validID reports whether raw (a complete JSON value as captured by
// encoding/json, so without surrounding space) is a string or a number.
// MCP forbids null ids.
func validID(raw json.RawMessage) bool {
	if len(raw) == 0 {
		return false
	}
	c := raw[0]
	return c == '"' || c == '-' || (c >= '0' && c <= '9')
}

func isNull(raw json.RawMessage) bool {
	return raw == nil || string(raw) == "null"
}

// idKey turns an id into a map key that equates the same id written
// differently ("a" and "\u0061"); the prefix keeps 1 and "1" apart.
func idKey(raw json.RawMessage) (string, bool) {
	if !validID(raw) {
		return "", false
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return "", false
		}
		return "s" + s, true
	}
	return "n" + string(raw), true
}
