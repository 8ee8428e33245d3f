//go:build unix

package lockfile

import (
	"errors"
	"syscall"
)

// processAlive asks the kernel with signal 0, which checks the pid without
// delivering anything.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return !errors.Is(err, syscall.ESRCH)
}
