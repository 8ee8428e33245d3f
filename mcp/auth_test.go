package mcp_test

import (
	"errors"
	"net/http"
	"net/url"
	"testing"

	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
	"github.com/gorilla/websocket"
)

func TestRefusedBeforeUpgrade(t *testing.T) {
	_, srvURL := startServer(t, mcp.Config{})
	port := mustURL(t, srvURL).Port()
	tests := []struct {
		name   string
		header http.Header
		want   int
	}{
		{"a wrong token gets 401", http.Header{"X-Claude-Code-Ide-Authorization": {"wrong"}}, http.StatusUnauthorized},
		{"a missing token gets 401", http.Header{}, http.StatusUnauthorized},
		{"an empty token gets 401", http.Header{"X-Claude-Code-Ide-Authorization": {""}}, http.StatusUnauthorized},
		{"a token that is a prefix of ours gets 401", http.Header{"X-Claude-Code-Ide-Authorization": {testToken[:5]}}, http.StatusUnauthorized},
		{"an Origin header gets 403 even with the right token",
			http.Header{"X-Claude-Code-Ide-Authorization": {testToken}, "Origin": {"http://127.0.0.1:" + port}}, http.StatusForbidden},
		{"an Origin header gets 403 before the token is checked",
			http.Header{"Origin": {"https://evil.example"}}, http.StatusForbidden},
		{"an empty Origin header still gets 403",
			http.Header{"X-Claude-Code-Ide-Authorization": {testToken}, "Origin": {""}}, http.StatusForbidden},
		{"a non-loopback Host gets 403 even with the right token",
			http.Header{"X-Claude-Code-Ide-Authorization": {testToken}, "Host": {"evil.example:" + port}}, http.StatusForbidden},
		{"a non-loopback Host gets 403 before the token is checked",
			http.Header{"Host": {"evil.example:" + port}}, http.StatusForbidden},
		{"another loopback address by number gets 403",
			http.Header{"X-Claude-Code-Ide-Authorization": {testToken}, "Host": {"127.0.0.2:" + port}}, http.StatusForbidden},
		{"a name that only starts with localhost gets 403",
			http.Header{"X-Claude-Code-Ide-Authorization": {testToken}, "Host": {"localhost.evil.example:" + port}}, http.StatusForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := websocket.Dialer{Subprotocols: []string{"mcp"}}
			ws, resp, err := d.Dial(mcptest.WebSocketURL(srvURL), tt.header)
			if err == nil {
				ws.Close()
				t.Fatalf("upgrade with %v succeeded, want HTTP %d", tt.header, tt.want)
			}
			if !errors.Is(err, websocket.ErrBadHandshake) || resp == nil {
				t.Fatalf("dial with %v: %v, want a refused handshake", tt.header, err)
			}
			if resp.StatusCode != tt.want {
				t.Errorf("status with %v = %d, want %d", tt.header, resp.StatusCode, tt.want)
			}
			if up := resp.Header.Get("Upgrade"); up != "" {
				t.Errorf("refusal carries Upgrade: %q", up)
			}
		})
	}
}

func TestLoopbackHostsAreAccepted(t *testing.T) {
	_, srvURL := startServer(t, mcp.Config{})
	port := mustURL(t, srvURL).Port()
	for _, host := range []string{"127.0.0.1:" + port, "localhost:" + port, "LOCALHOST:" + port, "[::1]:" + port} {
		t.Run("Host "+host+" connects", func(t *testing.T) {
			ws := dialRaw(t, srvURL, http.Header{"Host": {host}})
			sendJSON(t, ws, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
			if got := string(readFrame(t, ws)); got != `{"jsonrpc":"2.0","id":1,"result":{}}` {
				t.Errorf("ping over Host %s answered %s", host, got)
			}
		})
	}
}

func TestAClientWithoutTheSubprotocolStillConnects(t *testing.T) {
	// The CLI always asks for "mcp"; refusing others would buy nothing.
	_, srvURL := startServer(t, mcp.Config{})
	d := websocket.Dialer{}
	ws, _, err := d.Dial(mcptest.WebSocketURL(srvURL), http.Header{"X-Claude-Code-Ide-Authorization": {testToken}})
	if err != nil {
		t.Fatalf("dial without subprotocol: %v", err)
	}
	defer ws.Close()
	if ws.Subprotocol() != "" {
		t.Errorf("subprotocol = %q, want none", ws.Subprotocol())
	}
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
