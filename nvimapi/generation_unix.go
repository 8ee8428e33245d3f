//go:build unix

package nvimapi

import (
	"context"
	"fmt"
	"os"
	"syscall"
)

// genPageSize is the size of the shared page (one page on every system we
// build for; the counters use its first bytes).
const genPageSize = 4096

// mapGenerations creates the shared page in a private file, maps it here
// (read only) and in Neovim (read-write), and removes the file: both
// mappings outlive it, and nothing is left on disk.
func (e *Editor) mapGenerations(ctx context.Context) ([]byte, error) {
	f, err := os.CreateTemp("", "claude-nvim-gen-*")
	if err != nil {
		return nil, fmt.Errorf("shared generation counters: %w", err)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	if err := f.Truncate(genPageSize); err != nil {
		return nil, fmt.Errorf("shared generation counters: %w", err)
	}
	mem, err := syscall.Mmap(int(f.Fd()), 0, genPageSize, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("shared generation counters: %w", err)
	}
	if err := e.mapLua(ctx, f.Name()); err != nil {
		_ = syscall.Munmap(mem)
		return nil, err
	}
	return mem, nil
}
