package ledger

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"syscall"

	"github.com/google/uuid"
)

// A revert reads and writes the workspace's files, which a tool may have turned into
// anything: a link out of the workspace, a FIFO, a link to /dev/zero. Every access here goes
// through an os.Root of the workspace (no path, and no link on the way, leads out of it),
// never through a link at the file itself, never to anything but a regular file, and never
// more than the file size limit (issue 35).

// ErrNotRegular: the file on disk is not a regular file; a revert neither reads nor writes
// it.
var ErrNotRegular = errors.New("not a regular file (a link, a directory, a FIFO or a device): nothing was read or written")

// ErrTooLarge: the file is over the ledger's file size limit; it was not recorded and is not
// reverted.
var ErrTooLarge = errors.New("too large to record: the ledger keeps no copy of it, so it cannot be reverted")

// ReadDisk reads rel (relative to Root) as it is on disk now: Exists is false when there is
// no file; ErrNotRegular for anything but a regular file, ErrTooLarge past the file limit.
// It never blocks on a FIFO and never follows a link.
func (s *Store) ReadDisk(rel string) (Version, error) {
	root, err := os.OpenRoot(s.root)
	if err != nil {
		return Version{}, fmt.Errorf("ledger: %w", err)
	}
	defer root.Close()
	name := filepath.FromSlash(rel)
	info, err := root.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Version{}, nil
	case err != nil:
		return Version{}, outsideOr(rel, err)
	case !info.Mode().IsRegular():
		return Version{}, fmt.Errorf("%s: %w", rel, ErrNotRegular)
	case info.Size() > s.fileLimit:
		return Version{}, fmt.Errorf("%s: %w", rel, ErrTooLarge)
	}
	// O_NONBLOCK: a FIFO put there since the Lstat opens without waiting for a writer, and
	// the check below refuses it.
	f, err := root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return Version{}, outsideOr(rel, err)
	}
	defer f.Close()
	opened, err := f.Stat()
	if err != nil {
		return Version{}, fmt.Errorf("ledger: %w", err)
	}
	if !opened.Mode().IsRegular() || !os.SameFile(info, opened) {
		return Version{}, fmt.Errorf("%s: %w", rel, ErrNotRegular)
	}
	data, err := io.ReadAll(io.LimitReader(f, s.fileLimit+1))
	if err != nil {
		return Version{}, fmt.Errorf("ledger: read %s: %w", rel, err)
	}
	if int64(len(data)) > s.fileLimit {
		return Version{}, fmt.Errorf("%s: %w", rel, ErrTooLarge)
	}
	return Version{Content: data, Exists: true}, nil
}

// WriteDisk makes rel what rev says: its content, by renaming a complete new file over the
// name (a link there is replaced, never written through; a hard link's other names keep
// their text), keeping the mode; or no file. Anything but a regular file at rel is
// ErrNotRegular, and nothing is written.
func (s *Store) WriteDisk(rel string, rev Revision) error {
	root, err := os.OpenRoot(s.root)
	if err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	defer root.Close()
	name := filepath.FromSlash(rel)
	mode := fs.FileMode(0o644) // a new file gets an editor's mode
	info, err := root.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if rev.Delete {
			return nil
		}
	case err != nil:
		return outsideOr(rel, err)
	case !info.Mode().IsRegular():
		return fmt.Errorf("%s: %w", rel, ErrNotRegular)
	default:
		mode = info.Mode().Perm()
	}
	if rev.Delete {
		if err := root.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("ledger: %w", err)
		}
		return nil
	}
	dir := path.Dir(rel)
	if err := root.MkdirAll(filepath.FromSlash(dir), 0o755); err != nil {
		return outsideOr(rel, err)
	}
	tmp := filepath.FromSlash(path.Join(dir, "."+path.Base(rel)+".claude-revert-"+uuid.NewString()[:8]))
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return outsideOr(rel, err)
	}
	_, werr := f.Write(rev.Content)
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		// The mode OpenFile gave went through the umask; the file's own mode is kept.
		werr = root.Chmod(tmp, mode)
	}
	if werr == nil {
		werr = root.Rename(tmp, name)
	}
	if werr != nil {
		_ = root.Remove(tmp)
		return fmt.Errorf("ledger: write %s: %w", rel, werr)
	}
	return nil
}

// LstatDisk is rel's Lstat through the workspace's root (for a rename's check that its old
// name is free).
func (s *Store) LstatDisk(rel string) (fs.FileInfo, error) {
	root, err := os.OpenRoot(s.root)
	if err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	defer root.Close()
	return root.Lstat(filepath.FromSlash(rel))
}

// outsideOr names a path that leads out of the workspace (through a link on its way) as
// such; other errors keep their words.
func outsideOr(rel string, err error) error {
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) && pathErr.Err != nil && pathErr.Err.Error() == "path escapes from parent" {
		return fmt.Errorf("%s: %w (a link on its way leads out of the workspace)", rel, ErrOutside)
	}
	return fmt.Errorf("ledger: %w", err)
}
