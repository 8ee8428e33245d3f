package acp

import (
	"bytes"
	"encoding/json"
	"errors"
)

// kind classifies an incoming line.
type kind int

const (
	kindInvalid      kind = iota // answer with message.err
	kindRequest                  // has an id and a method: answer it
	kindNotification             // a method and no id: never answer
	kindResponse                 // the agent answering one of our requests
)

// message is one decoded line.
type message struct {
	kind   kind
	id     json.RawMessage // the id token as sent (a number, a string or null); nil when absent
	method string
	// params aliases the line, which is valid only while the reader handles it: whatever
	// keeps it longer (a request's goroutine, the Client) gets a copy.
	params json.RawMessage // nil when absent or null
	result json.RawMessage // kindResponse: the result, nil on error
	rpcErr *RPCError       // kindResponse: the agent's error; kindInvalid: the error to answer
}

// envelope captures every member as raw JSON, so that a member of the wrong type is
// reported as -32600 by us rather than failing the whole decode. Params aliases the line
// rather than copying it: an update can be tens of MiB.
type envelope struct {
	JSONRPC json.RawMessage `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  json.RawMessage `json:"method"`
	Params  rawAlias        `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// decode classifies one line. It never fails: a line that is not a usable message comes
// back as kindInvalid with the error to answer (id null unless the id could be read).
func decode(line []byte) message {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 {
		return invalid(nil, CodeParseError, "parse error: empty line")
	}
	if trimmed[0] != '{' {
		if !json.Valid(trimmed) {
			return invalid(nil, CodeParseError, "parse error: invalid JSON")
		}
		if trimmed[0] == '[' {
			// ACP does not use JSON-RPC batches (the TypeScript SDK answers them so too).
			return invalid(nil, CodeInvalidRequest, "invalid request: batches are not supported")
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
		return decodeResponse(env)
	}
	if env.ID != nil && !validID(env.ID) {
		return invalid(nil, CodeInvalidRequest, "invalid request: id must be a string, a number or null")
	}
	id := env.ID
	var version string
	if json.Unmarshal(env.JSONRPC, &version) != nil || version != "2.0" {
		return invalid(id, CodeInvalidRequest, `invalid request: jsonrpc must be "2.0"`)
	}
	var method string
	if env.Method == nil || json.Unmarshal(env.Method, &method) != nil || method == "" {
		return invalid(id, CodeInvalidRequest, "invalid request: method must be a non-empty string")
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

// decodeResponse reads an answer to one of our requests. A malformed one still counts as
// an answer (never answer a response: two peers answering each other's errors would never
// stop); its error says what was wrong.
func decodeResponse(env envelope) message {
	m := message{kind: kindResponse, id: env.ID}
	if env.Error != nil && !isNull(env.Error) {
		var e RPCError
		if json.Unmarshal(env.Error, &e) != nil {
			e = RPCError{Code: CodeInternalError, Message: "malformed error answer: " + bounded(string(env.Error), 200)}
		}
		m.rpcErr = &e
		return m
	}
	m.result = env.Result
	return m
}

// rawAlias captures a JSON value without copying it.
type rawAlias []byte

func (r *rawAlias) UnmarshalJSON(b []byte) error {
	*r = b
	return nil
}

func invalid(id json.RawMessage, code int, msg string) message {
	return message{kind: kindInvalid, id: id, rpcErr: &RPCError{Code: code, Message: bounded(msg, maxErrorText)}}
}

// validID reports whether raw (a complete JSON value) is a string, a number or null: the
// schema's RequestId.
func validID(raw json.RawMessage) bool {
	if len(raw) == 0 {
		return false
	}
	c := raw[0]
	return c == '"' || c == '-' || (c >= '0' && c <= '9') || string(raw) == "null"
}

func isNull(raw json.RawMessage) bool {
	return raw == nil || string(raw) == "null"
}

// idKey turns an id into a map key that equates the same id written differently ("a" and
// "\u0061", 1 and 1.0 are not equated: we only ever send small integers); the prefix keeps
// 1 and "1" apart.
func idKey(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || string(raw) == "null" || !validID(raw) {
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
