package host

import (
	"testing"

	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// A round of reviews (lua/claude/diff/round.lua): after the user answers one proposal, the
// next one waiting for them comes forward; after the last, the cursor is back where it was.

// cursorAt is the current window and the cursor's line in it.
type cursorAt struct {
	Win  int `msgpack:"win"`
	Line int `msgpack:"line"`
}

func (d *diffEnv) cursor() cursorAt {
	d.t.Helper()
	var c cursorAt
	d.nv.Lua(&c, `return { win = vim.api.nvim_get_current_win(), line = vim.fn.line('.') }`)
	return c
}

// inProposalOf reports whether the cursor is in a proposal of the file called name.
func (d *diffEnv) inProposalOf(name string) bool {
	d.t.Helper()
	var ok bool
	d.nv.Lua(&ok, `return vim.b.claude_diff ~= nil and vim.fs.basename(vim.api.nvim_buf_get_name(0)) == ...`, name+" (Claude proposal)")
	return ok
}

// Two proposals came while the user typed and wait unseen; the user goes to one and answers
// it with :w, the other comes forward, and its :w puts the cursor back in their file, on the
// line it was on.
func TestAfterAReviewTheNextWaitingOneComesForwardAndTheLastPutsTheCursorBack(t *testing.T) {
	// Every key counts as typing for ten minutes: only review keys do not.
	d := newDiffEnv(t, `require('claude.typing').QUIET_MS = 600000`)
	other := d.nv.WriteFile("other.txt", original)
	d.nv.Keys("3G")
	before := d.cursor()
	first := d.startDiff(d.path, proposed, tab)
	second := d.startDiff(other, proposed, "✻ [Claude Code] other.txt (70a533) ⧉")
	nvimtest.Wait(t, "both proposals to be registered", waitTimeout, func() bool {
		v, _, _ := d.viewState()
		return v == 2
	})
	if _, wins, props := d.viewState(); wins != 0 || props != 0 {
		t.Fatalf("while the user types: %d diff windows, %d proposals shown; want both waiting unseen", wins, props)
	}

	// Which one :Claude review focus takes (the newest) depends on which openDiff came first.
	pending := map[string]*mcptest.Pending{"greet.txt": first, "other.txt": second}
	d.nv.Cmd("ClaudeDiffFocus")
	nvimtest.Next(t, d.opened, "a proposal on :Claude review focus", waitTimeout)
	name, next := "greet.txt", "other.txt"
	if d.inProposalOf("other.txt") {
		name, next = next, name
	} else if !d.inProposalOf("greet.txt") {
		t.Fatalf("after :Claude review focus the cursor is in no proposal")
	}
	d.nv.Keys(":w<CR>")
	if got := answer(t, pending[name]); got[0] != "FILE_SAVED" {
		t.Errorf("%s's answer %q, want it accepted", name, got)
	}
	nvimtest.Next(t, d.opened, next+"'s proposal to come forward after the first :w", waitTimeout)
	nvimtest.Wait(t, "the cursor in "+next+"'s proposal", waitTimeout, func() bool { return d.inProposalOf(next) })

	d.nv.Keys(":w<CR>")
	if got := answer(t, pending[next]); got[0] != "FILE_SAVED" {
		t.Errorf("%s's answer %q, want it accepted", next, got)
	}
	nvimtest.Wait(t, "both views to close", waitTimeout, func() bool {
		v, _, _ := d.viewState()
		return v == 0
	})
	d.assertClosed("after both reviews")
	if after := d.cursor(); after != before {
		t.Errorf("after the last review the cursor is at %+v, want it back where it was: %+v", after, before)
	}
}

// Keys pressed in a proposal are review keys: they do not make the user count as typing, so
// the next proposal may come forward.
func TestKeysInAProposalAreNotTyping(t *testing.T) {
	d := newDiffEnv(t, "")
	nvimtest.Wait(t, "the user to count as idle", waitTimeout, func() bool {
		var idle bool
		d.nv.Lua(&idle, `return require('claude.typing').busy() == nil`)
		return idle
	})
	p := d.openDiff(d.path, proposed, tab)
	d.nv.Lua(nil, `require('claude.typing').QUIET_MS = 600000`)
	d.nv.Keys("jjk")
	busy := func() string {
		var why string
		d.nv.Lua(&why, `return require('claude.typing').busy() or ''`)
		return why
	}
	if why := busy(); why != "" {
		t.Errorf("after keys in the proposal typing.busy() = %q, want nil (review keys)", why)
	}
	d.nv.Cmd("wincmd p") // the user's file beside it: keys there are theirs
	d.nv.Keys("k")
	if why := busy(); why != "typing" {
		t.Errorf("after a key in the file beside the proposal typing.busy() = %q, want \"typing\"", why)
	}
	d.nv.Cmd("ClaudeDiffReject")
	if got := answer(t, p); got[0] != "DIFF_REJECTED" {
		t.Errorf("answer %q", got)
	}
}
