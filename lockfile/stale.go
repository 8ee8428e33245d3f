package lockfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
)

// RemoveStale deletes lock files in dir left behind by dead processes, and
// returns the paths it deleted. Other IDEs' plugins share dir, so it is
// deliberately narrow. It deletes a file only when all of these hold:
//
//   - its name is <digits>.lock and it is a regular file (not a symlink or
//     directory, and not a temporary file like ours, .<port>.lock.tmp-*);
//   - it parses as JSON with a pid in 1..MaxInt32 (0 and negative pids mean
//     process groups to kill(2), and larger values would be truncated);
//   - kill(pid, 0) fails with ESRCH. EPERM means the process lives under
//     another user; any other answer counts as alive.
//
// Unparsable files are never deleted, however old: another IDE may be in the
// middle of a non-atomic write, and a garbage file costs the CLI nothing,
// while deleting a live server's lock would hide it. A reused pid makes a
// dead lock look alive; it is then kept, as the CLI keeps it too.
//
// A missing dir is not an error. Failures to delete one file do not stop the
// others and are returned together.
func RemoveStale(dir string) (removed []string, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("remove stale lock files: %w", err)
	}
	var errs []error
	for _, e := range entries {
		if !isLockName(e.Name()) || !e.Type().IsRegular() {
			continue
		}
		path := filepath.Join(dir, e.Name())
		stale, fi := isStale(path)
		if !stale {
			continue
		}
		// The file may have been replaced since we read it (a new server
		// on the same port). Atomic writers rename a new inode into place
		// and others change size or mtime, so check that it is still the
		// file we judged. A window remains between this check and the
		// remove; Unix offers no compare-and-delete.
		now, err := os.Lstat(path)
		if err != nil || !os.SameFile(fi, now) || !now.ModTime().Equal(fi.ModTime()) || now.Size() != fi.Size() {
			continue
		}
		if err := os.Remove(path); err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, fmt.Errorf("remove stale lock file: %w", err))
			}
			continue
		}
		removed = append(removed, path)
	}
	return removed, errors.Join(errs...)
}

// isLockName reports whether name is <digits>.lock, the only names the CLI
// reads a port from.
func isLockName(name string) bool {
	port, ok := strings.CutSuffix(name, ".lock")
	if !ok || port == "" {
		return false
	}
	for _, c := range port {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// isStale reads the lock at path and reports whether its pid is dead, with
// the FileInfo of the file it read.
func isStale(path string) (bool, fs.FileInfo) {
	data, fi, err := readLock(path)
	if err != nil {
		return false, nil
	}
	var info struct {
		PID int64 `json:"pid"`
	}
	if err := json.Unmarshal(data, &info); err != nil {
		return false, nil
	}
	if info.PID <= 0 || info.PID > math.MaxInt32 {
		return false, nil
	}
	return !processAlive(int(info.PID)), fi
}
