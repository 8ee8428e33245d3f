//go:build !linux

package acp

// hasChildren is unknown here: only Linux lists a process's children cheaply.
func hasChildren(int) (has, known bool) { return false, false }
