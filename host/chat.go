package host

import (
	"context"
	"sync"

	"github.com/claude-nvim/claude.nvim/chatctl"
	"github.com/claude-nvim/claude.nvim/hooks"
)

// chats is the host's part of the native chat (:ClaudeChat): the controller (chatctl), which
// runs the chats, and the MCP endpoint whose --mcp-config every chat CLI gets (chat_mcp.go).
type chats struct {
	ctl *chatctl.Controller

	mcpMu sync.Mutex // guards mcp, started by the first chat (chat_mcp.go)
	mcp   *chatMCP

	swept sync.Once // the dead hosts' endpoint configs, removed once (chat_sweep.go)
}

// newChats wires the controller to the editor and to the endpoint's arguments.
func (h *Host) newChats(view chatctl.View) {
	h.chats.ctl = chatctl.New(chatctl.Options{View: view, Log: h.log, EditorTools: h.chatCLIArgs, CLIEnv: chatCLIEnv, Observe: h.observeChat, After: h.chatAfter})
}

// CloseChats ends every chat's CLI, for a host that is exiting with Neovim, then the chats'
// MCP endpoint.
func (h *Host) CloseChats(ctx context.Context) {
	if h.chats.ctl != nil {
		h.chats.ctl.Close(ctx)
	}
	h.closeChatMCP(ctx)
}

// chatCLIArgs are what every chat CLI gets from the host: the editor's tools
// (chat_mcp.go) and the hooks (hooks.go).
func (h *Host) chatCLIArgs() (mcpConfigs, args []string) {
	mcpConfigs, args = h.chatMCPArgs()
	if file := h.hookSettings(); file != "" {
		args = append(args, "--settings", file)
	}
	return mcpConfigs, args
}

// chatCLIEnv tells dir's chat CLI's hooks which chat they are from.
func chatCLIEnv(dir string) []string {
	return []string{hooks.OriginEnv + "=" + chatOrigin(dir)}
}
