package claudeconfig

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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
// until ctx ends, and gives up when ctx ends while it reads or writes. The file is read as a
// stream and written by a copy around the one change, never held whole (scan.go); one that
// is not a regular file, or past maxConfigSize, is refused with a message that says what to
// do (a FIFO there hung the write for ever, holding the CLI's lock).
func Trust(ctx context.Context, path, folder string) error {
	if !filepath.IsAbs(folder) {
		return fmt.Errorf("trust %s: not an absolute path", folder)
	}
	if err := checkFolder(folder); err != nil {
		return fmt.Errorf("trust: %w", err)
	}
	path = resolve(path)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("trust %s: %w", folder, err)
	}
	unlock, err := lock(ctx, path)
	if err != nil {
		return fmt.Errorf("trust %s: %w", folder, err)
	}
	defer unlock()
	if err := trustFile(ctx, path, folder); err != nil {
		return fmt.Errorf("trust %s: %w", folder, err)
	}
	return nil
}

// trustFile reads the file again, under the lock (the CLI may just have written it), and
// replaces it with the trust set.
func trustFile(ctx context.Context, path, folder string) error {
	f, info, err := openConfig(path)
	var src io.ReaderAt
	var size int64
	mode := fs.FileMode(0o600)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		src, size = strings.NewReader("{}\n"), 3
	case err != nil:
		return err
	default:
		defer f.Close()
		src, size, mode = f, info.Size(), info.Mode().Perm()
	}
	d, err := scan(ctx, io.NewSectionReader(src, 0, size), func(f string) bool { return f == folder })
	if err == nil {
		var e *edit
		if e, err = trustEdit(d, folder); err == nil {
			if e == nil {
				return nil // trusted already: nothing to write
			}
			return replace(path, mode, func(w io.Writer) error { return writeEdited(ctx, w, src, size, e) })
		}
	}
	if errors.Is(err, ErrUnreadable) {
		return fmt.Errorf("%s: %w; fix it, or run claude in a terminal once, then try again", path, err)
	}
	return err
}

// lock takes the CLI's lock on path, taking over one older than lockStale. While held, its
// time is renewed every lockStale/2, as proper-lockfile does, so that a long write (a large
// file, a slow disk) is not taken for a dead one.
func lock(ctx context.Context, path string) (unlock func(), err error) {
	dir := path + lockSuffix
	for {
		err := os.Mkdir(dir, 0o700)
		if err == nil {
			done, over := make(chan struct{}), make(chan struct{})
			go func() {
				defer close(over)
				tick := time.NewTicker(lockStale / 2)
				defer tick.Stop()
				for {
					select {
					case <-done:
						return
					case now := <-tick.C:
						_ = os.Chtimes(dir, now, now)
					}
				}
			}()
			return func() {
				close(done)
				<-over
				_ = os.Remove(dir)
			}, nil
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

// replace writes what write writes to path atomically: a temp file of the given mode in the
// same folder, synced, renamed over path. Readers see the old file or the new one, never a
// part.
func replace(path string, mode fs.FileMode, write func(io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp.*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	w := bufio.NewWriterSize(tmp, 256<<10)
	if err := write(w); err != nil {
		tmp.Close()
		return err
	}
	if err := w.Flush(); err != nil {
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
