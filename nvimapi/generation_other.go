//go:build !unix

package nvimapi

import "context"

// mapGenerations: no shared memory here; the cheap tools ask Neovim every time.
func (e *Editor) mapGenerations(ctx context.Context) ([]byte, error) {
	return nil, &genError{"not supported on this system"}
}
