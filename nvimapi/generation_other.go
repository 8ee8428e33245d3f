//go:build !unix

package nvimapi

import "context"

// mapGenerations: no shared memory here; the cheap tools ask Neovim every time.
func (e *Editor) mapGenerations(ctx context.Context) ([]byte, int, error) {
	return nil, 0, &genError{"not supported on this system"}
}

func processCwd(pid int) string { return "" }
