// Package selection turns the editor's cursor and mode events into
// selection_changed notifications: at most one read of the editor per
// interval, the newest state wins, nothing is sent twice, and a visual
// selection the user just made survives leaving visual mode until the
// cursor really moves (so it is still there when they switch to Claude's
// terminal to ask about it).
//
// It lives under nvimapi because it speaks Neovim: Event's eval tags are
// Vimscript that Neovim evaluates when a cursor event fires, and positions
// are getpos()'s. Only nvimapi (which reads the selections) and host (which
// feeds the tracker the events) use it.
package selection

// Event is the editor state at a CursorMoved, CursorMovedI, ModeChanged or
// BufEnter. Neovim evaluates the eval tags itself when the event fires (the
// remote-plugin manifest builds the expression from this struct), so each
// expression must stay cheap: positions and names, never buffer text.
type Event struct {
	Buf  int    `msgpack:"buf" eval:"bufnr()"`
	Path string `msgpack:"path" eval:"expand('%:p')"`
	// Whether the buffer holds a file on disk, by the plugin's one rule
	// (is_file_buf in lua/claude/tools.lua): not a terminal (Claude's
	// included), help, quickfix, scratch, plugin or proposal buffer, and
	// not a URL-like name such as fugitive:// or oil://.
	File bool   `msgpack:"file" eval:"v:lua.require'claude.handlers'.is_file_buf(0)"`
	Mode string `msgpack:"mode" eval:"mode()"`
	// [0, lnum, col, off, curswant], 1-based bytes; curswant tells a
	// blockwise selection extended with $.
	Cursor []int `msgpack:"cursor" eval:"getcurpos()"`
	Visual []int `msgpack:"visual" eval:"getpos('v')"` // the other end of a visual selection
	Tick   int   `msgpack:"tick" eval:"b:changedtick"`
}

// Kind of a selection, from Neovim's mode() letter.
type Kind byte

const (
	Cursor    Kind = 'n'  // no selection, only the cursor
	Charwise  Kind = 'v'  // v (and select mode's s)
	Linewise  Kind = 'V'  // V (and S)
	Blockwise Kind = 0x16 // CTRL-V (and CTRL-S)
)

// kindOf maps mode() to the kind of selection it shows.
func kindOf(mode string) Kind {
	if mode == "" {
		return Cursor
	}
	switch mode[0] {
	case 'v', 's':
		return Charwise
	case 'V', 'S':
		return Linewise
	case 0x16, 0x13:
		return Blockwise
	}
	return Cursor
}

// Pos is a 1-based line and 1-based byte column, as getpos() reports them.
type Pos struct {
	Line, Col int
}

func posOf(p []int) Pos {
	if len(p) < 3 {
		return Pos{}
	}
	return Pos{Line: p[1], Col: p[2]}
}

func (p Pos) before(q Pos) bool {
	return p.Line < q.Line || (p.Line == q.Line && p.Col < q.Col)
}

// Query is what to read from the editor for one selection_changed.
type Query struct {
	Buf   int
	Path  string
	Kind  Kind
	Start Pos  // for a selection: the visual start (not necessarily first)
	End   Pos  // the cursor end
	ToEOL bool // a blockwise selection extended with $: each line to its end
	Tick  int  // b:changedtick: same query and tick means same answer
}

// maxCol is v:maxcol, the curswant of a cursor moved with $.
const maxCol = 1<<31 - 1

func queryOf(e *Event) Query {
	q := Query{Buf: e.Buf, Path: e.Path, Kind: kindOf(e.Mode), End: posOf(e.Cursor), Tick: e.Tick}
	q.ToEOL = q.Kind == Blockwise && len(e.Cursor) >= 5 && e.Cursor[4] >= maxCol
	if q.Kind == Cursor {
		q.Start = q.End
	} else {
		q.Start = posOf(e.Visual)
	}
	return q
}

// Ordered returns the query's ends in buffer order.
func (q Query) Ordered() (first, last Pos) {
	if q.End.before(q.Start) {
		return q.End, q.Start
	}
	return q.Start, q.End
}

// QueryOf returns the query for an editor state, or false when the state
// is not in a file buffer.
func QueryOf(e *Event) (Query, bool) {
	if !e.File {
		return Query{}, false
	}
	return queryOf(e), true
}
