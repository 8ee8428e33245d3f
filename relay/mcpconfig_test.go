package relay_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/claude-nvim/claude.nvim/relay"
)

// A chat CLI there (issue 41) gets the relay's --mcp-config: a file only the relay's user
// reads, whose http server is the relay's loopback port with the lock's token. Its requests
// reach the endpoint the host serves on the link's HTTP listener; one without the token, with
// an Origin or a foreign Host is refused there and never crosses.
func TestAChatCLIsMCPRequestsThroughTheRelayReachTheHostsEndpoint(t *testing.T) {
	c := startRelay(t, t.TempDir())
	link, err := c.connect(t, relay.HostHello{Folders: []string{"/w"}})
	if err != nil {
		t.Fatal(err)
	}
	serve(t, link) // the IDE protocol's server, which must see none of these
	var crossed atomic.Int32
	ep, err := mcp.NewHTTPEndpoint(mcp.HTTPConfig{Token: link.Info.Token, Logger: testLogger(t), Tools: []mcp.Tool{{
		Name: "echo", Description: "Echo",
		Handler: func(_ context.Context, args json.RawMessage) (*mcp.ToolResult, error) {
			crossed.Add(1)
			return mcp.TextResult("echo " + string(args)), nil
		}}}})
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = ep.Serve(link.HTTP()) }()
	t.Cleanup(func() { _ = ep.Close(context.Background()) })

	file := link.Info.MCPConfig
	if file == "" {
		t.Fatal("the relay named no --mcp-config file")
	}
	for path, want := range map[string]os.FileMode{file: 0o600, filepath.Dir(file): 0o700} {
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v (%v), want %v", path, fi.Mode().Perm(), err, want)
		}
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		MCPServers map[string]struct {
			Type    string            `json:"type"`
			URL     string            `json:"url"`
			Headers map[string]string `json:"headers"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	srv := cfg.MCPServers[relay.MCPServer]
	if srv.Type != "http" || !strings.HasPrefix(srv.URL, "http://127.0.0.1:") || srv.Headers["Authorization"] != "Bearer "+link.Info.Token {
		t.Fatalf("config %s, want an http server on the relay's loopback port with the lock's token", b)
	}

	post := func(h http.Header) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"s":"hi"}}}`))
		req.Header = h
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	for _, tc := range []struct {
		name   string
		header http.Header
		status int
	}{
		{"no token", http.Header{}, http.StatusUnauthorized},
		{"wrong token", http.Header{"Authorization": {"Bearer " + strings.Repeat("0", 64)}}, http.StatusUnauthorized},
		{"an Origin", http.Header{"Authorization": {srv.Headers["Authorization"]}, "Origin": {"http://evil.example"}}, http.StatusForbidden},
	} {
		if status, body := post(tc.header); status != tc.status {
			t.Errorf("%s: HTTP %d %q, want %d", tc.name, status, body, tc.status)
		}
	}
	if n := crossed.Load(); n != 0 {
		t.Fatalf("%d refused requests reached the host's endpoint", n)
	}
	status, body := post(http.Header{"Authorization": {srv.Headers["Authorization"]}})
	if status != http.StatusOK || !strings.Contains(body, `echo {\"s\":\"hi\"}`) {
		t.Errorf("with the config's header: HTTP %d %q, want the host's endpoint's answer", status, body)
	}
}
