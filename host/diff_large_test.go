package host

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// A diff past LARGE_DIFF_LINES (lua/claude/diff/init.lua) is shown without
// 'foldmethod' diff, whose cost grows with lines times changes: native diff
// mode must still work (]c, do, dp), the unchanged stretches are folded, and
// closing the view leaves the user's window without diff mode or our folds.
func TestALargeManyHunkDiffKeepsNativeDiffMode(t *testing.T) {
	d := newDiffEnv(t, "")
	path, proposal := largeManyHunkFile(d)
	d.nv.Cmd("edit " + path)
	p := d.openDiff(path, proposal, "large")

	var st struct {
		Diff     []bool `msgpack:"diff"`
		Method   string `msgpack:"method"`
		Folded   int    `msgpack:"folded"`
		NextLine int    `msgpack:"next"`
		Put      string `msgpack:"put"`
		Got      string `msgpack:"got"`
	}
	d.nv.Lua(&st, `
		local prop, orig
		for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
			if vim.b[vim.api.nvim_win_get_buf(w)].claude_diff then prop = w elseif vim.wo[w].diff then orig = w end
		end
		local out = { diff = { vim.wo[orig].diff, vim.wo[prop].diff }, method = vim.wo[prop].foldmethod }
		vim.api.nvim_set_current_win(prop)
		out.folded = vim.fn.foldclosed(1)
		vim.api.nvim_win_set_cursor(prop, { 1, 0 })
		vim.cmd('normal! ]c')
		out.next = vim.api.nvim_win_get_cursor(prop)[1]
		vim.cmd('normal! do') -- take the file's line 26 into the proposal
		out.got = vim.api.nvim_buf_get_lines(0, 25, 26, false)[1]
		vim.cmd('normal! u')
		vim.api.nvim_win_set_cursor(prop, { 76, 0 })
		vim.cmd('normal! dp') -- put the proposal's line 76 into the file's buffer
		out.put = vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(orig), 75, 76, false)[1]
		return out`)
	if !st.Diff[0] || !st.Diff[1] || st.Method != "manual" {
		t.Errorf("diff mode %v, proposal foldmethod %q; want both in diff mode with manual folds", st.Diff, st.Method)
	}
	if st.Folded != 1 {
		t.Errorf("foldclosed(1) = %d, want the unchanged start folded", st.Folded)
	}
	if st.NextLine != 26 || st.Got != "line 26 of a large file" || st.Put != "line 76 CHANGED" {
		t.Errorf("]c went to %d, do gave %q, dp gave %q; want 26, the file's line, the proposal's line", st.NextLine, st.Got, st.Put)
	}

	callTool(t, d.c, "close_tab", map[string]string{"tab_name": "large"})
	answer(t, p)
	d.assertClosed("after the large diff")
	var after struct {
		Diff   bool `msgpack:"diff"`
		Folded int  `msgpack:"folded"`
	}
	d.nv.Lua(&after, `vim.cmd('normal! zR') return { diff = vim.wo.diff, folded = vim.fn.foldlevel(1) }`)
	if after.Diff || after.Folded != 0 {
		t.Errorf("after closing: diff %v, fold level of line 1 %d; want neither", after.Diff, after.Folded)
	}
}

// A proposal of a megabyte or more makes the host give back the memory it read and sent it
// with as soon as it shows, not when it closes: the user may look at it for minutes. A small
// one does not (a full collection each time would cost more than it gives).
func TestALargeProposalGivesMemoryBackOnceShown(t *testing.T) {
	d := newDiffEnv(t, "")
	released := make(chan struct{}, 4)
	d.host.editor.SetAfterLargeProposal(func() { released <- struct{}{} })

	p := d.openDiff(d.path, "a small change\n", "small")
	callTool(t, d.c, "close_tab", map[string]string{"tab_name": "small"})
	answer(t, p)
	select {
	case <-released:
		t.Fatal("a 15-byte proposal released memory")
	default:
	}

	big := strings.Repeat("a line of the large proposal, long enough\n", (1<<20)/42+1)
	path := d.nv.WriteFile("big.txt", "")
	d.nv.Cmd("edit " + path)
	p = d.openDiff(path, big, "big")
	select {
	case <-released: // while it shows: no decision yet
	case <-time.After(30 * time.Second):
		t.Fatal("a 1 MiB proposal showed and nothing gave memory back within 30 s")
	}
	callTool(t, d.c, "close_tab", map[string]string{"tab_name": "big"})
	answer(t, p)
	d.assertClosed("after the large proposal")
}

// Once a large proposal shows, the garbage of bringing it in (its pieces as they came, the
// texts its hunks were computed from, the RPC arguments) is collected: an editor whose
// user looks at the view allocates too little for Lua's collector to run, and a 5 MiB
// proposal held 39 MiB of Lua heap until it closed (peerbench; 15 after the collection).
func TestALargeProposalsGarbageGoesOnceItShows(t *testing.T) {
	d := newDiffEnv(t, "")
	d.nv.Lua(nil, `
		local memory = require('claude.memory')
		local release = memory.release_now
		vim.g.claude_test_released = 0
		memory.release_now = function()
			release()
			vim.g.claude_test_released = vim.g.claude_test_released + 1
		end`)
	path, proposal := largeManyHunkFile(d)
	d.nv.Cmd("edit " + path)
	p := d.openDiff(path, proposal, "large")
	nvimtest.Wait(t, "the shown proposal's garbage to be collected", waitTimeout, func() bool {
		var n int
		d.nv.Lua(&n, `return vim.g.claude_test_released`)
		return n == 1
	})
	var garbage float64
	d.nv.Lua(&garbage, `local before = collectgarbage("count"); collectgarbage(); return (before - collectgarbage("count")) * 1024`)
	// Left uncollected: 4.5 MiB for this 0.75 MiB proposal; collected: 0.26 (what ran since).
	if limit := float64(len(proposal)); garbage > limit {
		t.Errorf("after the release %.0f KiB of Lua garbage was left, want under %.0f (the proposal's size)", garbage/1024, limit/1024)
	}
	callTool(t, d.c, "close_tab", map[string]string{"tab_name": "large"})
	answer(t, p)
	d.assertClosed("after the large diff")
}

// largeManyHunkFile writes large.txt, 30 000 lines, and returns it with a proposal that
// changes one line in 50 (600 hunks).
func largeManyHunkFile(d *diffEnv) (path, proposal string) {
	var file, prop strings.Builder
	for n := range 30000 {
		line := fmt.Sprintf("line %d of a large file", n+1)
		file.WriteString(line + "\n")
		if n%50 == 25 {
			line = fmt.Sprintf("line %d CHANGED", n+1)
		}
		prop.WriteString(line + "\n")
	}
	return d.nv.WriteFile("large.txt", file.String()), prop.String()
}
