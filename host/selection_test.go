package host

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
)

type pos struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type selectionChanged struct {
	Text      string `json:"text"`
	FilePath  string `json:"filePath"`
	FileURL   string `json:"fileUrl"`
	Selection struct {
		Start   pos  `json:"start"`
		End     pos  `json:"end"`
		IsEmpty bool `json:"isEmpty"`
	} `json:"selection"`
}

// nextSelection returns the next selection_changed frame.
func nextSelection(t *testing.T, c *mcptest.Client) selectionChanged {
	t.Helper()
	return mcptest.Next[selectionChanged](t, c, "selection_changed")
}

// selectionWhere skips frames until one satisfies ok (an editor may send
// the cursor position of a file it just opened first).
func selectionWhere(t *testing.T, c *mcptest.Client, ok func(selectionChanged) bool) selectionChanged {
	t.Helper()
	return selectionMatching(t, c, "", ok)
}

// selectionMatching is selectionWhere saying what it waited for if none
// came. Keys that make a selection send it as it grows when the tracker
// reads between them (a loaded machine): wait for the whole of it, not
// the first frame with text.
func selectionMatching(t *testing.T, c *mcptest.Client, what string, ok func(selectionChanged) bool) selectionChanged {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	var seen []selectionChanged
	for time.Now().Before(deadline) {
		raw, err := c.WaitNotification("selection_changed", time.Until(deadline))
		if err != nil {
			break
		}
		var s selectionChanged
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatal(err)
		}
		if ok(s) {
			return s
		}
		seen = append(seen, s)
	}
	t.Fatalf("no matching selection_changed %s; got %+v", what, seen)
	return selectionChanged{}
}

const selectionFile = "alpha beta\nhéllo wörld 😀 end\nthird line\nfourth\n"

// twoLines is what 2GVj selects in selectionFile.
const twoLines = "héllo wörld 😀 end\nthird line"

// editedEnv opens a file and connects a client that has seen its first
// (cursor-only) selection.
func editedEnv(t *testing.T) (*env, *mcptest.Client, string) {
	e := newEnv(t)
	path := e.nv.WriteFile("sel.txt", selectionFile)
	c := e.connect()
	e.nv.Cmd("edit " + path)
	selectionWhere(t, c, func(s selectionChanged) bool { return s.FilePath == path })
	return e, c, path
}

func TestSelectionChangedReportsWhatIsSelected(t *testing.T) {
	tests := []struct {
		name       string
		keys       string
		text       string
		start, end pos
	}{
		{"a charwise selection ends after its last character", "gg0wve<Esc>", "beta", pos{0, 6}, pos{0, 10}},
		{"a backwards charwise selection is ordered", "gg$vb<Esc>", "beta", pos{0, 6}, pos{0, 10}},
		{"a linewise selection spans whole lines", "2GVj<Esc>", "héllo wörld 😀 end\nthird line", pos{1, 0}, pos{2, 10}},
		{"a blockwise selection takes the columns of each line", "1G0<C-v>j3l<Esc>", "alph\nhéll", pos{0, 0}, pos{1, 4}},
		{"a blockwise selection extended with $ takes each line to its end", "1G0l<C-v>jj$<Esc>",
			"lpha beta\néllo wörld 😀 end\nhird line", pos{0, 1}, pos{2, 10}},
		{"characters are counted in UTF-16 units", "2G0fwvf😀<Esc>", "wörld 😀", pos{1, 6}, pos{1, 14}},
		{"a one-line selection made and left at once is still sent", "3GV<Esc>", "third line", pos{2, 0}, pos{2, 10}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, c, path := editedEnv(t)
			e.nv.Keys(tt.keys)
			what := fmt.Sprintf("after keys %q: want %q %v-%v", tt.keys, tt.text, tt.start, tt.end)
			got := selectionMatching(t, c, what, func(s selectionChanged) bool {
				return s.Text == tt.text && s.Selection.Start == tt.start && s.Selection.End == tt.end
			})
			if got.FilePath != path || got.FileURL != "file://"+path || got.Selection.IsEmpty {
				t.Errorf("keys %q: got path %q url %q isEmpty %v", tt.keys, got.FilePath, got.FileURL, got.Selection.IsEmpty)
			}
		})
	}
}

