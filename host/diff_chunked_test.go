package host

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// manyHunkProposal builds a file of n lines and a proposal of it with a
// change every 50 lines (the outside harness's rate), a line inserted
// every 1,400 and one deleted every 1,400, none next to another; stops
// lists the proposal's line numbers ]c stops at, in order.
func manyHunkProposal(n int) (file, proposal string, stops []int) {
	var f, p strings.Builder
	out := 0 // proposal lines so far
	for i := range n {
		line := fmt.Sprintf("line %06d: some text to make it as long as a line of code", i+1)
		f.WriteString(line + "\n")
		switch {
		case i%1400 == 6: // deleted: ]c stops on the line below the gap
			stops = append(stops, out+1)
			continue
		case i%50 == 25:
			line = fmt.Sprintf("line %06d: CHANGED by the proposal", i+1)
			stops = append(stops, out+1)
		}
		p.WriteString(line + "\n")
		out++
		if i%1400 == 705 {
			p.WriteString(fmt.Sprintf("inserted after line %06d\n", i+1))
			out++
			stops = append(stops, out)
		}
	}
	return f.String(), p.String(), stops
}

// A proposal of megabytes reaches Neovim in pieces and is shown by steps
// (lua/claude/diff/large.lua): it must still be exactly Claude's text, in
// native diff mode. ]c walks every hunk in order, do and dp move the right
// lines, and :w accepts exactly the proposal.
func TestALargeProposalArrivingInPiecesIsExactlyClaudesText(t *testing.T) {
	d := newDiffEnv(t, "")
	file, proposal, stops := manyHunkProposal(30000) // 2 MiB: 8 pieces, 640 hunks
	path := d.nv.WriteFile("large.txt", file)
	d.nv.Cmd("edit " + path)
	p := d.openDiff(path, proposal, "pieces")

	var st struct {
		Same   bool   `msgpack:"same"`
		Stops  []int  `msgpack:"stops"`
		Got    string `msgpack:"got"`
		Undone string `msgpack:"undone"`
		Put    string `msgpack:"put"`
	}
	d.nv.Lua(&st, `
		local want = ...
		local prop, orig
		for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
			if vim.b[vim.api.nvim_win_get_buf(w)].claude_diff then prop = w elseif vim.wo[w].diff then orig = w end
		end
		local pbuf = vim.api.nvim_win_get_buf(prop)
		local out = { same = table.concat(vim.api.nvim_buf_get_lines(pbuf, 0, -1, false), "\n") .. "\n" == want }
		vim.api.nvim_set_current_win(prop)
		vim.api.nvim_win_set_cursor(prop, { 1, 0 })
		out.stops = {}
		while true do
			local before = vim.api.nvim_win_get_cursor(prop)[1]
			vim.cmd('normal! ]c')
			local now = vim.api.nvim_win_get_cursor(prop)[1]
			if now == before then break end
			table.insert(out.stops, now)
		end
		-- do on the first changed line (the file's 26th): the file's line comes over
		vim.api.nvim_win_set_cursor(prop, { 25, 0 })
		vim.cmd('normal! do')
		out.got = vim.api.nvim_buf_get_lines(pbuf, 24, 25, false)[1]
		vim.cmd('normal! u')
		out.undone = vim.api.nvim_buf_get_lines(pbuf, 24, 25, false)[1]
		-- dp on the first inserted line: it goes into the file's buffer
		vim.api.nvim_win_set_cursor(prop, { 706, 0 })
		vim.cmd('normal! dp')
		out.put = vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(orig), 706, 707, false)[1]
		return out`, proposal)
	if !st.Same {
		t.Errorf("the proposal's buffer differs from Claude's text (%d bytes)", len(proposal))
	}
	if !slices.Equal(st.Stops, stops) {
		first := 0
		for first < min(len(st.Stops), len(stops)) && st.Stops[first] == stops[first] {
			first++
		}
		t.Errorf("]c stopped %d times, want %d; first difference at stop %d: got %v, want %v", len(st.Stops), len(stops),
			first, st.Stops[first:min(first+3, len(st.Stops))], stops[first:min(first+3, len(stops))])
	}
	if st.Got != "line 000026: some text to make it as long as a line of code" || st.Undone != "line 000026: CHANGED by the proposal" {
		t.Errorf("do on the proposal's line 25 gave %q, undone %q; want the file's line, then the proposal's", st.Got, st.Undone)
	}
	if st.Put != "inserted after line 000706" {
		t.Errorf("dp of the inserted line put %q into the file's line 707, want it", st.Put)
	}

	d.nv.Cmd("write") // accept, in the proposal's window
	if got := answer(t, p); got[0] != "FILE_SAVED" || got[1] != proposal {
		t.Errorf("accepting answered %q and %d bytes, want FILE_SAVED and exactly the proposal (%d bytes)", got[0], len(got[1]), len(proposal))
	}
	d.assertUntouched(path, file)
}

// A large proposal is made ready by steps after its call returns; the
// typing rule is applied when it is ready: a user typing in their file
// (the only window) keeps it and their keys, the diff waits for
// :Claude review focus, and their unsaved text is still theirs after.
func TestALargeProposalArrivingWhileTheUserTypesWaitsAndTheKeysStayTheirs(t *testing.T) {
	d := newDiffEnv(t, `require('claude.typing').QUIET_MS = 600000`)
	file, proposal, _ := manyHunkProposal(30000)
	path := d.nv.WriteFile("large.txt", file)
	d.nv.Cmd("edit " + path)
	d.nv.Keys("ggOtyped ")
	p := d.startDiff(path, proposal, "typing")
	nvimtest.Wait(t, "the proposal to wait for the user", waitTimeout, func() bool {
		return strings.Contains(d.nv.Messages(), "it waits until you go to it")
	})
	d.nv.Keys("on<Esc>")
	var st struct {
		Line  string `msgpack:"line"`
		Wins  int    `msgpack:"wins"`
		Mode  string `msgpack:"mode"`
		Shown bool   `msgpack:"shown"`
	}
	d.nv.Lua(&st, `return { line = vim.api.nvim_buf_get_lines(0, 0, 1, false)[1], wins = #vim.api.nvim_list_wins(),
		mode = vim.api.nvim_get_mode().mode, shown = vim.wo.diff }`)
	if st.Line != "typed on" || st.Wins != 1 || st.Shown || st.Mode != "n" {
		t.Errorf("after typing on: line 1 %q, %d windows, diff mode %v, mode %q; want the user's text in their only window, no diff", st.Line, st.Wins, st.Shown, st.Mode)
	}

	d.nv.Cmd("ClaudeDiffFocus")
	nvimtest.Next(t, d.opened, "the diff to open on :Claude review focus", waitTimeout)
	d.nv.Cmd("ClaudeDiffReject")
	if got := answer(t, p); got[0] != "DIFF_REJECTED" {
		t.Errorf("answer %q, want the user's rejection", got)
	}
	var line string
	d.nv.Lua(&line, `return vim.api.nvim_buf_get_lines(vim.fn.bufnr(...), 0, 1, false)[1]`, path)
	if line != "typed on" {
		t.Errorf("after rejecting, the file's buffer starts with %q, want the user's unsaved %q", line, "typed on")
	}
	d.assertUntouched(path, file)
}
