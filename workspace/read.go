package workspace

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// MaxFileSize bounds what Read returns: the answer goes to the client in one frame, as
// JSON, which may double its size.
const MaxFileSize = 16 << 20

// ErrNotRegular: the path names a directory, a FIFO, a socket or a device; nothing is read.
var ErrNotRegular = errors.New("not a regular file (a directory, a FIFO, a socket or a device): nothing was read")

// ErrTooLarge: the file is over MaxFileSize; it is not read.
var ErrTooLarge = fmt.Errorf("larger than the %d MiB a read may return", MaxFileSize>>20)

// Read reads the regular file t names, at most limit bytes (MaxFileSize when limit <= 0).
// A missing file is an error wrapping fs.ErrNotExist.
func Read(t Target, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = MaxFileSize
	}
	root, err := os.OpenRoot(t.Folder)
	if err != nil {
		return nil, fmt.Errorf("open workspace folder: %w", err)
	}
	defer root.Close()
	info, err := root.Stat(t.Rel)
	switch {
	case err != nil:
		return nil, named(t, err)
	case !info.Mode().IsRegular():
		return nil, fmt.Errorf("%s: %w", t.Abs, ErrNotRegular)
	case info.Size() > limit:
		return nil, fmt.Errorf("%s: %w", t.Abs, ErrTooLarge)
	}
	// O_NONBLOCK: a FIFO put there since the Stat opens without waiting for a writer, and
	// the check below refuses it.
	f, err := root.OpenFile(t.Rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, named(t, err)
	}
	defer f.Close()
	opened, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", t.Abs, err)
	}
	if !opened.Mode().IsRegular() || !os.SameFile(info, opened) {
		return nil, fmt.Errorf("%s: %w", t.Abs, ErrNotRegular)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", t.Abs, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: %w", t.Abs, ErrTooLarge)
	}
	return data, nil
}

// Check says whether a proposal for t may be shown: t is a regular file, or nothing yet
// (exists false), reached without a link out of the folder. Nothing is opened.
func Check(t Target) (exists bool, err error) {
	root, err := os.OpenRoot(t.Folder)
	if err != nil {
		return false, fmt.Errorf("open workspace folder: %w", err)
	}
	defer root.Close()
	info, err := root.Stat(t.Rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// A new file: its parent, where it exists, must not lead out either.
		if _, perr := root.Stat(filepath.Dir(t.Rel)); perr != nil && !errors.Is(perr, fs.ErrNotExist) {
			return false, named(t, perr)
		}
		return false, nil
	case err != nil:
		return false, named(t, err)
	case !info.Mode().IsRegular():
		return false, fmt.Errorf("%s: %w", t.Abs, ErrNotRegular)
	}
	return true, nil
}

// named gives an error of os.Root the path's name, and calls an escape what it is.
func named(t Target, err error) error {
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) && pathErr.Err != nil && pathErr.Err.Error() == "path escapes from parent" {
		return fmt.Errorf("%s: %w (a link on its way leads out of the folder, or has an absolute target)", t.Abs, ErrOutside)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: no such file: %w", t.Abs, fs.ErrNotExist)
	}
	if errors.As(err, &pathErr) {
		return fmt.Errorf("%s: %w", t.Abs, pathErr.Err)
	}
	return fmt.Errorf("%s: %w", t.Abs, err)
}
