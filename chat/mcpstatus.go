package chat

import (
	"context"
	"encoding/json"
	"fmt"
)

// The CLI's MCP servers (issue 39 item 4; both CLIs, doc.go): their state, reconnecting one
// and turning one off or on.

// MCPStatus is one MCP server as mcp_status reports it.
type MCPStatus struct {
	Name string `json:"name"`
	// Status is "connected", "failed", "needs-auth", "pending" or "disabled".
	Status string `json:"status"`
	Error  string `json:"error"` // why it failed
	Scope  string `json:"scope"` // "user", "project", "local", "dynamic" (--mcp-config), …
	Info   *struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"serverInfo"`
}

// MCPServers asks the CLI for the state of its MCP servers (mcp_status).
func (s *Process) MCPServers(ctx context.Context) ([]MCPStatus, error) {
	raw, err := s.ctl.request(ctx, "mcp_status", nil)
	if err != nil {
		return nil, err
	}
	var r struct {
		Servers []MCPStatus `json:"mcpServers"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("mcp_status: decode response: %w", err)
	}
	return r.Servers, nil
}

// ReconnectMCP connects the server again (mcp_reconnect); the CLI answers once it tried,
// with the error when it failed again ("Server not found: X" for a name it does not know).
func (s *Process) ReconnectMCP(ctx context.Context, name string) error {
	_, err := s.ctl.request(ctx, "mcp_reconnect", map[string]any{"serverName": name})
	return err
}

// EnableMCP turns the server on (connecting it: its error when that fails) or off
// (mcp_toggle); off, its tools are gone from the next request.
func (s *Process) EnableMCP(ctx context.Context, name string, on bool) error {
	_, err := s.ctl.request(ctx, "mcp_toggle", map[string]any{"serverName": name, "enabled": on})
	return err
}
