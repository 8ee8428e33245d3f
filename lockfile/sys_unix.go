//go:build unix

package lockfile

import (
	"errors"
	"io/fs"
	"syscall"
)

// access(2) mode bits; package syscall does not name them on Linux.
const (
	accessW = 0o2
	accessX = 0o1
)

// checkWritable asks access(2), because the mode bits can look right on a
// read-only file system.
func checkWritable(dir string) error {
	return syscall.Access(dir, accessW|accessX)
}

// fileOwner returns the uid that owns fi.
func fileOwner(fi fs.FileInfo) (uid int, ok bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}

// processAlive asks the kernel with signal 0, which checks the pid without
// delivering anything.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return !errors.Is(err, syscall.ESRCH)
}
