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

// mapGenerations creates the shared page with every block of it allocated
// (genPage), maps it here (read only) and in Neovim (read-write), and then
// lets go of the file: both mappings outlive it.
//
// Neovim writes into the page inside every change, from LuaJIT, where a
// fault cannot be caught: a store that needs a block the file system does
// not have, or into a page cut off by a truncate, is a SIGBUS that takes
// the editor and its unsaved buffers with it. So the page is never sparse,
// and on Linux it is a sealed memfd nobody can shrink (genpage_linux.go).
// When either cannot be had, the cheap tools ask Neovim every time.
func (e *Editor) mapGenerations(ctx context.Context) (mem []byte, nvimPID int, err error) {
	p, err := newGenPage()
	if err != nil {
		return nil, 0, fmt.Errorf("shared generation counters: %w", err)
	}
	defer p.release()
	mem, err = syscall.Mmap(int(p.f.Fd()), 0, genPageSize, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, 0, fmt.Errorf("shared generation counters: %w", err)
	}
	if nvimPID, err = e.mapLua(ctx, p.path); err != nil {
		_ = syscall.Munmap(mem)
		return nil, 0, err
	}
	return mem, nvimPID, nil
}

// genPage is the file behind the page while both sides map it.
type genPage struct {
	f    *os.File
	path string // where Neovim opens it
	temp bool   // a file in the temporary directory, removed by release
}

func (p *genPage) release() {
	if p.temp {
		os.Remove(p.path)
	}
	p.f.Close()
}

// newTempGenPage is the page where there is no memfd: a private temporary
// file whose block is written and synced before anyone maps it, removed as
// soon as both sides have (nobody can open it after that).
func newTempGenPage() (*genPage, error) {
	f, err := os.CreateTemp("", "claude-nvim-gen-*")
	if err != nil {
		return nil, err
	}
	p := &genPage{f: f, path: f.Name(), temp: true}
	if err := writeZeros(f); err != nil {
		p.release()
		return nil, err
	}
	return p, nil
}

// writeZeros gives f its page for real: a full file system fails the write
// or the sync here, not a store in Neovim later.
func writeZeros(f *os.File) error {
	if _, err := f.WriteAt(make([]byte, genPageSize), 0); err != nil {
		return fmt.Errorf("allocate %s: %w", f.Name(), err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("allocate %s: %w", f.Name(), err)
	}
	return nil
}
