package host

import (
	"fmt"
	"slices"

	"github.com/claude-nvim/claude.nvim/chatctl"
	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/claude-nvim/claude.nvim/relay"
)

// The chat over a remote (issue 41): :ClaudeChat remote=NAME runs the
// chat's CLI there (chatctl/remote.go). Its editor tools are served here
// as a local chat's (chat_mcp.go), but reached through the relay: the
// relay's --mcp-config file there points at its own port, and the
// requests come over the link (relay/mcpconfig.go) to an endpoint of this
// remote, whose editor maps paths as the remote's IDE server does:
// getDiagnostics, and the language-server tools (relay.MapLanguageServers),
// unless the chat is started with tools.lsp = false (chatctl leaves them
// out of what the CLI may use).

// remoteChatTools are the tools a chat CLI on a remote's side gets.
var remoteChatTools = append([]string{"getDiagnostics"}, mcp.LSPToolNames...)

// serveRemoteChatTools serves the chat CLIs' editor tools on the link's
// HTTP listener, with the lock's token (the relay's config carries it).
func (h *Host) serveRemoteChatTools(r *remote, link *relay.Link) (*mcp.HTTPEndpoint, error) {
	editor := relay.MapEditor(h.editor.Session(r.session, r.paths.RemoteRoots(), nil), r.paths)
	var tools []mcp.Tool
	for _, t := range mcp.IDETools(editor) {
		if slices.Contains(remoteChatTools, t.Name) {
			tools = append(tools, t)
		}
	}
	tools = append(tools, mcp.LSPTools(relay.MapLanguageServers(h.editor, r.paths))...)
	ep, err := mcp.NewHTTPEndpoint(mcp.HTTPConfig{
		Token: link.Info.Token, Tools: tools, Version: Version, Logger: h.log.With("remote", r.name, "mcp", "chat"),
	})
	if err != nil {
		return nil, err
	}
	go func() {
		if err := ep.Serve(link.HTTP()); err != nil {
			h.log.Debug("remote chat tools: serve", "remote", r.name, "err", err)
		}
	}()
	return ep, nil
}

// remoteChat is chatctl's Options.Remote: what a chat CLI on remote
// name's side needs. The remote must be connected: the relay's config
// file and port are its.
func (h *Host) remoteChat(name string) (chatctl.RemoteChat, error) {
	h.remotes.mu.Lock()
	r := h.remotes.byID[name]
	h.remotes.mu.Unlock()
	if r == nil {
		return chatctl.RemoteChat{}, fmt.Errorf("remote %s is not connected: :Claude remote connect %s first", name, name)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.state != "connected" || r.link == nil {
		return chatctl.RemoteChat{}, fmt.Errorf("remote %s is %s, not connected: :Claude remote connect %s", name, r.state, name)
	}
	rc := chatctl.RemoteChat{Paths: r.paths, MCPConfig: r.link.Info.MCPConfig}
	if rc.MCPConfig != "" {
		for _, n := range remoteChatTools {
			name := "mcp__" + relay.MCPServer + "__" + n
			rc.Tools = append(rc.Tools, name)
			if slices.Contains(mcp.LSPToolNames, n) {
				rc.LSPTools = append(rc.LSPTools, name)
			}
		}
	}
	return rc, nil
}
