//go:build !unix

package lockfile

import "os"

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
