//go:build unix && !linux

package nvimapi

// newGenPage: no memfd here; a written temporary file, removed once mapped.
func newGenPage() (*genPage, error) { return newTempGenPage() }
