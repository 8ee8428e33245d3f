//go:build unix && !linux

package nvimapi

// newGenPage: no memfd here; a written temporary file, removed once mapped.
func newGenPage() (*genPage, error) { return newTempGenPage() }

// processCwd: no /proc here; the working directories are never served
// from the cache.
func processCwd(pid int) string { return "" }
