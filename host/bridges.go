package host

import (
	"context"
	"errors"

	"github.com/claude-nvim/claude.nvim/lockfile"
	"github.com/claude-nvim/claude.nvim/mcp"
)

// firstBridge is the bridge of a start that names none: the one a
// Neovim with a single Claude has, and the one :Claude server start starts.
const firstBridge = 1

// bridge is one terminal's MCP server and its lock file (the words are in
// chatctl's doc): a CLI (or several) finds it through the lock file and
// sees the editor through its own nvimapi.SessionEditor. Bridges share the
// Neovim, the selection tracker and the diagnostics notifier; selections
// and mentions go to the current one only. The wire to Lua still calls its
// number "session".
type bridge struct {
	id     int
	cwd    string // "" when its folders follow Neovim's (see startOptions)
	server *mcp.Server
	lock   *lockfile.Lock
	port   int
	token  string
}

// stop removes the bridge's lock, then closes its connections.
func (s *bridge) stop() error {
	// The lock goes first: once the server stops answering, no CLI should
	// find it any more.
	errLock := s.lock.Remove()
	ctx, done := context.WithTimeout(context.Background(), shutdownTimeout)
	defer done()
	return errors.Join(errLock, s.server.Close(ctx))
}

// currentLocked returns the current bridge, nil when the user is where
// no bridge is (a tab page of another directory); h.mu must be held.
func (h *Host) currentLocked() *bridge {
	return h.bridges[h.current]
}

// useBridge serves ClaudeHostSession: Lua names the bridge of the tab
// page the user is in, 0 for none. From then on selections and mentions go
// to it alone; the tracker sends the next selection it reads even if
// unchanged, so the new bridge hears where the user is at the next
// cursor event.
func (h *Host) useBridge(args []int) {
	if len(args) == 0 || args[0] < 0 {
		return
	}
	h.mu.Lock()
	changed := h.current != args[0]
	h.current = args[0]
	h.mu.Unlock()
	if changed {
		h.log.Debug("current bridge", "session", args[0])
		h.tracker.Resend()
	}
}

// boundFolders returns the directories bridges are bound to: the other
// bridges' folders, which a bridge following Neovim does not claim.
func (h *Host) boundFolders() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var dirs []string
	for _, s := range h.bridges {
		if s.cwd != "" {
			dirs = append(dirs, s.cwd)
		}
	}
	return dirs
}

// followingLocks returns the lock files of the bridges whose folders
// follow Neovim's working directories.
func (h *Host) followingLocks() []*lockfile.Lock {
	h.mu.Lock()
	defer h.mu.Unlock()
	var locks []*lockfile.Lock
	for _, s := range h.bridges {
		if s.cwd == "" {
			locks = append(locks, s.lock)
		}
	}
	return locks
}
