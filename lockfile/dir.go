// Package lockfile writes the lock files through which the Claude Code CLI
// discovers the editor's WebSocket server.
//
// A lock file is <dir>/<port>.lock holding JSON with the editor's pid, its
// workspace folders and the auth token the CLI must present. The CLI takes
// the port from the file name, never from the contents. Anyone who can read
// the token can drive the editor, and anyone who can plant a lock file can
// make the CLI talk to their server, so the directory is private (0700) and
// files are 0600.
//
// Made for Unix (Linux, macOS): liveness uses kill(pid, 0) and ownership uses
// syscall.Stat_t (sys_unix.go). Elsewhere it compiles with weaker checks
// (sys_other.go).
package lockfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

const (
	dirMode  fs.FileMode = 0o700
	fileMode fs.FileMode = 0o600
)

// Dir returns the directory the CLI scans for lock files:
// $CLAUDE_CONFIG_DIR/ide when CLAUDE_CONFIG_DIR is non-empty, else
// ~/.claude/ide. The CLI never looks under XDG_CONFIG_HOME, so neither do we.
func Dir() (string, error) {
	if d := os.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return filepath.Join(d, "ide"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("lock directory: %w", err)
	}
	return filepath.Join(home, ".claude", "ide"), nil
}

// EnsureDir creates dir, and any missing parents, with mode 0700. A
// directory we create is chmod-ed to exactly 0700 so that the result does
// not depend on the umask (under umask 0277 Mkdir alone would give 0500, and
// the next level could not be created). A directory that already exists is
// left as it is: it may be shared with other IDEs' plugins, and silently
// changing a user's permissions is not ours to do; :checkhealth reports its
// mode (lua/claude/health.lua). It is refused, with the fix in the error,
// when it is a symbolic link or belongs to another user: whoever controls
// it could read the token of every lock file we write, or swap them.
func EnsureDir(dir string) error {
	err := mkdirPrivate(dir)
	if err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("create lock directory %s: %w", dir, err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("lock directory %s: %w", dir, err)
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target, _ := os.Readlink(dir)
		return fmt.Errorf("lock directory %s is a symbolic link (to %s), which whoever controls its target can swap: "+
			"replace it with a directory of your own: `rm %s && mkdir -m 700 %s`", dir, target, dir, dir)
	case !fi.IsDir():
		return fmt.Errorf("lock directory %s: exists and is not a directory: move it away: `mv %s %s.bak`", dir, dir, dir)
	}
	if owner, mine := ownedByMe(fi); !mine {
		return fmt.Errorf("lock directory %s belongs to uid %d, not to you (uid %d), who could read every token in it: "+
			"remove it (`sudo rm -r %s`) or take it over (`sudo chown $USER %s && chmod 700 %s`)",
			dir, owner, os.Geteuid(), dir, dir, dir)
	}
	return nil
}

// mkdirPrivate creates dir with exactly mode 0700, creating missing parents
// the same way. It fails with fs.ErrExist when dir exists, which tells us
// race-free that we did not create it and must not chmod it.
func mkdirPrivate(dir string) error {
	err := os.Mkdir(dir, dirMode)
	if errors.Is(err, fs.ErrNotExist) {
		if parent := filepath.Dir(dir); parent != dir {
			if err := mkdirPrivate(parent); err != nil && !errors.Is(err, fs.ErrExist) {
				return err
			}
			err = os.Mkdir(dir, dirMode)
		}
	}
	if err != nil {
		return err
	}
	return os.Chmod(dir, dirMode)
}
