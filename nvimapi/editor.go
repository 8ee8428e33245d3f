// Package nvimapi is the editor behind the MCP tools: it implements
// mcp.Editor on a Neovim connection. Every operation is one round trip
// (a single nvim_exec_lua into lua/claude/*.lua with the data passed as
// arguments); results come back as plain Go values.
//
// It is the only Go code that calls into Neovim: it alone names the Lua
// modules and functions of lua/claude, including the ones that tell the
// Lua layer about the server (state.go). The host passes it events and
// never calls Neovim itself.
//
// Each rule has one owner, on one side of the boundary:
//   - Which buffer holds a file: lua/claude/tools.lua is_file. Go asks it in
//     the events' eval (selection.Event.File, DiagnosticEvent.File).
//   - Waiting for the diagnostics of a reloaded buffer: settle.go, fed by
//     the host's one DiagnosticChanged handler; Lua reports which buffers
//     it reloaded and when.
//   - Proposals: Go owns the requests and their answers (diff.go), Lua the
//     windows and buffers that show them (lua/claude/diff/init.lua).
package nvimapi

import (
	"context"
	"sync"

	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/neovim/go-client/nvim"
)

// Editor implements mcp.Editor with Neovim.
type Editor struct {
	nv *nvim.Nvim

	mu         sync.Mutex
	latest     func() *mcp.Selection
	editPlace  func(session int, path string) (place, of int)
	afterBig   func() // SetAfterLargeProposal
	diffs      diffs
	code       codeProposals
	notes      takenBackNotes
	diagEvents *diagnosticEvents
	lspq       lspQuestions // the language-server tools' questions (lsp.go)

	// The cheap tools' last answers, served while Neovim's generation
	// counters say nothing they depend on changed (generation.go).
	gens      generations
	folders   cached[folderState]
	buffers   cached[bufferState]
	selection lastSelection // the selected text, while the window's state is the same
}

var (
	_ mcp.Editor          = (*Editor)(nil)
	_ mcp.LanguageServers = (*Editor)(nil)
)

// New returns an Editor that drives nv.
func New(nv *nvim.Nvim) *Editor {
	return &Editor{nv: nv, diffs: newDiffs(), diagEvents: newDiagnosticEvents()}
}

// SetLatestSelection tells the editor where the last selection sent to
// Claude is kept (the selection tracker), for getLatestSelection.
func (e *Editor) SetLatestSelection(latest func() *mcp.Selection) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.latest = latest
}

// SetEditPlace tells the editor where to learn, for a terminal session's
// review of path, where that edit stands among the edits of the model's
// message (its place, and how many; 0, 0 when not known): the winbar says
// "2 of 3".
func (e *Editor) SetEditPlace(place func(session int, path string) (int, int)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.editPlace = place
}

// SetAfterLargeProposal tells the editor what to run, on a goroutine of its own, once a
// proposal of a megabyte or more shows in Neovim (the host gives its memory back);
// debug.FreeOSMemory when unset.
func (e *Editor) SetAfterLargeProposal(f func()) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.afterBig = f
}

// lua runs one Lua chunk in Neovim. go-client calls cannot be cancelled,
// so on ctx's end we stop waiting and let the call finish on its own;
// callers must then ignore result.
func (e *Editor) lua(ctx context.Context, result any, code string, args ...any) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- e.nv.ExecLua(code, result, args...) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}
