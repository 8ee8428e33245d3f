// Package lockfile writes the lock files through which the Claude Code CLI
// discovers the editor's WebSocket server (PROTOCOL.md §1).
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
// changing a user's permissions is not ours to do. CheckDir reports it.
func EnsureDir(dir string) error {
	err := mkdirPrivate(dir)
	if err == nil {
		return nil
	}
	if !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("create lock directory %s: %w", dir, err)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("lock directory %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("lock directory %s: exists and is not a directory", dir)
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

// CheckDir reports, for :checkhealth, why dir is not a safe and usable lock
// directory: missing (the error wraps fs.ErrNotExist; Create makes it), not
// a directory, owned by another user, mode other than 0700, or not writable.
// Each message says what to do.
func CheckDir(dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("lock directory %s does not exist yet; it is created with mode 0700 when the server starts: %w", dir, err)
		}
		return fmt.Errorf("lock directory %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("lock directory %s is not a directory: move that file away", dir)
	}
	if err := checkOwner(dir, fi); err != nil {
		return err
	}
	perm := fi.Mode().Perm()
	if perm&^dirMode != 0 {
		// Group or other write access lets another user plant a lock that
		// points the CLI at their server.
		return fmt.Errorf("lock directory %s has mode %#o, more open than 0700: run `chmod 700 %s`", dir, perm, dir)
	}
	if perm != dirMode {
		return fmt.Errorf("lock directory %s has mode %#o, the owner needs 0700 to write lock files: run `chmod 700 %s`", dir, perm, dir)
	}
	// The mode bits can look right on a read-only file system.
	if err := checkWritable(dir); err != nil {
		return fmt.Errorf("lock directory %s is not writable (%w): check the file system and its mount options", dir, err)
	}
	return nil
}

// CheckFile reports, for :checkhealth, a lock file that is owned by another
// user or whose mode is not 0600 (others could read the auth token).
func CheckFile(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return fmt.Errorf("lock file %s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("lock file %s is not a regular file: remove it", path)
	}
	if err := checkOwner(path, fi); err != nil {
		return err
	}
	if perm := fi.Mode().Perm(); perm != fileMode {
		return fmt.Errorf("lock file %s has mode %#o, want 0600: run `chmod 600 %s`", path, perm, path)
	}
	return nil
}

func checkOwner(path string, fi fs.FileInfo) error {
	owner, ok := fileOwner(fi)
	if !ok {
		return nil
	}
	if uid := os.Getuid(); owner != uid {
		return fmt.Errorf("%s is owned by uid %d, not by you (uid %d): remove it or fix its owner", path, owner, uid)
	}
	return nil
}
