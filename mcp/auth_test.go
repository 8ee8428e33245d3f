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
			ws, resp, err := mcptest.DialConn(srvURL, tt.header)
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

// The subprotocol is not a gate: the token is. The CLI asks for "mcp"
// (see the package doc) and gets it; a client that asks for nothing or for
// something else is served without one (see the comment in NewServer).
func TestSubprotocolIsNegotiatedNotRequired(t *testing.T) {
	_, srvURL := startServer(t, mcp.Config{})
	tests := []struct {
		name   string
		offers []string
		want   string
	}{
		{"the CLI's mcp is agreed", []string{"mcp"}, "mcp"},
		{"mcp is picked from a list", []string{"wamp", "mcp"}, "mcp"},
		{"a client offering none connects without one", nil, ""},
		{"a client offering only others connects without one", []string{"wamp"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := websocket.Dialer{Subprotocols: tt.offers}
			ws, _, err := d.Dial(mcptest.WebSocketURL(srvURL), tokenHeader())
			if err != nil {
				t.Fatalf("dial offering %q: %v", tt.offers, err)
			}
			defer ws.Close()
			if got := ws.Subprotocol(); got != tt.want {
				t.Errorf("offering %q: subprotocol %q, want %q", tt.offers, got, tt.want)
			}
			sendJSON(t, ws, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
			if got := string(readFrame(t, ws)); got != `{"jsonrpc":"2.0","id":1,"result":{}}` {
				t.Errorf("offering %q: ping answered %s", tt.offers, got)
			}
		})
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
