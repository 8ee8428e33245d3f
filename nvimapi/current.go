package nvimapi

import (
	"context"
	"slices"
	"sync"

	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/claude-nvim/claude.nvim/nvimapi/selection"
)

// currentState is the current window's selection as getCurrentSelection
// last read it: whether the window shows a file, and if so its selection.
type currentState struct {
	File bool
	Sel  *mcp.Selection
}

// lastSelection is the window state getCurrentSelection last read and the
// selection it made of it.
type lastSelection struct {
	mu  sync.Mutex
	ev  selection.Event
	cur currentState
	ok  bool
}

// currentState reads the window's state every time: the cursor moves
// without an event Neovim runs at once (nvim_win_set_cursor's CursorMoved
// waits for the main loop; none fires in the command line), so no counter
// could say it did not. The second round trip, the selected text, is saved
// while the state is the same: buffer, name, mode, both ends and
// b:changedtick, which every change of the text moves.
func (e *Editor) currentState(ctx context.Context) (currentState, error) {
	var ev selection.Event
	if err := e.lua(ctx, &ev, `return require('claude.selection').current()`); err != nil {
		return currentState{}, luaError(err)
	}
	if cur, ok := e.selection.get(&ev); ok {
		return cur, nil
	}
	cur := currentState{}
	if q, ok := selection.QueryOf(&ev); ok {
		sel, err := e.ReadSelection(ctx, q)
		if err != nil {
			return currentState{}, err
		}
		cur = currentState{File: true, Sel: sel}
	}
	e.selection.put(ev, cur)
	return cur, nil
}

func (l *lastSelection) get(ev *selection.Event) (currentState, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.ok || !sameState(&l.ev, ev) {
		return currentState{}, false
	}
	return l.cur, true
}

func (l *lastSelection) put(ev selection.Event, cur currentState) {
	l.mu.Lock()
	l.ev, l.cur, l.ok = ev, cur, true
	l.mu.Unlock()
}

func sameState(a, b *selection.Event) bool {
	return a.Buf == b.Buf && a.Path == b.Path && a.File == b.File && a.Mode == b.Mode && a.Tick == b.Tick &&
		slices.Equal(a.Cursor, b.Cursor) && slices.Equal(a.Visual, b.Visual)
}
