package e2e

import (
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The chat's MCP servers (issue 39, item 4): each with its state as the CLI reports it
// (connected, failed, needs sign-in, disabled), reconnected and turned off and on from the chat.

// mcpServer serves a minimal MCP server over streamable HTTP (JSON answers, 202 for
// notifications, 405 for the GET stream): enough for the CLI to connect and list no tools.
func mcpServer(name string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"params"`
		}
		if json.NewDecoder(r.Body).Decode(&req) != nil || req.ID == nil {
			w.WriteHeader(http.StatusAccepted) // a notification
			return
		}
		var result any
		switch req.Method {
		case "initialize":
			result = map[string]any{"protocolVersion": req.Params.ProtocolVersion, "capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo": map[string]any{"name": name, "version": "1.0"}}
		case "tools/list":
			result = map[string]any{"tools": []any{}}
		default:
			result = map[string]any{}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
	})
}

// oauthServer is an MCP server that wants an OAuth sign-in: 401 with its metadata, which the
// CLI follows as far as registering a client; then it needs the user.
func oauthServer(base *string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/.well-known/oauth-protected-resource":
			json.NewEncoder(w).Encode(map[string]any{"resource": *base + "/mcp", "authorization_servers": []string{*base}})
		case "/.well-known/oauth-authorization-server":
			json.NewEncoder(w).Encode(map[string]any{"issuer": *base, "authorization_endpoint": *base + "/authorize", "token_endpoint": *base + "/token",
				"registration_endpoint": *base + "/register", "response_types_supported": []string{"code"}, "code_challenge_methods_supported": []string{"S256"}})
		case "/register":
			w.WriteHeader(http.StatusCreated)
			json.NewEncoder(w).Encode(map[string]any{"client_id": "e2e", "redirect_uris": []string{"http://localhost/callback"}, "token_endpoint_auth_method": "none"})
		default:
			w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+*base+`/.well-known/oauth-protected-resource"`)
			w.WriteHeader(http.StatusUnauthorized)
		}
	})
}

// addUserMCPServers adds MCP servers to the user's Claude config (user scope), as `claude
// mcp add --scope user` does.
func (s *session) addUserMCPServers(servers map[string]any) {
	s.t.Helper()
	path := filepath.Join(s.env.ConfigDir, ".claude.json")
	var cfg map[string]any
	b, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(b, &cfg) != nil {
		s.t.Fatalf("read %s: %v", path, err)
	}
	cfg["mcpServers"] = servers
	b, _ = json.Marshal(cfg)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		s.t.Fatal(err)
	}
}

func TestTheChatShowsItsMCPServersAndReconnectsAndTogglesOne(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	t.Cleanup(s.logTranscript)
	// "later" is down when the chat starts (its port closed), up by the time it is reconnected.
	later, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	laterAddr := later.Addr().String()
	later.Close()
	auth, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	authBase := "http://" + auth.Addr().String()
	authSrv := &http.Server{Handler: oauthServer(&authBase)}
	go authSrv.Serve(auth)
	t.Cleanup(func() { authSrv.Close() })
	s.addUserMCPServers(map[string]any{
		"later":     map[string]any{"type": "http", "url": "http://" + laterAddr + "/mcp"},
		"needsauth": map[string]any{"type": "http", "url": authBase + "/mcp"},
	})
	s.openChat()
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the list at the end:\n%s", strings.Join(s.panelLines("mcp"), "\n"))
		}
	})
	s.nv.Cmd("ClaudeChatMcp")
	lines := s.waitPanel("mcp",
		"nvim: connected (",
		"later: failed: ",
		"needsauth: needs sign-in: authenticate it with /mcp in a Claude terminal, then r  · user")
	t.Logf("servers:\n%s", strings.Join(lines, "\n"))

	// Turned off, and on again while it is still down: the CLI's error is shown.
	s.panelCursorTo("mcp", "later: ")
	s.nv.Keys("o")
	s.waitPanel("mcp", "Done: disable later", "later: disabled (o turns it on)  · user")
	s.panelCursorTo("mcp", "later: ")
	s.nv.Keys("o")
	s.waitPanel("mcp", "Error: enable later: ", "later: failed: ")

	// Up now: r reconnects it.
	up, err := net.Listen("tcp", laterAddr)
	if err != nil {
		t.Skipf("the port of the server that was down is taken meanwhile: %v", err)
	}
	upSrv := &http.Server{Handler: mcpServer("later-server")}
	go upSrv.Serve(up)
	t.Cleanup(func() { upSrv.Close() })
	s.panelCursorTo("mcp", "later: ")
	s.nv.Keys("r")
	s.waitPanel("mcp", "Done: reconnect later", "later: connected (later-server 1.0)  · user")
}
