package claudeconfig

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// The CLI's lock on its config file is a directory made with mkdir beside it (the
// proper-lockfile convention): held while it reads, changes and renames the file.
const (
	lockSuffix = ".lock"
	// lockStale is the age after which a lock left behind by a dead process is taken over;
	// proper-lockfile's default, which refreshes a held lock's time more often than that.
	lockStale = 10 * time.Second
	// lockPoll is how often a held lock is tried again; the CLI holds it for milliseconds.
	lockPoll = 25 * time.Millisecond
)

// Trust records that the user trusts folder (see Folder) in the config file at path, the
// way the CLI's dialog does, changing nothing else in the file. It waits for the CLI's lock
// until ctx ends.
func Trust(ctx context.Context, path, folder string) error {
	if !filepath.IsAbs(folder) {
		return fmt.Errorf("trust %s: not an absolute path", folder)
	}
	// A config file that is a link (dotfiles) stays one: the file it points to is replaced.
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("trust %s: %w", folder, err)
	}
	unlock, err := lock(ctx, path)
	if err != nil {
		return fmt.Errorf("trust %s: %w", folder, err)
	}
	defer unlock()
	data, err := os.ReadFile(path) // again, under the lock: the CLI may just have written it
	mode := fs.FileMode(0o600)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		data = []byte("{}\n")
	case err != nil:
		return fmt.Errorf("trust %s: %w", folder, err)
	default:
		if info, err := os.Stat(path); err == nil {
			mode = info.Mode().Perm()
		}
	}
	changed, err := setTrust(data, folder)
	if err != nil {
		return fmt.Errorf("trust %s: %s is %w; fix it, or run claude in a terminal once, then try again", folder, path, err)
	}
	if err := replace(path, changed, mode); err != nil {
		return fmt.Errorf("trust %s: %w", folder, err)
	}
	return nil
}

// lock takes the CLI's lock on path, taking over one older than lockStale.
func lock(ctx context.Context, path string) (unlock func(), err error) {
	dir := path + lockSuffix
	for {
		err := os.Mkdir(dir, 0o700)
		if err == nil {
			return func() { _ = os.Remove(dir) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if info, err := os.Stat(dir); err == nil && time.Since(info.ModTime()) > lockStale {
			_ = os.Remove(dir)
			continue
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("lock %s: another process holds %s: %w", path, dir, ctx.Err())
		case <-time.After(lockPoll):
		}
	}
}

// replace writes data to path atomically: a temp file of the given mode in the same folder,
// synced, renamed over path. Readers see the old file or the new one, never a part.
func replace(path string, data []byte, mode fs.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp.*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
