//go:build unix

package host

import (
	"errors"
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
