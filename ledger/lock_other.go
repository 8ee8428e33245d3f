//go:build !unix

package ledger

import "os"

// tryLockFile: no flock here; the process's own lock (Store.mu) still holds.
func tryLockFile(*os.File) (bool, error) { return true, nil }
