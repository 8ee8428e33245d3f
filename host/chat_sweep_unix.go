//go:build unix

package host

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ownedByUs is whether this user owns the file st describes.
func ownedByUs(st fs.FileInfo) bool {
	sys, ok := st.Sys().(*syscall.Stat_t)
	return ok && int(sys.Uid) == os.Getuid()
}

// processAlive asks the kernel with signal 0, which checks the pid without delivering
// anything. A pid reused by another process counts as alive: the directory stays, which is
// the safe mistake.
func processAlive(pid int) bool {
	return !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

// readNoFollow reads at most limit bytes of file, failing if it is a link (O_NOFOLLOW) or
// not a regular file (a FIFO would block a plain open: O_NONBLOCK).
func readNoFollow(file string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(file, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fs.ErrInvalid
	}
	return io.ReadAll(io.LimitReader(f, limit))
}
