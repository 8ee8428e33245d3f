package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/claude-nvim/claude.nvim/mcp"
)

// pickyTool refuses its arguments with a very long reason, as a JSON error
// quoting a client's key might be.
var pickyTool = mcp.Tool{Name: "picky", Description: "Refuse",
	Handler: func(context.Context, json.RawMessage) (*mcp.ToolResult, error) {
		return nil, fmt.Errorf("%w: %s", mcp.ErrInvalidParams, strings.Repeat("k", 100_000))
	}}

// The WebSocket and the HTTP endpoint answer every request through one
// dispatcher: the same bytes for the same message, and no answer echoes
// more than a bounded part of what the client sent.
func TestBothTransportsGiveTheSameBoundedAnswers(t *testing.T) {
	tools := []mcp.Tool{echoTool, panicTool, pickyTool}
	_, wsURL := startServer(t, mcp.Config{Tools: tools})
	ws := dialRaw(t, wsURL, http.Header{})
	httpURL := startHTTP(t, mcp.HTTPConfig{Tools: tools})
	long := strings.Repeat("m", 100_000)
	for _, tc := range []struct{ name, msg string }{
		{"ping", `{"jsonrpc":"2.0","id":1,"method":"ping"}`},
		{"tools/list", `{"jsonrpc":"2.0","id":"l","method":"tools/list"}`},
		{"a tool call", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}}`},
		{"a tool call with null arguments", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":null}}`},
		{"a tool call with a wrong argument type", `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"text":5}}}`},
		{"a panicking tool", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"panic"}}`},
		{"a tool refusing with a long reason", `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"picky"}}`},
		{"a long unknown method", `{"jsonrpc":"2.0","id":7,"method":"` + long + `"}`},
		{"a long unknown method of two-byte characters", `{"jsonrpc":"2.0","id":14,"method":"x` + strings.Repeat("é", 50_000) + `"}`},
		{"a long unknown tool", `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"` + long + `"}}`},
		{"a batch", `[{"jsonrpc":"2.0","id":9,"method":"ping"}]`},
		{"bad JSON", `{"jsonrpc":"2.0","id":10,`},
		{"params of the wrong type", `{"jsonrpc":"2.0","id":11,"method":"ping","params":"` + long + `"}`},
		{"initialize with a bad version", `{"jsonrpc":"2.0","id":12,"method":"initialize","params":{"protocolVersion":5}}`},
		{"prompts/list", `{"jsonrpc":"2.0","id":13,"method":"prompts/list"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sendJSON(t, ws, tc.msg)
			overWS := string(readFrame(t, ws))
			overHTTP := post(t, httpURL, "POST", tc.msg, nil).body
			if overWS != overHTTP {
				t.Errorf("%s: the WebSocket answered\n%s\nHTTP answered\n%s", short(tc.msg), short(overWS), short(overHTTP))
			}
			var answer struct {
				Error *struct{ Message string } `json:"error"`
			}
			if err := json.Unmarshal([]byte(overWS), &answer); err != nil {
				t.Fatalf("%s: answer %s: %v", short(tc.msg), short(overWS), err)
			}
			if answer.Error != nil && len(answer.Error.Message) > 600 {
				t.Errorf("%s: the error message is %d bytes, want it bounded", short(tc.msg), len(answer.Error.Message))
			}
			if answer.Error != nil && strings.ContainsRune(answer.Error.Message, utf8.RuneError) {
				t.Errorf("%s: the error message %q cuts a character in two", short(tc.msg), short(answer.Error.Message))
			}
		})
	}
}
