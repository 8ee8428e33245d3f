package host

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/claude-nvim/claude.nvim/mcp"
)

// The chat's editor tools. Print mode never connects to the IDE WebSocket, so each chat CLI
// gets, through --mcp-config, an MCP server of the public "http" type (streamable HTTP, JSON
// answers only): one listener of this host on 127.0.0.1, guarded by a bearer token, serving the
// read-only tools of mcp.IDETools on the same editor code as the terminal's server. The protocol,
// the token, Origin and Host checks and the listener's limits are mcp.HTTPEndpoint's, which are
// the terminal server's; this file only opens the listener and writes the --mcp-config file.

// chatMCPServer is the name the chat CLI knows the server by: its tools reach the model as
// mcp__nvim__<tool>.
const chatMCPServer = "nvim"

// chatMCPTools are the tools offered: read-only, so they are allowed without asking.
var chatMCPTools = []string{"getDiagnostics"}

// chatMCP is the running endpoint: its URL and token go into every chat CLI's --mcp-config.
type chatMCP struct {
	url      string
	token    string
	endpoint *mcp.HTTPEndpoint
	// configDir holds the --mcp-config file: the token must not be on a
	// command line, which every local user can read (/proc/PID/cmdline);
	// the file is the user's alone, like the IDE lock file.
	configDir  string
	configFile string
}

// chatMCPEndpoint starts the endpoint on first use and returns it.
func (h *Host) chatMCPEndpoint() (*chatMCP, error) {
	h.chats.mcpMu.Lock()
	defer h.chats.mcpMu.Unlock()
	if h.chats.mcp == nil {
		m, err := h.startChatMCP()
		if err != nil {
			return nil, err
		}
		h.chats.mcp = m
	}
	return h.chats.mcp, nil
}

func (h *Host) startChatMCP() (*chatMCP, error) {
	key := make([]byte, 16)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("chat mcp token: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("chat mcp listen: %w", err)
	}
	m := &chatMCP{
		url:   "http://" + ln.Addr().String() + "/mcp",
		token: hex.EncodeToString(key),
	}
	var tools []mcp.Tool
	for _, t := range mcp.IDETools(h.editor) {
		if slices.Contains(chatMCPTools, t.Name) {
			tools = append(tools, t)
		}
	}
	m.endpoint, err = mcp.NewHTTPEndpoint(mcp.HTTPConfig{
		Token: m.token, Tools: tools, Version: Version, Logger: h.log.With("mcp", "chat"),
	})
	if err == nil {
		err = m.writeConfig()
	}
	if err != nil {
		ln.Close()
		return nil, fmt.Errorf("chat mcp: %w", err)
	}
	h.sweepChatLeftovers()
	go func() {
		if err := m.endpoint.Serve(ln); err != nil {
			h.log.Warn("chat mcp: serve", "err", err)
		}
	}()
	return m, nil
}

// writeConfig writes config() into a file only the user can read.
func (m *chatMCP) writeConfig() error {
	dir, err := os.MkdirTemp("", chatMCPDirPattern) // mode 0700
	if err != nil {
		return fmt.Errorf("chat mcp config: %w", err)
	}
	file := filepath.Join(dir, "mcp.json")
	err = writeOwner(dir) // first: a dir without it is never swept (chat_sweep.go)
	if err == nil {
		err = os.WriteFile(file, []byte(m.config()), 0o600)
	}
	if err != nil {
		os.RemoveAll(dir)
		return fmt.Errorf("chat mcp config: %w", err)
	}
	m.configDir, m.configFile = dir, file
	return nil
}

// config is the content of the --mcp-config file for a chat CLI.
func (m *chatMCP) config() string {
	b, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		chatMCPServer: map[string]any{
			"type":    "http",
			"url":     m.url,
			"headers": map[string]string{"Authorization": "Bearer " + m.token},
		},
	}})
	return string(b)
}

// allowedTools are the --allowedTools values: the model may call these without asking.
func (m *chatMCP) allowedTools() []string {
	var names []string
	for _, n := range chatMCPTools {
		names = append(names, "mcp__"+chatMCPServer+"__"+n)
	}
	return names
}

// closeChatMCP stops the endpoint, if it runs.
func (h *Host) closeChatMCP(ctx context.Context) {
	h.chats.mcpMu.Lock()
	m := h.chats.mcp
	h.chats.mcp = nil
	h.chats.mcpMu.Unlock()
	if m != nil {
		_ = m.endpoint.Close(ctx)
		os.RemoveAll(m.configDir)
	}
}

// chatMCPArgs are the CLI arguments that give it the editor's tools; none (logged) when the
// endpoint cannot start: the chat works without them.
func (h *Host) chatMCPArgs() (configs, args []string) {
	m, err := h.chatMCPEndpoint()
	if err != nil {
		h.log.Warn("chat: editor tools unavailable", "err", err)
		return nil, nil
	}
	return []string{m.configFile}, []string{"--allowedTools=" + strings.Join(m.allowedTools(), ",")}
}
