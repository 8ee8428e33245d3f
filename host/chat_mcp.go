package host

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/claude-nvim/claude.nvim/mcp"
)

// The chat's editor tools. Print mode never connects to the IDE WebSocket, so each chat CLI
// gets, through --mcp-config, an MCP server of the public "http" type (streamable HTTP, JSON
// answers only): one listener of this host on 127.0.0.1, guarded by a bearer token, serving the
// read-only tools of mcp.IDETools on the same editor code as the terminal's server.

// chatMCPServer is the name the chat CLI knows the server by: its tools reach the model as
// mcp__nvim__<tool>.
const chatMCPServer = "nvim"

// chatMCPTools are the tools offered: read-only, so they are allowed without asking.
var chatMCPTools = []string{"getDiagnostics"}

// chatMCPBodyLimit bounds a request body; tool arguments are small.
const chatMCPBodyLimit = 1 << 20

// chatMCPCallTimeout bounds one tool call.
const chatMCPCallTimeout = 30 * time.Second

// chatMCPProtocols are the MCP versions we answer with; the first is the newest.
var chatMCPProtocols = []string{"2025-06-18", "2025-03-26", "2024-11-05"}

// chatMCP is the running endpoint: its URL and token go into every chat CLI's --mcp-config.
type chatMCP struct {
	url   string
	token string
	srv   *http.Server
	tools map[string]mcp.Tool
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
		tools: map[string]mcp.Tool{},
	}
	for _, t := range mcp.IDETools(h.editor) {
		if slices.Contains(chatMCPTools, t.Name) {
			m.tools[t.Name] = t
		}
	}
	if err := m.writeConfig(); err != nil {
		ln.Close()
		return nil, err
	}
	m.srv = &http.Server{Handler: m, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := m.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			h.log.Warn("chat mcp: serve", "err", err)
		}
	}()
	return m, nil
}

// writeConfig writes config() into a file only the user can read.
func (m *chatMCP) writeConfig() error {
	dir, err := os.MkdirTemp("", "claude-nvim-chat-mcp-") // mode 0700
	if err != nil {
		return fmt.Errorf("chat mcp config: %w", err)
	}
	file := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(file, []byte(m.config()), 0o600); err != nil {
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

// rpcMessage is one JSON-RPC 2.0 message from the CLI.
type rpcMessage struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (m *chatMCP) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// A browser page must not reach the editor: loopback only, no Origin, the token.
	want := "Bearer " + m.token
	got := r.Header.Get("Authorization")
	if r.Header.Get("Origin") != "" || subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 {
		http.Error(w, "forbidden", http.StatusForbidden)
		return
	}
	if r.Method != http.MethodPost {
		// No server-to-client stream: every answer comes with its request.
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, chatMCPBodyLimit))
	if err != nil {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	body = bytes.TrimSpace(body)
	var out []byte
	if bytes.HasPrefix(body, []byte("[")) { // a batch (protocol 2025-03-26)
		var batch []json.RawMessage
		if err := json.Unmarshal(body, &batch); err != nil {
			out = rpcReply(nil, nil, &rpcError{-32700, "parse error"})
		} else {
			var replies []json.RawMessage
			for _, one := range batch {
				if b := m.handle(r.Context(), one); b != nil {
					replies = append(replies, b)
				}
			}
			if replies != nil {
				out, _ = json.Marshal(replies)
			}
		}
	} else {
		out = m.handle(r.Context(), body)
	}
	if out == nil { // notifications and responses get no answer
		w.WriteHeader(http.StatusAccepted)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(out)
}

// handle answers one message; nil for a notification.
func (m *chatMCP) handle(ctx context.Context, raw []byte) []byte {
	var msg rpcMessage
	if err := json.Unmarshal(raw, &msg); err != nil {
		return rpcReply(nil, nil, &rpcError{-32700, "parse error"})
	}
	if len(msg.ID) == 0 || string(msg.ID) == "null" {
		return nil
	}
	switch msg.Method {
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		_ = json.Unmarshal(msg.Params, &p)
		version := chatMCPProtocols[0]
		if slices.Contains(chatMCPProtocols, p.ProtocolVersion) {
			version = p.ProtocolVersion
		}
		return rpcReply(msg.ID, map[string]any{
			"protocolVersion": version,
			"capabilities":    map[string]any{"tools": map[string]any{}},
			"serverInfo":      map[string]string{"name": "claude.nvim", "version": Version},
		}, nil)
	case "ping":
		return rpcReply(msg.ID, map[string]any{}, nil)
	case "tools/list":
		tools := []map[string]any{}
		for _, n := range chatMCPTools {
			if t, ok := m.tools[n]; ok {
				tools = append(tools, map[string]any{"name": t.Name, "description": t.Description, "inputSchema": t.InputSchema})
			}
		}
		return rpcReply(msg.ID, map[string]any{"tools": tools}, nil)
	case "tools/call":
		return m.call(ctx, msg)
	}
	return rpcReply(msg.ID, nil, &rpcError{-32601, "method not found: " + msg.Method})
}

// call runs one tool; a tool's failure is a result with isError, bad arguments are -32602.
func (m *chatMCP) call(ctx context.Context, msg rpcMessage) (out []byte) {
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(msg.Params, &p); err != nil {
		return rpcReply(msg.ID, nil, &rpcError{-32602, "invalid params: " + err.Error()})
	}
	t, ok := m.tools[p.Name]
	if !ok {
		return rpcReply(msg.ID, nil, &rpcError{-32602, "unknown tool: " + p.Name})
	}
	if len(p.Arguments) == 0 || string(p.Arguments) == "null" {
		p.Arguments = json.RawMessage("{}")
	}
	defer func() {
		if v := recover(); v != nil {
			out = rpcReply(msg.ID, nil, &rpcError{-32603, fmt.Sprintf("internal error: %v", v)})
		}
	}()
	ctx, cancel := context.WithTimeout(ctx, chatMCPCallTimeout)
	defer cancel()
	res, err := t.Handler(ctx, p.Arguments)
	switch {
	case errors.Is(err, mcp.ErrInvalidParams):
		return rpcReply(msg.ID, nil, &rpcError{-32602, err.Error()})
	case err != nil:
		res = &mcp.ToolResult{Content: []mcp.Content{{Type: "text", Text: err.Error()}}, IsError: true}
	}
	return rpcReply(msg.ID, res, nil)
}

func rpcReply(id json.RawMessage, result any, e *rpcError) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	msg := map[string]any{"jsonrpc": "2.0", "id": id}
	if e != nil {
		msg["error"] = e
	} else {
		msg["result"] = result
	}
	b, _ := json.Marshal(msg)
	return b
}

// closeChatMCP stops the endpoint, if it runs.
func (h *Host) closeChatMCP(ctx context.Context) {
	h.chats.mcpMu.Lock()
	m := h.chats.mcp
	h.chats.mcp = nil
	h.chats.mcpMu.Unlock()
	if m != nil {
		_ = m.srv.Shutdown(ctx)
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
