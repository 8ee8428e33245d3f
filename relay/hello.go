package relay

import (
	"encoding/json"
	"fmt"
	"io"
)

// Proto is the version of this framing; a relay refuses a host of
// another (see helloMsg). The plugin's version is checked too: the two
// ends are one binary, built once, and a relay of another build may map
// or check things differently.
const Proto = 3 // 2: hook events (kindHook, kindHookReply); 3: a chat CLI's MCP requests (openHTTP)

// helloMsg is the first frame each way. The host sends Proto, Version and
// what the lock must say (the remote workspace folders, the IDE name); the
// relay answers with what it wrote: its pid, port, lock file and token.
type helloMsg struct {
	Proto   int      `json:"proto"`
	Version string   `json:"version"`
	Folders []string `json:"folders,omitempty"`
	IDEName string   `json:"ide_name,omitempty"`

	PID      int    `json:"pid,omitempty"`
	Port     int    `json:"port,omitempty"`
	Lockfile string `json:"lockfile,omitempty"`
	Token    string `json:"token,omitempty"`
	// HookSettings is the relay's --settings file for the CLI there: its
	// hooks send their events over the link (hookbridge.go).
	HookSettings string `json:"hook_settings,omitempty"`
	// MCPConfig is the relay's --mcp-config file for a chat CLI there
	// (mcpconfig.go).
	MCPConfig string `json:"mcp_config,omitempty"`
}

func sendHello(w io.Writer, h helloMsg) error {
	b, err := json.Marshal(h)
	if err != nil {
		return err
	}
	return writeFrame(w, frame{kind: kindHello, payload: b})
}

// readHello reads the other side's hello; an error frame in its place is
// returned as a *RefusedError.
func readHello(r io.Reader) (helloMsg, error) {
	f, err := readFrame(r)
	if err != nil {
		return helloMsg{}, fmt.Errorf("relay hello: %w", err)
	}
	if f.conn == 0 && f.kind == kindError {
		return helloMsg{}, &RefusedError{Reason: string(f.payload)}
	}
	if f.conn != 0 || f.kind != kindHello || len(f.payload) > maxHello {
		return helloMsg{}, fmt.Errorf("relay hello: %w: conn %d kind %d, %d bytes", errFrame, f.conn, f.kind, len(f.payload))
	}
	var h helloMsg
	if err := json.Unmarshal(f.payload, &h); err != nil {
		return helloMsg{}, fmt.Errorf("relay hello: %w", err)
	}
	return h, nil
}

// RefusedError is the relay's reason for refusing the link (a version
// mismatch, a lock it could not write), as it sent it.
type RefusedError struct{ Reason string }

func (e *RefusedError) Error() string { return "the relay refused: " + e.Reason }

// mismatch says what to do when the two ends differ, or "" when they agree.
func mismatch(host helloMsg, version string) string {
	if host.Proto == Proto && host.Version == version {
		return ""
	}
	return fmt.Sprintf("version mismatch: the editor's claude-nvim is %s (relay protocol %d), this relay is %s (protocol %d): "+
		"install claude-nvim %s on the remote side (build it from the same commit: make, then copy bin/claude-nvim) or point the remote's command at it; "+
		"or give the remote exec = { the transport } in place of command, and the plugin puts its own there",
		host.Version, host.Proto, version, Proto, host.Version)
}
