package acp

import (
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// JSON-RPC 2.0 error codes, and the ones ACP adds (the schema's ErrorCode).
const (
	CodeParseError       = -32700 // the line is not JSON
	CodeInvalidRequest   = -32600 // JSON, but not a valid message
	CodeMethodNotFound   = -32601 // a method we do not serve (or the Client does not implement)
	CodeInvalidParams    = -32602
	CodeInternalError    = -32603
	CodeRequestCancelled = -32800 // the request was withdrawn with $/cancel_request
	CodeAuthRequired     = -32000
	CodeNotFound         = -32002 // a session (or other resource) that does not exist
)

// RPCError is a JSON-RPC error: one the agent answered a call of ours with, or one a
// Client handler returns to choose the error the agent gets.
type RPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *RPCError) Error() string {
	s := "acp error " + strconv.Itoa(e.Code) + ": " + e.Message
	if len(e.Data) > 0 && string(e.Data) != "null" {
		s += " (" + bounded(string(e.Data), 300) + ")"
	}
	return s
}

// Errorf builds an RPCError for a Client handler to return.
func Errorf(code int, format string, args ...any) *RPCError {
	return &RPCError{Code: code, Message: bounded(fmt.Sprintf(format, args...), maxErrorText)}
}

// maxErrorText bounds an error message we send; ours are a line.
const maxErrorText = 512

// nullID is the id of an error answer to a message whose id could not be read.
var nullID = json.RawMessage("null")

// bounded is s cut to at most limit bytes on a character boundary, with its length when cut.
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

// encodeRequest builds a request (id set) or a notification (id nil). params must marshal.
func encodeRequest(id json.RawMessage, method string, params any) ([]byte, error) {
	type request struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id,omitempty"`
		Method  string          `json:"method"`
		Params  any             `json:"params,omitempty"`
	}
	b, err := json.Marshal(request{JSONRPC: "2.0", ID: id, Method: method, Params: params})
	if err != nil {
		return nil, fmt.Errorf("acp: encode %s: %w", method, err)
	}
	return b, nil
}

// encodeResult builds a success answer. id came from the decoder and result from
// json.Marshal, so both are valid JSON already and are not scanned again.
func encodeResult(id, result json.RawMessage) []byte {
	return encodeResponse(id, "result", result)
}

// encodeError builds an error answer; a nil id becomes null.
func encodeError(id json.RawMessage, e *RPCError) []byte {
	if id == nil {
		id = nullID
	}
	msg, err := json.Marshal(e)
	if err != nil {
		// Data is either nil or came from json.Marshal.
		panic("acp: marshal error object: " + err.Error())
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
