package claudeconfig

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// maxConfigSize bounds the config file the plugin reads: past it, a chat start's check and a
// yes would take seconds. The largest users reported is 238 MiB (the CLI itself takes
// seconds to start with it); Node cannot hold a string much past 512 MiB, so the CLI could
// not read a file that large either.
const maxConfigSize = 256 << 20

// ErrNotRegular: the config file is not a regular file (a FIFO, a device, a directory, a
// link to one); reading it could block for ever or never end.
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge: the config file is past maxConfigSize.
var ErrTooLarge = errors.New("too large")

// resolve is path with its links resolved (a dotfiles link to the config file stays one: the
// file it points to is read and replaced), or path as it is when that fails.
func resolve(path string) string {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	return path
}

// openConfig opens the config file at path (resolved) for reading: never through a link
// that appeared since (O_NOFOLLOW), without blocking on a FIFO (O_NONBLOCK), and only if it
// is, once open, a regular file of at most maxConfigSize bytes.
func openConfig(path string) (*os.File, fs.FileInfo, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		if info, lerr := os.Lstat(path); lerr == nil && info.Mode()&fs.ModeSymlink != 0 {
			// Still a link after resolve: one to nothing, or one swapped in since.
			return nil, nil, fmt.Errorf("%s is %w (a link to nothing): claude.nvim reads the CLI's config only from a regular file", path, ErrNotRegular)
		}
		return nil, nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !info.Mode().IsRegular() {
		f.Close()
		return nil, nil, fmt.Errorf("%s is %w (%s): claude.nvim reads the CLI's config only from a regular file", path, ErrNotRegular, kind(info.Mode()))
	}
	if info.Size() > maxConfigSize {
		f.Close()
		return nil, nil, fmt.Errorf("%s is %w: %d MiB, past the %d MiB claude.nvim reads (the CLI keeps each project's history there); "+
			"trust the folder with the CLI's own dialog (run claude in a terminal there once), or make the file smaller",
			path, ErrTooLarge, info.Size()>>20, maxConfigSize>>20)
	}
	return f, info, nil
}

// kind names a file type for a message.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a link"
	}
	return m.Type().String()
}

// ctxReader reads r until ctx ends: a copy of a large file stops at the deadline.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
