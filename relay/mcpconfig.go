package relay

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
)

// A chat CLI there (:ClaudeChat remote=NAME, issue 41) runs in print mode,
// which never connects to the IDE WebSocket: the editor's tools reach it
// through --mcp-config, a server of the CLI's "http" type. The relay
// serves that on its own port too: a plain request to mcpPath, vetted as
// the host's HTTPEndpoint vets (mcp.VetHTTP: a loopback Host, no Origin,
// the bearer token, the lock's), crosses as a connection whose open frame
// says openHTTP, and the host serves it with an endpoint of its own on
// the Link's HTTP listener. The config names the token, so it is a file
// the relay's user alone reads (beside the hook settings, in the relay's
// 0700 directory), never a command-line argument there.

// mcpPath is the endpoint's path on the relay's port.
const mcpPath = "/mcp"

// openHTTP is the open frame's payload for a connection to mcpPath.
const openHTTP = "http"

// MCPServer is the server's name in the config: the model sees its tools
// as mcp__nvim__<tool>, as a local chat's.
const MCPServer = "nvim"

// writeMCPConfig writes the --mcp-config file beside settings (the hook
// settings file, in the relay's private directory); "" (logged) when
// there is no such directory or the write fails: the chat works without
// the editor's tools.
func writeMCPConfig(settings string, port int, token string, log *slog.Logger) string {
	if settings == "" {
		return ""
	}
	b, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
		MCPServer: map[string]any{
			"type":    "http",
			"url":     fmt.Sprintf("http://127.0.0.1:%d%s", port, mcpPath),
			"headers": map[string]string{"Authorization": "Bearer " + token},
		},
	}})
	file := filepath.Join(filepath.Dir(settings), "mcp.json")
	if err == nil {
		err = os.WriteFile(file, b, 0o600)
	}
	if err != nil {
		log.Warn("relay: no --mcp-config for a chat there", "err", err)
		return ""
	}
	return file
}
