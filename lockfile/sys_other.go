//go:build !unix

package lockfile

import (
	"io/fs"
	"os"
)

// Outside Unix (Windows) the package only has to compile: claude.nvim does
// not support it yet. This stand-in is weaker than the Unix check.

// processAlive: on Windows FindProcess opens the process and fails if there
// is none.
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	_ = p.Release()
	return true
}

// openNoFollow: no such flags here; readLock's regular-file check remains.
const openNoFollow = 0

// ownedByMe: no owner to compare here.
func ownedByMe(fs.FileInfo) (uid int, mine bool) { return -1, true }
