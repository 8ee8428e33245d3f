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
	st  windowState
	cur currentState
	ok  bool
}

// windowState is what the selected text depends on: the window's state
// and 'selection' (an exclusive selection leaves out its last character).
type windowState struct {
	Ev  selection.Event `msgpack:"ev"`
	Opt string          `msgpack:"selection"`
}

// currentState reads the window's state every time: the cursor moves
// without an event Neovim runs at once (nvim_win_set_cursor's CursorMoved
// waits for the main loop; none fires in the command line), so no counter
// could say it did not. The second round trip, the selected text, is saved
// while the state is the same: buffer, name, mode, both ends, 'selection'
// and b:changedtick, which every change of the text moves.
func (e *Editor) currentState(ctx context.Context) (currentState, error) {
	var st windowState
	if err := e.lua(ctx, &st, `return require('claude.handlers').read_window_state()`); err != nil {
		return currentState{}, luaError(err)
	}
	if cur, ok := e.selection.get(&st); ok {
		return cur, nil
	}
	cur := currentState{}
	if q, ok := selection.QueryOf(&st.Ev); ok {
		sel, err := e.ReadSelection(ctx, q)
		if err != nil {
			return currentState{}, err
		}
		cur = currentState{File: true, Sel: sel}
	}
	e.selection.put(st, cur)
	return cur, nil
}

func (l *lastSelection) get(st *windowState) (currentState, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.ok || l.st.Opt != st.Opt || !sameEvent(&l.st.Ev, &st.Ev) {
		return currentState{}, false
	}
	return l.cur, true
}

func (l *lastSelection) put(st windowState, cur currentState) {
	l.mu.Lock()
	l.st, l.cur, l.ok = st, cur, true
	l.mu.Unlock()
}

func sameEvent(a, b *selection.Event) bool {
	return a.Buf == b.Buf && a.Path == b.Path && a.File == b.File && a.Mode == b.Mode && a.Tick == b.Tick &&
		slices.Equal(a.Cursor, b.Cursor) && slices.Equal(a.Visual, b.Visual)
}
