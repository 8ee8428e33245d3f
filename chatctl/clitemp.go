package chatctl

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/claude-nvim/claude.nvim/chat"
)

// The CLI makes scratch directories for each conversation it runs,
// $TMPDIR/claude-<uid>/<project>/<session id>/ with "tasks" (2.1.197 and 2.1.332) and
// "started" (2.1.332) in it, and leaves them, empty, when it exits: every chat left a few
// (issue 22 item 8). Once a chat's CLI is gone the plugin removes those of the conversations
// it ran, but only directories with no file anywhere inside (os.Remove of a directory fails
// unless it is empty): nothing the CLI wrote is lost, and a directory another CLI still uses
// for output is never taken from it.

// maxTempDepth bounds the walk under a conversation's scratch directory.
const maxTempDepth = 4

// scratchMu makes the removals one at a time: a chat's run loop and an exiting host's
// WaitGone may both clean the same conversation, and the host must not exit while the other
// is halfway through (it left the session's directory once, its insides gone).
var scratchMu sync.Mutex

// cliTempRoot is the temporary directory the CLI of env uses, as Node's os.tmpdir() finds it.
func cliTempRoot(env map[string]string) string {
	if t := env["TMPDIR"]; t != "" {
		return t
	}
	return "/tmp"
}

// removeCLITemp removes the empty scratch directories of the conversations sessions of the
// workspace dir, then the directories above them that this left empty.
func removeCLITemp(tmp, dir string, sessions []string) {
	if tmp == "" || len(sessions) == 0 {
		return
	}
	scratchMu.Lock()
	defer scratchMu.Unlock()
	user := filepath.Join(tmp, fmt.Sprintf("claude-%d", os.Getuid()))
	project := filepath.Join(user, filepath.Base(chat.ProjectDir("", dir)))
	for _, s := range sessions {
		if s == "" || s != filepath.Base(s) || s == "." || s == ".." {
			continue // an id from the CLI names one directory, or none
		}
		removeEmptyTree(filepath.Join(project, s), maxTempDepth)
	}
	_ = os.Remove(project) // only if empty: other conversations' directories stay
	_ = os.Remove(user)
}

// removeEmptyTree removes path if it holds directories only, none with a file inside, down
// to depth levels; it reports whether path is gone (or was never there).
func removeEmptyTree(path string, depth int) bool {
	if depth < 0 {
		return false
	}
	entries, err := os.ReadDir(path)
	if errors.Is(err, fs.ErrNotExist) {
		return true
	}
	if err != nil {
		return false
	}
	for _, e := range entries {
		if !e.IsDir() || !removeEmptyTree(filepath.Join(path, e.Name()), depth-1) {
			return false
		}
	}
	return os.Remove(path) == nil
}
