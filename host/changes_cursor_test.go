package host

import (
	"fmt"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The hunk under the cursor in the file's window of a :Claude changes diff is found in the
// file as it is now, not at the lines Claude left it on: the user's lines added above a hunk
// move it down.
func TestTheHunkUnderTheCursorIsFoundWhereTheUsersEditsMovedIt(t *testing.T) {
	c := newChangesEnv(t)
	c.turn("fix the letters") // a.txt: a2 → A2 and a7 → A7, two hunks
	// The user adds five lines at the top of a.txt and saves: A7 is now on line 12, and line
	// 7 (where Claude left A7) holds A2.
	c.nv.Cmd("edit a.txt | call append(0, ['m1', 'm2', 'm3', 'm4', 'm5']) | write")
	c.request("list", `vim.cmd('ClaudeChanges')`)
	c.cursorTo("a.txt")
	c.request("open", `vim.api.nvim_feedkeys(vim.keycode('<CR>'), 'x', false)`)

	// On line 7 (A2, Claude's first hunk) the review key marks the first hunk, not the
	// second that Claude left on line 7.
	c.cursorTo("A2")
	c.request("review", `vim.api.nvim_feedkeys(vim.keycode('\\av'), 'x', false)`)
	var reviewed []bool
	c.nv.Lua(&reviewed, `local out = {}
		for _, h in ipairs(require('claude.changes.diff').current().hunks) do table.insert(out, h.reviewed == true) end
		return out`)
	if fmt.Sprint(reviewed) != "[true false]" {
		t.Errorf("hunks reviewed after the review key on A2 = %v, want [true false]", reviewed)
	}

	c.cursorTo("A7")
	replies := c.nv.UserEvents("ClaudeChanges")
	c.nv.Lua(nil, `vim.api.nvim_feedkeys(vim.keycode('\\ar'), 'x', false)`)
	if msgs := c.nv.Messages(); strings.Contains(msgs, "no hunk of this turn under the cursor") {
		t.Fatalf("the revert key on A7 (line 12) found no hunk; messages:\n%s", msgs)
	}
	for {
		data := nvimtest.Next(t, replies, "the host's answer to revert_hunk", waitTimeout)
		if data["op"] == "revert_hunk" {
			break
		}
	}
	if got, want := c.disk("a.txt"), "m1\nm2\nm3\nm4\nm5\na1\nA2\na3\na4\na5\na6\na7\na8\n"; got != want {
		t.Errorf("a.txt on disk = %q, want %q (the second hunk taken back, the first and the user's five lines kept)", got, want)
	}
}
