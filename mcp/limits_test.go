package mcp_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
	"github.com/gorilla/websocket"
)

func TestA64MiBFileArrivesWhole(t *testing.T) {
	_, url := startServer(t, mcp.Config{Tools: []mcp.Tool{sizeTool}})
	c := mcptest.Dial(t, url, testToken)
	// Moving 64 MiB through JSON both ways took 43 s on a 2-core machine at
	// load 20: past the 30 s a client may go without initializing, and
	// past mcptest's default wait.
	c.Initialize()
	c.Timeout = 5 * time.Minute
	data := strings.Repeat("x", 64<<20)
	got := callText(t, c, "size", map[string]any{"data": data})
	if got != strconv.Itoa(len(data)) {
		t.Errorf("the tool saw %s bytes of a %d-byte argument", got, len(data))
	}
}

func TestAFrameOverTheLimitClosesOnlyThatConnection(t *testing.T) {
	_, url := startServer(t, mcp.Config{Tools: []mcp.Tool{echoTool}})
	bystander := mcptest.Dial(t, url, testToken)
	bystander.Initialize()

	big := dialRaw(t, url, http.Header{})
	frame := make([]byte, mcp.MaxMessageSize+1)
	for i := range frame {
		frame[i] = ' '
	}
	writeDone := make(chan error, 1)
	go func() {
		// The server refuses the frame from its header; whether the rest
		// of our write succeeds does not matter.
		writeDone <- big.WriteMessage(websocket.TextMessage, frame)
	}()
	var err error
	for err == nil {
		_, _, err = big.ReadMessage()
	}
	if !websocket.IsCloseError(err, websocket.CloseMessageTooBig) {
		t.Errorf("an oversized frame ended the connection with %v, want close 1009", err)
	}
	big.Close()
	recv(t, writeDone, "the oversized write to return")

	if got := callText(t, bystander, "echo", map[string]any{"text": "unaffected"}); got != "unaffected" {
		t.Errorf("the other client got %q, want unaffected", got)
	}
}

func TestTextFramesMustBeUTF8(t *testing.T) {
	echo := func(text string) string {
		return `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"` + text + `"}}}`
	}
	tests := []struct {
		name  string
		frame string
		close bool // want 1007; else the echo's answer
	}{
		{"a lone invalid byte closes with 1007", "\xff", true},
		{"an invalid sequence inside a JSON string closes with 1007", echo("\xc3\x28"), true},
		{"a multi-byte character cut short closes with 1007", echo("\xe2\x9c"), true},
		{"an encoded surrogate half closes with 1007", echo("\xed\xa0\x80"), true},
		{"valid multi-byte text is served", echo("ü ✻ 𝄞"), false},
	}
	_, url := startServer(t, mcp.Config{Tools: []mcp.Tool{echoTool}})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := dialRaw(t, url, http.Header{})
			sendJSON(t, ws, tt.frame)
			data, err := nextFrame(ws)
			switch {
			case tt.close && !websocket.IsCloseError(err, websocket.CloseInvalidFramePayloadData):
				t.Errorf("frame %q: got %s, %v; want close 1007 and no answer", tt.frame, data, err)
			case !tt.close && (err != nil || !strings.Contains(string(data), `"text":"ü ✻ 𝄞"`)):
				t.Errorf("frame %q: got %s, %v; want the echo", tt.frame, data, err)
			}
		})
	}
}
