//go:build !unix

package lockfile

import (
	"io/fs"
	"os"
)

// Outside Unix (Windows) the package only has to compile: claude.nvim does
// not support it yet. These stand-ins are weaker than the Unix checks.

// checkWritable trusts the mode bits.
func checkWritable(string) error { return nil }

// fileOwner cannot tell (no uid), so ownership goes unchecked.
func fileOwner(fs.FileInfo) (int, bool) { return 0, false }

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
