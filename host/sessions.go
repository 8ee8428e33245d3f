package host

import (
	"context"
	"errors"

	"github.com/claude-nvim/claude.nvim/lockfile"
	"github.com/claude-nvim/claude.nvim/mcp"
)

// firstSession is the session of a start that names none: the one a
// Neovim with a single Claude has, and the one :ClaudeStart starts.
const firstSession = 1

// serverSession is one session's server: a CLI (or several) connects to
// it through its lock file, and sees the editor through its own
// nvimapi.SessionEditor. Sessions share the Neovim, the selection tracker
// and the diagnostics notifier; selections and mentions go to the current
// one only.
type serverSession struct {
	id     int
	cwd    string // "" when its folders follow Neovim's (see startOptions)
	server *mcp.Server
	lock   *lockfile.Lock
	port   int
	token  string
}

// stop removes the session's lock, then closes its connections.
func (s *serverSession) stop() error {
	// The lock goes first: once the server stops answering, no CLI should
	// find it any more.
	errLock := s.lock.Remove()
	ctx, done := context.WithTimeout(context.Background(), shutdownTimeout)
	defer done()
	return errors.Join(errLock, s.server.Close(ctx))
}

// currentLocked returns the current session, nil when the user is where
// no session is (a tab page of another directory); h.mu must be held.
func (h *Host) currentLocked() *serverSession {
	return h.sessions[h.current]
}

// useSession serves ClaudeHostSession: Lua names the session of the tab
// page the user is in, 0 for none. From then on selections and mentions go
// to it alone; the tracker sends the next selection it reads even if
// unchanged, so the new session hears where the user is at the next
// cursor event.
func (h *Host) useSession(args []int) {
	if len(args) == 0 || args[0] < 0 {
		return
	}
	h.mu.Lock()
	changed := h.current != args[0]
	h.current = args[0]
	h.mu.Unlock()
	if changed {
		h.log.Debug("current session", "session", args[0])
		h.tracker.Resend()
	}
}

// boundFolders returns the directories sessions are bound to: the other
// sessions' folders, which a session following Neovim does not claim.
func (h *Host) boundFolders() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var dirs []string
	for _, s := range h.sessions {
		if s.cwd != "" {
			dirs = append(dirs, s.cwd)
		}
	}
	return dirs
}

// followingLocks returns the lock files of the sessions whose folders
// follow Neovim's working directories.
func (h *Host) followingLocks() []*lockfile.Lock {
	h.mu.Lock()
	defer h.mu.Unlock()
	var locks []*lockfile.Lock
	for _, s := range h.sessions {
		if s.cwd == "" {
			locks = append(locks, s.lock)
		}
	}
	return locks
}
