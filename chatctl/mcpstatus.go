package chatctl

import (
	"context"
	"time"

	"github.com/claude-nvim/claude.nvim/chat"
)

// The chat's MCP servers (:Claude chat mcp, issue 39 item 4): their state as the CLI reports
// it, and reconnecting one or turning one off or on from the chat.

// mcpTimeout bounds an action and the list after it: a reconnect waits for the server.
const mcpTimeout = time.Minute

// MCPManager reports and changes the agent's MCP servers: the Claude CLI (chat.Process).
type MCPManager interface {
	MCPServers(ctx context.Context) ([]chat.MCPStatus, error)
	ReconnectMCP(ctx context.Context, name string) error
	EnableMCP(ctx context.Context, name string, on bool) error
}

// MCPArgs are ClaudeHostChatMcp's: the chat, and optionally an Action ("reconnect",
// "enable", "disable") on the server Name first.
type MCPArgs struct {
	Dir    string `msgpack:"dir"`
	Name   string `msgpack:"name"`
	Action string `msgpack:"action"`
}

// MCPItem is one server of an "mcp" item.
type MCPItem struct {
	Name    string `msgpack:"name"`
	Status  string `msgpack:"status"`
	Error   string `msgpack:"error"`
	Scope   string `msgpack:"scope"`
	Version string `msgpack:"version"` // the server's own name and version, once connected
}

// MCP serves ClaudeHostChatMcp (async): the action, if any, then the running CLI's servers
// as an "mcp" item (Servers; Text what failed; Summary what was done).
func (c *Controller) MCP(args []MCPArgs) {
	if len(args) == 0 || args[0].Dir == "" {
		return
	}
	a := args[0]
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), mcpTimeout)
		defer cancel()
		it := Item{Kind: "mcp", Servers: []MCPItem{}}
		running := c.running(a.Dir)
		proc, ok := running.(MCPManager)
		switch {
		case running == nil:
			it.Text = "no chat CLI runs: send a message first"
		case !ok:
			it.Text = "this chat's agent does not report its MCP servers"
		}
		if it.Text != "" {
			c.show(ctx, a.Dir, it)
			return
		}
		var err error
		switch a.Action {
		case "reconnect":
			err = proc.ReconnectMCP(ctx, a.Name)
		case "enable", "disable":
			err = proc.EnableMCP(ctx, a.Name, a.Action == "enable")
		}
		if a.Action != "" {
			if err != nil {
				it.Text = a.Action + " " + a.Name + ": " + err.Error()
			} else {
				it.Summary = a.Action + " " + a.Name
			}
		}
		servers, err := proc.MCPServers(ctx)
		if err != nil {
			it.Text = err.Error()
		}
		for _, s := range servers {
			m := MCPItem{Name: s.Name, Status: s.Status, Error: s.Error, Scope: s.Scope}
			if s.Info != nil {
				m.Version = s.Info.Name + " " + s.Info.Version
			}
			it.Servers = append(it.Servers, m)
		}
		c.show(ctx, a.Dir, it)
	}()
}
