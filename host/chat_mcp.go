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

// The editor's tools for the CLIs we start, beside the IDE WebSocket. Print mode (the chat)
// never connects to that WebSocket, and the CLI shows the model only two of its tools, so the
// chat's CLIs and, for the language-server tools, the terminal's get, through --mcp-config, an
// MCP server of the public "http" type (streamable HTTP, JSON answers only): a listener of this
// host on 127.0.0.1, guarded by a bearer token, serving tools on the same editor code as the
// terminal's server. The protocol, the token, Origin and Host checks and the listener's limits
// are mcp.HTTPEndpoint's, which are the terminal server's; this file only opens the listeners
// and writes their --mcp-config files.

// chatMCPServer is the name the CLI knows the server by: its tools reach the model as
// mcp__nvim__<tool>.
const chatMCPServer = "nvim"

// mcpKind names one endpoint: which tools it serves, to whom.
type mcpKind int

const (
	chatTools      mcpKind = iota // the chat's: getDiagnostics and the language-server tools
	chatToolsNoLSP                // the chat's with tools.lsp = false: getDiagnostics
	terminalTools                 // the terminal's: the language-server tools
)

// toolNames are the tools an endpoint of kind k offers, all allowed without asking: they
// read the editor, and lsp_rename only proposes (the user reviews before anything is
// written).
func (k mcpKind) toolNames() []string {
	switch k {
	case chatTools:
		return append([]string{"getDiagnostics"}, mcp.LSPToolNames...)
	case chatToolsNoLSP:
		return []string{"getDiagnostics"}
	default:
		return mcp.LSPToolNames
	}
}

// chatMCP is a running endpoint: its URL and token go into the --mcp-config of the CLIs it
// serves.
type chatMCP struct {
	kind     mcpKind
	url      string
	token    string
	endpoint *mcp.HTTPEndpoint
	// configDir holds the --mcp-config file: the token must not be on a
	// command line, which every local user can read (/proc/PID/cmdline);
	// the file is the user's alone, like the IDE lock file.
	configDir  string
	configFile string
}

// chatMCPEndpoint starts the endpoint of kind on first use and returns it.
func (h *Host) chatMCPEndpoint(kind mcpKind) (*chatMCP, error) {
	h.chats.mcpMu.Lock()
	defer h.chats.mcpMu.Unlock()
	if h.chats.mcp[kind] == nil {
		m, err := h.startChatMCP(kind)
		if err != nil {
			return nil, err
		}
		if h.chats.mcp == nil {
			h.chats.mcp = map[mcpKind]*chatMCP{}
		}
		h.chats.mcp[kind] = m
	}
	return h.chats.mcp[kind], nil
}

// editorTools are every tool an endpoint may offer, on this host's editor.
func (h *Host) editorTools() []mcp.Tool {
	return append(mcp.IDETools(h.editor), mcp.LSPTools(h.editor)...)
}

func (h *Host) startChatMCP(kind mcpKind) (*chatMCP, error) {
	key := make([]byte, 16)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("chat mcp token: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("chat mcp listen: %w", err)
	}
	m := &chatMCP{
		kind:  kind,
		url:   "http://" + ln.Addr().String() + "/mcp",
		token: hex.EncodeToString(key),
	}
	var tools []mcp.Tool
	for _, t := range h.editorTools() {
		if slices.Contains(kind.toolNames(), t.Name) {
			tools = append(tools, t)
		}
	}
	m.endpoint, err = mcp.NewHTTPEndpoint(mcp.HTTPConfig{
		Token: m.token, Tools: tools, Version: Version, Logger: h.log.With("mcp", kind.String()),
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
	for _, n := range m.kind.toolNames() {
		names = append(names, "mcp__"+chatMCPServer+"__"+n)
	}
	return names
}

// closeChatMCP stops the endpoints that run.
func (h *Host) closeChatMCP(ctx context.Context) {
	h.chats.mcpMu.Lock()
	all := h.chats.mcp
	h.chats.mcp = nil
	h.chats.mcpMu.Unlock()
	for _, m := range all {
		_ = m.endpoint.Close(ctx)
		os.RemoveAll(m.configDir)
	}
}

func (k mcpKind) String() string {
	switch k {
	case chatTools:
		return "chat"
	case chatToolsNoLSP:
		return "chat-nolsp"
	default:
		return "terminal"
	}
}

// chatMCPArgs are the CLI arguments that give a chat CLI the editor's tools (without the
// language-server tools when noLSP); none (logged) when the endpoint cannot start: the chat
// works without them.
func (h *Host) chatMCPArgs(noLSP bool) (configs, args []string) {
	kind := chatTools
	if noLSP {
		kind = chatToolsNoLSP
	}
	m, err := h.chatMCPEndpoint(kind)
	if err != nil {
		h.log.Warn("chat: editor tools unavailable", "err", err)
		return nil, nil
	}
	return []string{m.configFile}, []string{"--allowedTools=" + strings.Join(m.allowedTools(), ",")}
}

// terminalMCPArgs are what a terminal's CLI is started with to get the language-server tools:
// the --mcp-config file and the --allowedTools argument; none (logged) when the endpoint
// cannot start.
func (h *Host) terminalMCPArgs() (config, allowed string) {
	m, err := h.chatMCPEndpoint(terminalTools)
	if err != nil {
		h.log.Warn("terminal: language-server tools unavailable", "err", err)
		return "", ""
	}
	return m.configFile, "--allowedTools=" + strings.Join(m.allowedTools(), ",")
}
