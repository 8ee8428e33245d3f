package host

import (
	"fmt"
	"strings"
)

// luaCall is one function of the host that Lua calls: its Vimscript name
// (Go), the wrapper lua/claude/host.lua gives it (Lua) and how that
// wrapper calls it (How):
//   - "call": starts the host if needed; an error is told the user
//   - "try": silently, only if the function exists (the host registered)
//   - "ready": silently, only while the host runs (never starts it)
//   - "custom": host.lua writes the wrapper itself (it keeps state or
//     fills in arguments), naming the function through the list
//
// Sync or async is the handler's signature (STYLE.md): a handler that
// returns values is sync.
type luaCall struct {
	Go, Lua, How string
	fn           any
}

// calls is the one declared list of the Lua–Go boundary: Register
// registers each, and LuaCalls writes it for host.lua. Sync ones return
// in well under a millisecond of work plus at most one call back into
// Neovim; the async ones are fire and forget.
func (h *Host) calls() []luaCall {
	chat := h.chats.ctl
	return []luaCall{
		{"ClaudeHostVersion", "version", "custom", h.hostVersion},
		{"ClaudeHostStart", "start_server", "call", h.start},
		{"ClaudeHostStop", "stop_server", "custom", h.stop},
		{"ClaudeHostStatus", "server_status", "call", h.status},
		{"ClaudeHostChatStart", "start_chat", "custom", chat.Start},
		{"ClaudeHostChatSessions", "list_conversations", "call", chat.Conversations},
		{"ClaudeHostChatTrusted", "chat_trust_state", "call", chat.Trusted},
		{"ClaudeHostChangesConfigure", "configure_changes", "custom", h.configureChanges},
		{"ClaudeHostChangesHealth", "changes_health", "custom", h.changesHealth},
		{"ClaudeHostChatRename", "rename_conversation", "call", chat.HistoryRename},
		{"ClaudeHostChatDelete", "delete_conversation", "call", chat.HistoryDelete},
		{"ClaudeHostStartAsync", "start_async", "custom", h.startAsync},
		{"ClaudeHostMention", "send_mention", "call", h.mention},
		{"ClaudeHostSession", "set_current_session", "try", h.useBridge},
		{"ClaudeHostDiffDone", "answer_diff", "custom", h.diffDone},
		{"ClaudeHostCodeDone", "answer_code", "try", h.codeDone},
		{"ClaudeHostKernelClose", "close_kernel", "try", h.kernelClose},
		{"ClaudeHostLSPDone", "answer_lsp", "try", h.lspDone},
		{"ClaudeHostChatSend", "send_to_chat", "custom", chat.Send},
		{"ClaudeHostChatAnswer", "answer_chat", "call", chat.Answer},
		{"ClaudeHostChatInterrupt", "interrupt_chat", "call", chat.Interrupt},
		{"ClaudeHostChatWithdraw", "withdraw_chat", "call", chat.Withdraw},
		{"ClaudeHostChatStop", "stop_chat", "custom", chat.Stop},
		{"ClaudeHostChatMode", "set_chat_mode", "call", chat.Mode},
		{"ClaudeHostChatModel", "set_chat_model", "call", chat.Model},
		{"ClaudeHostChatEffort", "set_chat_effort", "call", chat.Effort},
		{"ClaudeHostChatModels", "request_models", "call", chat.Models},
		{"ClaudeHostChatTrust", "trust_chat", "call", chat.Trust},
		{"ClaudeHostChatStopTask", "stop_chat_task", "call", chat.StopTask},
		{"ClaudeHostChatRewind", "rewind_chat", "call", chat.Rewind},
		{"ClaudeHostChatRules", "chat_rules", "call", chat.Rules},
		{"ClaudeHostChatUsage", "chat_usage", "call", chat.UsageShow},
		{"ClaudeHostChatMcp", "chat_mcp", "call", chat.MCP},
		{"ClaudeHostChatSuggest", "chat_suggest", "call", chat.Suggest},
		{"ClaudeHostChatBackground", "chat_background", "call", chat.Background},
		{"ClaudeHostChatTaskOutput", "chat_task_output", "call", chat.TaskOutput},
		{"ClaudeHostChanges", "request_changes", "custom", h.changesRequest},
		{"ClaudeHostChatHistory", "list_history", "call", chat.HistoryList},
		{"ClaudeHostChatPreview", "preview_conversation", "call", chat.HistoryPreview},
		{"ClaudeHostAttention", "tell_attention", "ready", h.attentionFromLua},
		{"ClaudeHostRemoteConnect", "connect_remote", "call", h.remoteConnect},
		{"ClaudeHostRemoteStop", "stop_remote", "call", h.remoteStop},
		{"ClaudeHostRemoteStatus", "remote_status", "custom", h.remoteStatus},
	}
}

// LuaCalls is lua/claude/host_calls.lua: the list above as Lua, by
// wrapper name. `go test ./host -run LuaCalls -update` (or make manifest)
// writes it; a test fails while it is stale.
func (h *Host) LuaCalls() string {
	var b strings.Builder
	b.WriteString("-- Generated from host/calls.go by `go test ./host -run LuaCalls -update`\n")
	b.WriteString("-- (make manifest); do not edit. The Go host's functions by the name of\n")
	b.WriteString("-- their wrapper in lua/claude/host.lua, with how it calls each.\n")
	b.WriteString("return {\n")
	for _, c := range h.calls() {
		fmt.Fprintf(&b, "  %s = { go = %q, how = %q },\n", c.Lua, c.Go, c.How)
	}
	b.WriteString("}\n")
	return b.String()
}
