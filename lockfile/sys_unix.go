//go:build unix

package lockfile

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// processAlive asks the kernel with signal 0, which checks the pid without
// delivering anything.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return !errors.Is(err, syscall.ESRCH)
}

// openNoFollow: open a lock file itself, never what a symbolic link points
// to, and never wait for a FIFO's writer.
const openNoFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// ownedByMe reports fi's owner and whether it is this process's user.
func ownedByMe(fi fs.FileInfo) (uid int, mine bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return -1, true
	}
	return int(st.Uid), int(st.Uid) == os.Geteuid()
}
