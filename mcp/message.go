package mcp

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// JSON-RPC 2.0 error codes.
const (
	CodeParseError     = -32700 // the frame is not JSON
	CodeInvalidRequest = -32600 // JSON, but not a valid request object
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
	// CodeServerBusy answers a tools/call over Limits.CallsInFlight; it is
	// in the range JSON-RPC leaves to servers (-32000 to -32099).
	CodeServerBusy = -32000
)

// nullID is the id of an error response to a message whose id could not
// be read.
var nullID = json.RawMessage("null")

// wireError is the "error" member of a JSON-RPC response.
type wireError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *wireError) Error() string {
	return "jsonrpc error " + strconv.Itoa(e.Code) + ": " + e.Message
}

// errorf builds an error object. Its message is bounded whatever it
// quotes (a JSON error naming a client's key, say): an answer never echoes
// more than maxErrorText of what a client sent.
func errorf(code int, msg string) *wireError {
	return &wireError{Code: code, Message: bounded(msg, maxErrorText)}
}

// maxErrorText bounds an error message; ours are a line.
const maxErrorText = 512

// rawAlias captures a JSON value without copying it: it aliases the frame
// the reader allocated, which nothing else reuses or modifies. A 64 MiB
// openDiff is then not copied again before its handler decodes it.
type rawAlias []byte

func (r *rawAlias) UnmarshalJSON(b []byte) error {
	*r = b
	return nil
}

// short bounds client-supplied text echoed in errors and logs.
func short(s string) string { return bounded(s, 100) }

// bounded is s cut to at most limit bytes, on a character boundary, with
// its length when cut.
func bounded(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…(" + strconv.Itoa(len(s)) + " bytes)"
}

// encodeResult builds a success response. The envelope is assembled by hand
// so that a large result (a whole file in openDiff's answer) is not scanned
// a second time by encoding/json's RawMessage validation. id came from the
// decoder (a JSON number or string token) and result from json.Marshal, so
// both are valid JSON already.
func encodeResult(id, result json.RawMessage) []byte {
	return encodeResponse(id, "result", result)
}

// encodeError builds an error response; a nil id becomes null.
func encodeError(id json.RawMessage, e *wireError) []byte {
	if id == nil {
		id = nullID
	}
	msg, err := json.Marshal(e)
	if err != nil {
		// A struct of an int and a string always marshals.
		panic("mcp: marshal error object: " + err.Error())
	}
	return encodeResponse(id, "error", msg)
}

func encodeResponse(id json.RawMessage, member string, value []byte) []byte {
	b := make([]byte, 0, 40+len(id)+len(value))
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"`...)
	b = append(b, member...)
	b = append(b, `":`...)
	b = append(b, value...)
	b = append(b, '}')
	return b
}

// encodeNotification builds a server-to-client notification. params must
// marshal to JSON; nil params are omitted.
func encodeNotification(method string, params any) ([]byte, error) {
	type note struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params,omitempty"`
	}
	return json.Marshal(note{JSONRPC: "2.0", Method: method, Params: params})
}