func TestCursorMovesAreSentAsEmptySelections(t *testing.T) {
	e, c, path := editedEnv(t)
	e.nv.Keys("3G0w")
	want := pos{2, 6}
	got := selectionWhere(t, c, func(s selectionChanged) bool { return s.Selection.End == want })
	if got.Text != "" || !got.Selection.IsEmpty || got.Selection.Start != want || got.Selection.End != want || got.FilePath != path {
		t.Errorf("after 3G0w got %+v, want an empty selection at %v in %s", got, want, path)
	}
}

func TestASelectionIsHeldUntilTheCursorMoves(t *testing.T) {
	e, c, _ := editedEnv(t)
	e.nv.Keys("2GVj<Esc>")
	sel := selectionMatching(t, c, "of lines 2-3", func(s selectionChanged) bool { return s.Text == twoLines })

	// Going to other windows (quickfix, a scratch buffer, a terminal) and
	// back sends nothing and keeps the selection: that is how a user takes
	// it to Claude's terminal.
	e.nv.Cmd("call setqflist([{'text': 'a'}, {'text': 'b'}]) | copen")
	e.nv.Keys("j")
	e.nv.Cmd("cclose")
	e.nv.Cmd("botright new | setlocal buftype=nofile | call setline(1, ['x', 'y']) | normal! j")
	e.nv.Cmd("close")
	e.nv.Cmd("botright split | terminal")
	e.nv.Cmd("close")

	latest := callTool(t, c, "getLatestSelection", nil)
	var got selectionChanged
	if err := json.Unmarshal([]byte(latest[0]), &got); err != nil {
		t.Fatal(err)
	}
	if got.Text != sel.Text {
		t.Errorf("latest selection after visiting other buffers = %q, want %q", got.Text, sel.Text)
	}

	// The next frame is the first real cursor move in the file.
	e.nv.Keys("gg")
	next := nextSelection(t, c)
	if next.Text != "" || next.Selection.Start != (pos{0, 0}) {
		t.Errorf("first frame after the held selection = %+v, want the cursor at 0:0", next)
	}
}

func TestTheSameSelectionIsNotSentTwice(t *testing.T) {
	e, c, _ := editedEnv(t)
	e.nv.Keys("2G")
	selectionWhere(t, c, func(s selectionChanged) bool { return s.Selection.Start.Line == 1 })
	for i := 0; i < 3; i++ {
		e.nv.Cmd("doautocmd CursorMoved")
		e.nv.Cmd("doautocmd BufEnter")
	}
	e.nv.Keys("3G")
	next := nextSelection(t, c)
	if next.Selection.Start.Line != 2 {
		t.Errorf("frame after repeated events = %+v, want the move to line 3 (no duplicates of line 2)", next)
	}
}

// A CLI that connects is told which file the user is in, without waiting
// for the cursor to move (the user is usually in Claude's terminal by then).
func TestAFreshClientLearnsTheCurrentFile(t *testing.T) {
	e := newEnv(t)
	e.nv.Lua(nil, idleCLI)
	path := e.nv.WriteFile("here.txt", "a\nb\nc\n")
	e.nv.Cmd("edit " + path)
	e.nv.Keys("3G")
	e.nv.Cmd("ClaudeOpen") // starts the server from the terminal's point of view
	c := e.connect()
	got := nextSelection(t, c)
	if got.FilePath != path || got.Text != "" || got.Selection.Start != (pos{2, 0}) {
		t.Errorf("first selection_changed = %+v, want the cursor in %s at 2:0", got, path)
	}
}
