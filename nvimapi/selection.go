package nvimapi

import (
	"context"

	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/claude-nvim/claude.nvim/nvimapi/selection"
)

type regionText struct {
	Text  string `msgpack:"text"`
	First string `msgpack:"first"` // the text of the first line of the selection
	Last  string `msgpack:"last"`  // and of its last
}

// ReadSelection reads the text and range a selection query describes; nil
// when the buffer is gone.
func (e *Editor) ReadSelection(ctx context.Context, q selection.Query) (*mcp.Selection, error) {
	first, last := q.Ordered()
	var r *regionText
	err := e.lua(ctx, &r, `return require('claude.handlers').read_selection(...)`,
		q.Buf, string(rune(q.Kind)),
		[]int{first.Line, first.Col}, []int{last.Line, last.Col},
		[]int{q.Start.Line, q.Start.Col}, []int{q.End.Line, q.End.Col}, q.ToEOL)
	if err != nil {
		return nil, luaError(err)
	}
	if r == nil {
		return nil, nil
	}
	return &mcp.Selection{Text: r.Text, FilePath: q.Path, Range: selectionRange(q, r)}, nil
}

// selectionRange computes the 0-based, UTF-16, end-exclusive range of a
// selection from Neovim's 1-based byte positions.
func selectionRange(q selection.Query, r *regionText) mcp.Range {
	first, last := q.Ordered()
	start := mcp.Position{Line: first.Line - 1}
	end := mcp.Position{Line: last.Line - 1}
	switch q.Kind {
	case selection.Cursor:
		start.Character = utf16Col(r.First, first.Col-1)
		end = start
	case selection.Linewise:
		end.Character = utf16Len(r.Last)
	case selection.Blockwise:
		left, right := q.Start.Col, q.End.Col
		if right < left {
			left, right = right, left
		}
		start.Character = utf16Col(r.First, left-1)
		end.Character = utf16Col(r.Last, charEnd(r.Last, right-1))
		if q.ToEOL {
			end.Character = utf16Len(r.Last)
		}
	default: // charwise: inclusive of the character under the last end
		start.Character = utf16Col(r.First, first.Col-1)
		end.Character = utf16Col(r.Last, charEnd(r.Last, last.Col-1))
	}
	return mcp.Range{Start: start, End: end}
}

// CurrentSelection reads the selection in the current window when it shows
// a file; from Claude's terminal (where tools are called from) it is the
// last selection made in a file, as in VS Code where focusing the terminal
// keeps the editor's selection.
func (e *Editor) CurrentSelection(ctx context.Context) (*mcp.Selection, error) {
	cur, err := e.currentState(ctx)
	if err != nil {
		return nil, err
	}
	if cur.File {
		return cur.Sel, nil
	}
	return e.LatestSelection(ctx)
}

// LatestSelection is the last selection sent to Claude.
func (e *Editor) LatestSelection(ctx context.Context) (*mcp.Selection, error) {
	e.mu.Lock()
	latest := e.latest
	e.mu.Unlock()
	if latest == nil {
		return nil, nil
	}
	return latest(), nil
}
