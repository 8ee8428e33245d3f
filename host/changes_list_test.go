package host

import (
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/hooks"
)

// The list after the fact (issue 36): what was taken back shows as reverted, a whole turn is
// reverted only on a second X, and turns that changed nothing stay out of the way.

func TestTheListShowsWhatWasRevertedAndATurnRevertsOnlyOnASecondX(t *testing.T) {
	c := newChangesEnv(t)
	c.turn("fix the letters")
	c.request("list", `vim.cmd('ClaudeChanges')`)
	c.cursorTo("M a.txt")
	c.request("open", `vim.api.nvim_feedkeys(vim.keycode('<CR>'), 'x', false)`)
	c.nv.Lua(nil, `vim.api.nvim_win_set_cursor(0, { 7, 0 })`)
	c.request("revert_hunk", `vim.api.nvim_feedkeys(vim.keycode('\\ar'), 'x', false)`)
	c.nv.Cmd("tabclose")
	c.request("list", `vim.cmd('ClaudeChanges')`)
	c.cursorTo("M b.txt")
	c.request("revert_file", `vim.api.nvim_feedkeys('X', 'x', false)`)
	c.request("list", `vim.cmd('ClaudeChanges')`)
	list := strings.Join(c.bufLines(), "\n")
	for _, want := range []string{"M a.txt  +2 -2  (1 of 2 hunks reverted)", "M b.txt  +1 -0  (reverted)", "M c.txt  +1 -1\n"} {
		if !strings.Contains(list+"\n", want) {
			t.Errorf("the list has no %q:\n%s", want, list)
		}
	}

	// X on the turn's line asks; moving away forgets; X twice reverts.
	c.cursorTo("fix the letters")
	c.nv.Keys("X")
	if msgs := c.nv.Messages(); !strings.Contains(msgs, "press X again to revert all 3 files of this turn") {
		t.Errorf("the first X on a turn did not ask; messages:\n%s", msgs)
	}
	if got := c.disk("c.txt"); got != "C1\n" {
		t.Fatalf("the first X reverted the turn: c.txt = %q", got)
	}
	c.nv.Keys("j")
	c.cursorTo("fix the letters")
	c.nv.Keys("X")
	if got := c.disk("c.txt"); got != "C1\n" {
		t.Fatalf("an X after moving away reverted the turn: c.txt = %q", got)
	}
	c.request("revert_turn", `vim.api.nvim_feedkeys('X', 'x', false)`)
	if got := c.disk("c.txt"); got != "c1\n" {
		t.Errorf("X twice on the turn: c.txt = %q, want it reverted", got)
	}
}

func TestTurnsThatChangedNothingHideUntilAsked(t *testing.T) {
	c := newChangesEnv(t)
	c.turn("the turn that edits")
	c.hook(hooks.UserPromptSubmit, func(e *hooks.Event) { e.Prompt = "just a question" })
	c.hook(hooks.Stop, nil)
	c.request("list", `vim.cmd('ClaudeChanges')`)
	list := strings.Join(c.bufLines(), "\n")
	if strings.Contains(list, "just a question") || !strings.Contains(list, "(1 turn that changed nothing hidden: a shows them)") || !strings.Contains(list, "the turn that edits") {
		t.Fatalf("the list:\n%s\nwant the empty turn hidden, and said so", list)
	}
	c.nv.Keys("a")
	if list := strings.Join(c.bufLines(), "\n"); !strings.Contains(list, "just a question") {
		t.Errorf("after a, the list:\n%s\nwant the empty turn shown", list)
	}
}

func TestAReasonTypedForATakenBackHunkOrFileReachesClaudeWithTheNote(t *testing.T) {
	c := newChangesEnv(t)
	c.turn("fix the letters")
	c.request("list", `vim.cmd('ClaudeChanges')`)
	c.cursorTo("M b.txt")
	c.request("revert_file", `vim.api.nvim_feedkeys('C' .. 'too clever by half' .. vim.keycode('<CR>'), 't', false)`)
	if got := c.disk("b.txt"); got != "b1\nb2\n" {
		t.Errorf("b.txt = %q after C, want it reverted", got)
	}
	c.cursorTo("M a.txt")
	c.request("open", `vim.api.nvim_feedkeys(vim.keycode('<CR>'), 'x', false)`)
	c.nv.Lua(nil, `vim.api.nvim_win_set_cursor(0, { 7, 0 })`)
	c.request("revert_hunk", `vim.api.nvim_feedkeys(vim.keycode('\\aw') .. 'keep a7 as it was' .. vim.keycode('<CR>'), 't', false)`)
	note := string(c.turn("next").Stdout)
	for _, want := range []string{`all changes to "b.txt" (the user's reason: "too clever by half")`, `"a.txt" line 7 (the user's reason: "keep a7 as it was")`} {
		if !strings.Contains(note, want) {
			t.Errorf("the next prompt's note = %q, want %q", note, want)
		}
	}
}
