package chatctl

import (
	"encoding/json"
	"os"
	"sort"

	"github.com/claude-nvim/claude.nvim/acp"
)

// agentMCPServers turns the --mcp-config files the Claude CLI gets (the editor's tools:
// host/chat_mcp.go) into the MCP servers an ACP session is offered, so an agent reaches the
// same tools. The files are the host's own (0600); the token in their headers goes to the
// agent over its stdin, never its command line. A file that does not read is skipped.
func agentMCPServers(files []string) []acp.MCPServer {
	var out []acp.MCPServer
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var cfg struct {
			Servers map[string]struct {
				Type    string            `json:"type"`
				URL     string            `json:"url"`
				Headers map[string]string `json:"headers"`
			} `json:"mcpServers"`
		}
		if json.Unmarshal(b, &cfg) != nil {
			continue
		}
		names := make([]string, 0, len(cfg.Servers))
		for n := range cfg.Servers {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			s := cfg.Servers[n]
			if (s.Type != "http" && s.Type != "sse") || s.URL == "" {
				continue
			}
			m := acp.MCPServer{Type: s.Type, Name: n, URL: s.URL, Headers: []acp.NameValue{}}
			for k, v := range s.Headers {
				m.Headers = append(m.Headers, acp.NameValue{Name: k, Value: v})
			}
			out = append(out, m)
		}
	}
	return out
}
