package host

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/mcp"
)

func TestTheChatMCPEndpointAnswersOnlyWithItsTokenAndOffersReadOnlyTools(t *testing.T) {
	h := &Host{log: slog.New(slog.DiscardHandler)}
	m, err := h.startChatMCP(chatTools)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		m.endpoint.Close(context.Background())
		os.RemoveAll(m.configDir)
	})
	auth := "Bearer " + m.token
	for _, tc := range []struct {
		name, method, auth, origin, host, body string
		status                                 int
		want                                   string
	}{
		{"a request without the token is refused", "POST", "", "", "", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, 401, ""},
		{"a request with another token is refused", "POST", "Bearer nope", "", "", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, 401, ""},
		{"a request from a web page is refused", "POST", auth, "http://evil.example", "", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, 403, ""},
		{"a request naming another host is refused", "POST", auth, "", "evil.example", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, 403, ""},
		{"a GET for a server stream is not offered", "GET", auth, "", "", "", 405, ""},
		{"initialize echoes a version it knows", "POST", auth, "", "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26"}}`, 200, `"protocolVersion":"2025-03-26"`},
		{"initialize answers an unknown version with the newest", "POST", auth, "", "", `{"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":"1999-01-01"}}`, 200, `{"jsonrpc":"2.0","id":"a","result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":false}}`},
		{"a notification gets no answer", "POST", auth, "", "", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, 202, ""},
		{"tools/list offers getDiagnostics first, then the language-server tools", "POST", auth, "", "", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, 200, `{"tools":[{"name":"getDiagnostics","description"`},
		{"a tool that is not offered is refused", "POST", auth, "", "", `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"openDiff","arguments":{}}}`, 200, `"code":-32602,"message":"invalid params: unknown tool: openDiff"`},
		{"an unknown method is -32601", "POST", auth, "", "", `{"jsonrpc":"2.0","id":4,"method":"completion/complete"}`, 200, `"code":-32601`},
		{"bad JSON is -32700", "POST", auth, "", "", `{"jsonrpc":`, 200, `"code":-32700`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, m.url, strings.NewReader(tc.body))
			if tc.auth != "" {
				req.Header.Set("Authorization", tc.auth)
			}
			if tc.origin != "" {
				req.Header.Set("Origin", tc.origin)
			}
			if tc.host != "" {
				req.Host = tc.host
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			body, _ := io.ReadAll(res.Body)
			if res.StatusCode != tc.status || !strings.Contains(string(body), tc.want) {
				t.Errorf("%s %s: got %d %s, want %d with %s", tc.method, tc.body, res.StatusCode, body, tc.status, tc.want)
			}
			if strings.Contains(string(body), `"openDiff"`) || strings.Contains(string(body), `"saveDocument"`) {
				t.Errorf("%s: the answer %s names a tool that changes the editor", tc.body, body)
			}
		})
	}
}

// The token reaches the chat CLI in a file of the user's alone, never on
// its command line, which any local user can read.
func TestTheChatMCPTokenIsInAPrivateFileNotOnTheCommandLine(t *testing.T) {
	h := &Host{log: slog.New(slog.DiscardHandler)}
	configs, args := h.chatMCPArgs(false)
	t.Cleanup(func() { h.closeChatMCP(context.Background()) })
	m := h.chats.mcp[chatTools]
	if m == nil || len(configs) != 1 {
		t.Fatalf("chatMCPArgs = %q, %q; want one config", configs, args)
	}
	for _, a := range append(configs, args...) {
		if strings.Contains(a, m.token) {
			t.Errorf("the CLI's argument %q carries the token", a)
		}
	}
	st, err := os.Stat(configs[0])
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("%s has mode %v, want 0600", configs[0], st.Mode().Perm())
	}
	dir, err := os.Stat(filepath.Dir(configs[0]))
	if err != nil || dir.Mode().Perm() != 0o700 {
		t.Errorf("its directory: %v, %v; want mode 0700", dir.Mode().Perm(), err)
	}
	body, err := os.ReadFile(configs[0])
	if err != nil || !strings.Contains(string(body), "Bearer "+m.token) || !strings.Contains(string(body), m.url) {
		t.Errorf("the config file holds %s (%v), want the endpoint and its token", body, err)
	}
	h.closeChatMCP(context.Background())
	if _, err := os.Stat(configs[0]); !os.IsNotExist(err) {
		t.Errorf("the config file outlives the endpoint: %v", err)
	}
}

// tools.lsp = false: a chat CLI gets an endpoint of getDiagnostics alone.
func TestWithoutTheLanguageServerToolsTheChatGetsDiagnosticsAlone(t *testing.T) {
	h := &Host{log: slog.New(slog.DiscardHandler)}
	configs, args := h.chatMCPArgs(true)
	t.Cleanup(func() { h.closeChatMCP(context.Background()) })
	if len(configs) != 1 || len(args) != 1 || args[0] != "--allowedTools=mcp__nvim__getDiagnostics" {
		t.Fatalf("chatMCPArgs(noLSP) = %q, %q; want one config and getDiagnostics alone allowed", configs, args)
	}
	m := h.chats.mcp[chatToolsNoLSP]
	req, _ := http.NewRequest("POST", m.url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	req.Header.Set("Authorization", "Bearer "+m.token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if !strings.Contains(string(body), `"getDiagnostics"`) || strings.Contains(string(body), "lsp_") {
		t.Errorf("tools/list answered %s; want getDiagnostics and no lsp_ tool", body)
	}
}

// The terminal's endpoint: the language-server tools only (getDiagnostics is the IDE
// connection's), and only for a client with its token.
func TestTheTerminalsEndpointServesTheLanguageServerToolsToItsTokenOnly(t *testing.T) {
	h := &Host{log: slog.New(slog.DiscardHandler)}
	config, allowed := h.terminalMCPArgs()
	t.Cleanup(func() { h.closeChatMCP(context.Background()) })
	m := h.chats.mcp[terminalTools]
	if config != m.configFile || allowed != "--allowedTools=mcp__nvim__"+strings.Join(mcp.LSPToolNames, ",mcp__nvim__") {
		t.Errorf("terminalMCPArgs = %q, %q", config, allowed)
	}
	for _, auth := range []string{"", "Bearer " + m.token} {
		req, _ := http.NewRequest("POST", m.url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		switch {
		case auth == "" && res.StatusCode != 401:
			t.Errorf("without the token: %d %s, want 401", res.StatusCode, body)
		case auth != "" && (!strings.Contains(string(body), `"lsp_references"`) || strings.Contains(string(body), "getDiagnostics")):
			t.Errorf("tools/list answered %s; want the lsp_ tools alone", body)
		}
	}
}
