package host

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/claude-nvim/claude.nvim/hooks"
)

// The hook bus: every CLI the plugin starts, in a terminal or for a chat, runs with the hooks
// of hooks.Settings (its --settings file) and tells which session it is (hooks.OriginEnv), so
// its events reach this process whatever mode it runs in. The host's parts subscribe while the
// host is built; the receiver starts with the first CLI that needs its settings.

// hookSettingsName is the --settings file, in the receiver's private directory;
// beforeToolSettingsName the one with PreToolUse alone, for an ACP agent's Claude.
const (
	hookSettingsName       = "settings.json"
	beforeToolSettingsName = "before-tool.json"
)

// hookBus fans the hook events out to the host's parts.
type hookBus struct {
	log    *slog.Logger
	binary string // the program the hooks run (this plugin's binary, in -hook mode)

	mu       sync.Mutex // guards the fields below
	subs     []hooks.Handler
	receiver *hooks.Receiver
	settings string // the --settings file; empty until the receiver runs
	closed   bool
}

// subscribe adds handle; it sees every event, after the handlers subscribed before it.
func (b *hookBus) subscribe(handle hooks.Handler) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.subs = append(b.subs, handle)
}

// handle runs the subscribers in turn and joins what they print.
func (b *hookBus) handle(ctx context.Context, e hooks.Event) hooks.Reply {
	b.log.Debug("hook", "event", e.Name, "origin", e.Origin, "tool", e.ToolName, "session_id", e.SessionID)
	b.mu.Lock()
	subs := b.subs
	b.mu.Unlock()
	var out bytes.Buffer
	for _, sub := range subs {
		reply := sub(ctx, e)
		if len(reply.Stdout) > 0 {
			out.Write(reply.Stdout)
			if !bytes.HasSuffix(reply.Stdout, []byte("\n")) {
				out.WriteByte('\n')
			}
		}
	}
	return hooks.Reply{Stdout: out.Bytes()}
}

// settingsFile starts the receiver on first use and returns the --settings file that sends a
// CLI's events to it. An error means the CLI runs without our hooks: the caller logs it and
// goes on, as nothing of the terminal or the chat depends on them to work.
func (b *hookBus) settingsFile() (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return "", fmt.Errorf("hooks: the host is exiting")
	}
	if b.settings != "" {
		return b.settings, nil
	}
	binary := b.binary
	if binary == "" {
		exe, err := os.Executable()
		if err != nil {
			return "", fmt.Errorf("hooks: the plugin's binary: %w", err)
		}
		binary = exe
	}
	r, err := b.listen()
	if err != nil {
		return "", err
	}
	// The owner first: a directory without it is never swept (chat_sweep.go).
	err = writeOwner(filepath.Dir(r.Socket()))
	// In the receiver's directory: the user's alone, removed with it.
	file := filepath.Join(filepath.Dir(r.Socket()), hookSettingsName)
	if err == nil {
		err = writeSettings(file, hooks.Settings, binary, r.Socket())
	}
	if err == nil {
		err = writeSettings(filepath.Join(filepath.Dir(r.Socket()), beforeToolSettingsName), hooks.BeforeToolSettings, binary, r.Socket())
	}
	if err == nil {
		b.receiver, b.settings = r, file
		b.log.Info("hooks: listening", "socket", r.Socket())
		return file, nil
	}
	r.Close()
	return "", fmt.Errorf("hooks: %w", err)
}

func writeSettings(file string, settings func(binary, socket string) ([]byte, error), binary, socket string) error {
	data, err := settings(binary, socket)
	if err != nil {
		return err
	}
	return os.WriteFile(file, data, 0o600)
}

// beforeToolSettingsFile is settingsFile's sibling with the PreToolUse hook alone.
func (b *hookBus) beforeToolSettingsFile() (string, error) {
	file, err := b.settingsFile()
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(file), beforeToolSettingsName), nil
}

// listen starts the receiver in the first of the user's runtime directory, the temporary
// directory and /tmp that takes it: a socket's path has a small limit (104 bytes), which a
// long TMPDIR exceeds.
func (b *hookBus) listen() (*hooks.Receiver, error) {
	var firstErr error
	for _, parent := range hookParents() {
		r, err := hooks.Listen(parent, b.handle, b.log)
		if err == nil {
			return r, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return nil, firstErr
}

// hookParents are where a receiver's directory may be, in the order tried.
func hookParents() []string {
	var parents []string
	for _, dir := range []string{os.Getenv("XDG_RUNTIME_DIR"), os.TempDir(), "/tmp"} {
		if dir != "" && !slices.Contains(parents, dir) {
			parents = append(parents, dir)
		}
	}
	return parents
}

// close stops the receiver, if it runs, and removes its directory; later CLIs get no hooks.
func (b *hookBus) close() {
	b.mu.Lock()
	r := b.receiver
	b.receiver, b.settings, b.closed = nil, "", true
	b.mu.Unlock()
	if r != nil {
		r.Close()
	}
}

// hookSettings is the --settings file for a CLI the plugin starts, or "" (logged) when the
// hooks cannot run.
func (h *Host) hookSettings() string {
	file, err := h.hookBus.settingsFile()
	if err != nil {
		h.log.Warn("hooks unavailable: the session's state and changes are not followed", "err", err)
	}
	return file
}

// terminalOrigin and chatOrigin are the hooks.OriginEnv values of a terminal session's CLI
// and of a chat's.
func terminalOrigin(session int) string { return fmt.Sprintf("terminal:%d", session) }
func chatOrigin(dir string) string      { return "chat:" + dir }
