//go:build unix

package ledger

import (
	"errors"
	"os"
	"syscall"
)

// tryLockFile takes f's exclusive flock without waiting; ok is false when another process
// holds it.
func tryLockFile(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}
