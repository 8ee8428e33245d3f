package host

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/claude-nvim/claude.nvim/chat"
	"github.com/claude-nvim/claude.nvim/chatctl"
	"github.com/claude-nvim/claude.nvim/hooks"
)

// chats is the host's part of the native chat (:ClaudeChat): the controller (chatctl), which
// runs the chats, and the MCP endpoint whose --mcp-config every chat CLI gets (chat_mcp.go).
type chats struct {
	ctl *chatctl.Controller

	mcpMu sync.Mutex // guards mcp, each started on first use (chat_mcp.go)
	mcp   map[mcpKind]*chatMCP

	swept sync.Once // the dead hosts' endpoint configs, removed once (chat_sweep.go)
}

// newChats wires the controller to the editor and to the endpoint's arguments.
func (h *Host) newChats(view chatctl.View) {
	h.chats.ctl = chatctl.New(chatctl.Options{
		View: view, Log: h.log, EditorTools: h.chatMCPArgs, Observe: h.observeChat, After: h.chatAfter,
		Hooks: chatHooks(), Hook: h.chatHook, AgentToolHooks: h.agentToolHookSettings, Remote: h.remoteChat,
	})
}

// CloseChats ends every chat's CLI, for a host that is exiting with Neovim, then the chats'
// MCP endpoint.
func (h *Host) CloseChats(ctx context.Context) {
	if h.chats.ctl != nil {
		h.chats.ctl.Close(ctx)
	}
	h.closeChatMCP(ctx)
}

// chatHooks are the hooks a chat CLI registers over its control channel: the events the
// terminal's CLIs send through --settings (hooks.go), without a process per event.
func chatHooks() []chat.Hook {
	var out []chat.Hook
	for _, spec := range hooks.Specs() {
		out = append(out, chat.Hook{Event: spec.Event, Matcher: spec.Matcher, Timeout: spec.Timeout})
	}
	return out
}

// chatHook hands one hook event of dir's chat CLI to the hook bus, as an event of origin
// chat:DIR, and answers with what the subscribers print.
func (h *Host) chatHook(ctx context.Context, dir string, input json.RawMessage) (json.RawMessage, error) {
	e, err := hooks.ParseInput(chatOrigin(dir), input)
	if err != nil {
		return nil, err
	}
	return hooks.Output(e.Name, h.hookBus.handle(ctx, e).Stdout), nil
}

// agentToolHookSettings is the --settings file with the PreToolUse hook alone, for the
// Claude an ACP agent runs (chatctl.Options.AgentToolHooks); "" (logged) without hooks.
func (h *Host) agentToolHookSettings() string {
	file, err := h.hookBus.beforeToolSettingsFile()
	if err != nil {
		h.log.Warn("hooks unavailable: an ACP agent's edits made without asking are recorded only in git", "err", err)
	}
	return file
}
