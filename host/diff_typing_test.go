package host

import (
	"os"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The rule of lua/claude/typing.lua: a proposal never takes the keys of a user who is typing;
// a user idle in Normal mode sees it at once.

// A user who stopped typing (no key for typing.QUIET_MS, in Normal mode) gets the diff within
// the very call that brings it, focused, as before the rule: nothing defers it to a later event.
func TestAUserIdleInNormalModeSeesADiffWithinTheCallThatBringsIt(t *testing.T) {
	d := newDiffEnv(t, "")
	d.nv.Keys("jk")
	nvimtest.Wait(t, "the user to count as idle", waitTimeout, func() bool {
		var idle bool
		d.nv.Lua(&idle, `return require('claude.typing').busy() == nil`)
		return idle
	})
	d.nv.Lua(nil, `
		_G.order = {}
		local diff = require('claude.diff')
		local open = diff.open
		diff.open = function(...)
			table.insert(_G.order, 'call')
			local r = open(...)
			table.insert(_G.order, 'return')
			return r
		end
		vim.api.nvim_create_autocmd('User', { pattern = 'ClaudeDiffOpened', callback = function()
			table.insert(_G.order, 'opened')
		end })`)
	p := d.openDiff(d.path, proposed, tab)
	var order []string
	d.nv.Lua(&order, `return _G.order`)
	if strings.Join(order, " ") != "call opened return" {
		t.Errorf("events %v, want the diff opened inside the call that brought it: call opened return", order)
	}
	var cur string
	d.nv.Lua(&cur, `return vim.bo.buftype`)
	if cur != "acwrite" {
		t.Errorf("focus is in a %q buffer, want the proposal", cur)
	}
	d.nv.Cmd("write")
	if got := answer(t, p); got[0] != "FILE_SAVED" {
		t.Errorf("answer %q", got)
	}
}

// Between two dd's the editor is in Normal mode: only how recent the last key is tells that
// the user is at work. (QUIET_MS is raised so that a slow machine cannot make the first dd
// old news before the diff arrives.)
func TestADiffArrivingBetweenNormalModeCommandsWaitsAndTheKeysStayInTheUsersFile(t *testing.T) {
	d := newDiffEnv(t, `require('claude.typing').QUIET_MS = 600000`)
	d.nv.Cmd("call setline(1, ['one', 'two', 'three', 'four'])")
	p := d.diffWhileTyping("dd")
	d.nv.Keys("dd:w<CR>")
	nvimtest.Wait(t, "the user's :w to write their file", waitTimeout, func() bool {
		got, _ := os.ReadFile(d.path)
		return string(got) == "three\nfour\n"
	})
	if _, wins, props := d.viewState(); wins != 0 || props != 0 {
		t.Errorf("after the user's dd and :w: %d diff windows, %d proposals; want it waiting unseen", wins, props)
	}
	d.nv.Cmd("ClaudeDiffFocus")
	nvimtest.Next(t, d.opened, "the diff to open on :Claude review focus", waitTimeout)
	d.nv.Cmd("ClaudeDiffReject")
	if got := answer(t, p); got[0] != "DIFF_REJECTED" {
		t.Errorf("answer %q, want the user's own rejection", got)
	}
}
