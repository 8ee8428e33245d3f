// Package logfile is the Go host's log: a slog.Logger writing to one file, rotated
// at a size cap, never to stdout (the RPC pipe to Neovim).
package logfile

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// maxLogSize caps the log file while it is written, so a long-lived setup
// (or a flood of events) never fills the disk with debug lines.
const maxLogSize = 8 << 20

// Open returns a logger writing to path at level ("error", "warn",
// "info", "debug"); an empty path discards everything. Never stdout: that
// is the RPC pipe to Neovim. The file is rotated at 8 MiB: see
// rotatingFile.
func Open(path, level string) (*slog.Logger, io.Closer) {
	return openLog(path, level, maxLogSize)
}

func openLog(path, level string, maxSize int64) (*slog.Logger, io.Closer) {
	if path == "" {
		return slog.New(slog.DiscardHandler), io.NopCloser(nil)
	}
	f, err := openRotating(path, maxSize)
	if err != nil {
		return slog.New(slog.NewTextHandler(os.Stderr, nil)), io.NopCloser(nil)
	}
	var lv slog.Level
	switch strings.ToLower(level) {
	case "error":
		lv = slog.LevelError
	case "warn":
		lv = slog.LevelWarn
	case "debug":
		lv = slog.LevelDebug
	default:
		lv = slog.LevelInfo
	}
	return slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: lv})).With("pid", os.Getpid()), f
}

// rotatingFile is the log file, capped while it is written: a write that
// would take it past max first renames it to path+".1" (replacing the
// previous one) and starts path afresh. So the disk holds at most twice
// max, and the lines just before the newest survive a rotation, which
// truncating would lose. If the rename fails the file is truncated
// instead, so the cap holds either way. slog hands each record to one
// Write, so records are never split between the files; a record larger
// than max gets a file of its own. Each Neovim runs a host, and they may
// share the file: each counts only its own writes (a stat per line would
// cost more than the cap is worth), so a file shared by n hosts can reach
// n times max before one of them rotates it, and a host whose file was
// rotated by another carries on in the new one.
type rotatingFile struct {
	path string
	max  int64

	mu   sync.Mutex
	f    *os.File
	size int64
}

// openRotating opens path for appending, rotating it first if it is over
// max already (a log from before this cap, or one written by a process
// with a larger one).
func openRotating(path string, max int64) (*rotatingFile, error) {
	_ = os.MkdirAll(filepath.Dir(path), 0o700)
	r := &rotatingFile{path: path, max: max}
	if err := r.open(); err != nil {
		return nil, err
	}
	if r.size > max {
		r.rotate()
		if r.f == nil {
			return nil, os.ErrClosed
		}
	}
	return r, nil
}

func (r *rotatingFile) open() error {
	f, err := os.OpenFile(r.path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return err
	}
	r.f, r.size = f, st.Size()
	return nil
}

func (r *rotatingFile) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f == nil {
		return 0, os.ErrClosed
	}
	if r.full(len(p)) && r.rotatedElsewhere() {
		// Another Neovim's host shares the file and has rotated it: our
		// writes went to its ".1"; carry on in the new file.
		r.reopen()
	}
	if r.f != nil && r.full(len(p)) {
		r.rotate()
	}
	if r.f == nil {
		return 0, os.ErrClosed
	}
	n, err := r.f.Write(p)
	r.size += int64(n)
	return n, err
}

// full reports whether writing n more bytes would take the file past max;
// an empty file takes any record.
func (r *rotatingFile) full(n int) bool {
	return r.size > 0 && r.size+int64(n) > r.max
}

// rotate moves the full file aside and starts a new one; r.mu is held (or
// r is not shared yet). On failure r.f is nil and writes fail.
func (r *rotatingFile) rotate() {
	if os.Rename(r.path, r.path+".1") == nil {
		r.reopen()
		return
	}
	// O_APPEND writes go to the new end, so truncating is enough.
	if r.f.Truncate(0) == nil {
		r.size = 0
	}
}

// reopen closes our file and opens path; on failure r.f is nil.
func (r *rotatingFile) reopen() {
	r.f.Close()
	if r.open() != nil {
		r.f = nil
	}
}

// rotatedElsewhere reports whether path is no longer the file we write.
func (r *rotatingFile) rotatedElsewhere() bool {
	ours, err := r.f.Stat()
	if err != nil {
		return false
	}
	cur, err := os.Stat(r.path)
	return err == nil && !os.SameFile(ours, cur)
}

func (r *rotatingFile) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f == nil {
		return nil
	}
	err := r.f.Close()
	r.f = nil
	return err
}
