package nvimapi

import (
	"context"

	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/claude-nvim/claude.nvim/nvimapi/selection"
)

// currentState is the current window's selection as getCurrentSelection
// last read it: whether the window shows a file, and if so its selection.
type currentState struct {
	File bool
	Sel  *mcp.Selection
}

// currentState answers from the last read while neither the buffers (the
// selected text) nor the cursor or mode changed, else reads again: the
// window's state, then its selection (two round trips, as uncached).
//
// The counters are the ones Neovim returned with the window's state, from
// before the selection was read: if anything changed between the two
// reads, they are already behind and the mix is never served again.
func (e *Editor) currentState(ctx context.Context) (currentState, error) {
	now, live := e.gensNow(ctx)
	if live {
		if cur, ok := e.selection.get(now, genBuffers, genCursor); ok {
			return cur, nil
		}
	}
	var r struct {
		Gen gens            `msgpack:"gen"`
		Ev  selection.Event `msgpack:"ev"`
	}
	if err := e.lua(ctx, &r, `return require('claude.handlers').read_current()`); err != nil {
		return currentState{}, luaError(err)
	}
	cur := currentState{}
	if q, ok := selection.QueryOf(&r.Ev); ok {
		sel, err := e.ReadSelection(ctx, q)
		if err != nil {
			return currentState{}, err
		}
		cur = currentState{File: true, Sel: sel}
	}
	e.selection.put(r.Gen, cur)
	return cur, nil
}
