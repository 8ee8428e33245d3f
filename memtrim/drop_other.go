//go:build !linux

package memtrim

// DropExecutablePages does nothing outside Linux: there is no /proc/self/maps to find the
// mappings by, and the other systems' pagers keep less of a program resident to begin with.
func DropExecutablePages() (int64, error) { return 0, nil }
