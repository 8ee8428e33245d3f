package host

import (
	"fmt"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// Per-hunk decisions in an openDiff proposal (issue 24): the take-back and keep keys change
// the proposal hunk by hunk, the winbar counts them, and accepting sends the proposal as
// left to the CLI.

// threeHunks changes line 2, deletes line 4 and adds a line at the end of hunkFile.
const (
	hunkFile   = "one\ntwo\nthree\nfour\nfive\nsix\nseven\n"
	threeHunks = "one\nTWO\nthree\nfive\nsix\nseven\neight\n"
)

// hunkState is the proposal as the user sees it after a key: its text, the winbar, and the
// cursor's line in the current window.
type hunkState struct {
	Text   string `msgpack:"text"`
	Line   int    `msgpack:"line"`
	Winbar string `msgpack:"winbar"`
}

func (d *diffEnv) hunkState() hunkState {
	d.t.Helper()
	var s hunkState
	d.nv.Lua(&s, `
		for _, w in ipairs(vim.api.nvim_list_wins()) do
			local b = vim.api.nvim_win_get_buf(w)
			if vim.b[b].claude_diff then
				return {
					text = table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), "\n") .. "\n",
					line = vim.fn.line('.'), -- of the current window, either side
					winbar = vim.api.nvim_eval_statusline(vim.wo[w].winbar, { winid = w, use_winbar = true }).str,
				}
			end
		end
		return {}`)
	return s
}

func TestPerHunkKeysInAProposal(t *testing.T) {
	tests := []struct {
		name string
		// act runs with the cursor on line 1 of the proposal.
		act func(d *diffEnv)
		// text and line: the proposal and the cursor after act (0: anywhere); status: the
		// winbar's count.
		text   string
		line   int
		status string
	}{
		{"taking back a changed line puts the file's line back and goes to the next open hunk",
			func(d *diffEnv) { d.nv.Keys(`2G\ab`) },
			"one\ntwo\nthree\nfive\nsix\nseven\neight\n", 4, "3 hunks: 1 taken back, 2 open"},
		{"keeping a hunk leaves Claude's text and goes to the next open hunk",
			func(d *diffEnv) { d.nv.Keys(`2G\ak`) },
			threeHunks, 4, "3 hunks: 1 kept, 2 open"},
		{"taking back a deletion brings the deleted line back",
			func(d *diffEnv) { d.nv.Keys(`4G\ab`) },
			"one\nTWO\nthree\nfour\nfive\nsix\nseven\neight\n", 8, "3 hunks: 1 taken back, 2 open"},
		{"taking back an added line at the end removes it",
			func(d *diffEnv) { d.nv.Keys(`G\ab`) },
			"one\nTWO\nthree\nfive\nsix\nseven\n", 2, "3 hunks: 1 taken back, 2 open"},
		{"keeping a hunk taken back gives it Claude's text again",
			func(d *diffEnv) { d.nv.Keys(`2G\ab2G\ak`) },
			threeHunks, 4, "3 hunks: 1 kept, 2 open"},
		{"every hunk taken back leaves the file's text",
			func(d *diffEnv) { d.nv.Keys(`2G\ab\ab\ab`) },
			hunkFile, 7, "3 hunks: 3 taken back"},
		{"the keys work from the file's window too",
			func(d *diffEnv) { d.nv.Keys(`<C-w>p2G\ab`) },
			"one\ntwo\nthree\nfive\nsix\nseven\neight\n", 4, "3 hunks: 1 taken back, 2 open"},
		{"the commands do what the keys do",
			func(d *diffEnv) { d.nv.Cmd("2"); d.nv.Cmd("ClaudeDiffTakeBack"); d.nv.Cmd("ClaudeDiffKeep") },
			"one\ntwo\nthree\nfive\nsix\nseven\neight\n", 7, "3 hunks: 1 taken back, 1 kept, 1 open"},
		{"remapped through <Plug> keys", func(d *diffEnv) {
			d.nv.Lua(nil, `require('claude').setup({ diff = { keymaps = { take_back = false, keep = false } } })
				vim.keymap.set('n', 'gb', '<Plug>(ClaudeDiffTakeBack)')`)
			d.nv.Keys(`2Ggb`)
		}, "one\ntwo\nthree\nfive\nsix\nseven\neight\n", 4, "3 hunks: 1 taken back, 2 open"},
		{"a line no hunk holds changes nothing",
			func(d *diffEnv) { d.nv.Keys(`1G\ab`) },
			threeHunks, 1, "3 hunks open"},
		{"Vim's do counts as taking the hunk back",
			func(d *diffEnv) { d.nv.Keys(`2Gdo`) },
			"one\ntwo\nthree\nfive\nsix\nseven\neight\n", 2, "3 hunks: 1 taken back, 2 open"},
		{"undoing a take back opens the hunk again",
			func(d *diffEnv) { d.nv.Keys(`2G\ab4G\abu`) },
			"one\ntwo\nthree\nfive\nsix\nseven\neight\n", 0, "3 hunks: 1 taken back, 2 open"},
		{"deleting Claude's added line by hand counts as taking it back",
			func(d *diffEnv) { d.nv.Keys(`Gdd`) },
			"one\nTWO\nthree\nfive\nsix\nseven\n", 0, "3 hunks: 1 taken back, 2 open"},
		{":e! starts the decisions over",
			func(d *diffEnv) { d.nv.Keys(`2G\ab`); d.nv.Cmd("edit!") },
			threeHunks, 0, "3 hunks open"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDiffEnv(t, `vim.o.columns = 300`)
			d.nv.Cmd("call writefile(['one', 'two', 'three', 'four', 'five', 'six', 'seven'], expand('%')) | edit!")
			p := d.openDiff(d.path, threeHunks, tab)
			if st := d.hunkState(); !strings.Contains(st.Winbar, "3 hunks open") {
				t.Errorf("as the proposal opens, its winbar shows %q, want 3 open hunks", st.Winbar)
			}
			d.nv.Cmd("1")
			tt.act(d)
			// Changes made with Vim's own keys are counted once the main loop is free.
			nvimtest.Wait(t, "the winbar to show "+tt.status, waitTimeout, func() bool {
				return strings.Contains(d.hunkState().Winbar, tt.status)
			})
			st := d.hunkState()
			if st.Text != tt.text {
				t.Errorf("the proposal holds %q, want %q", st.Text, tt.text)
			}
			if tt.line != 0 && st.Line != tt.line {
				t.Errorf("the cursor is on line %d of the proposal, want %d", st.Line, tt.line)
			}
			if !strings.Contains(st.Winbar, tt.status) {
				t.Errorf("the winbar shows %q, want %q in it", st.Winbar, tt.status)
			}
			d.nv.Cmd("ClaudeDiffAccept") // the rest as proposed
			if got := answer(t, p); len(got) != 2 || got[0] != "FILE_SAVED" || got[1] != tt.text {
				t.Errorf("openDiff answered %q, want [FILE_SAVED %q]: the proposal as the user left it", got, tt.text)
			}
			d.assertClosed("after accepting")
			d.assertUntouched(d.path, hunkFile)
			var marks int
			d.nv.Lua(&marks, `return #vim.api.nvim_buf_get_extmarks(vim.fn.bufnr(...), -1, 0, -1, {})`, d.path)
			if marks != 0 {
				t.Errorf("%d extmarks left on the file's buffer after the review, want none", marks)
			}
		})
	}
}

// On the user's own file buffer a hunk key never hides a map of theirs, global ones included.
func TestAHunkKeyTheUserMappedStaysTheirsInTheirFile(t *testing.T) {
	d := newDiffEnv(t, `vim.keymap.set('n', '<leader>ab', '<Cmd>let g:mine = 1<CR>')`)
	p := d.openDiff(d.path, proposed, tab)
	d.nv.Keys(`<C-w>p2G\ab`)
	var mine int
	d.nv.Lua(&mine, `return vim.g.mine or 0`)
	if st := d.hunkState(); mine != 1 || st.Text != proposed {
		t.Errorf("\\ab in the file's window: g:mine = %d, proposal %q; want the user's map run and the proposal untouched", mine, st.Text)
	}
	d.nv.Keys(`<C-w>p2G\ab`) // in the proposal, ours
	if st := d.hunkState(); st.Text != original {
		t.Errorf("\\ab in the proposal left %q, want the hunk taken back: %q", st.Text, original)
	}
	d.nv.Cmd("ClaudeDiffAccept")
	if got := answer(t, p); len(got) != 2 || got[1] != original {
		t.Errorf("openDiff answered %q, want the file's text", got)
	}
}

// Two proposals for one file (two sessions): closing one leaves the other's hunks working,
// though both mark the same file buffer.
func TestTwoProposalsForOneFileKeepTheirOwnHunks(t *testing.T) {
	d := newDiffEnv(t, `vim.o.columns = 300`)
	first := d.openDiff(d.path, proposed, "first")
	second := d.openDiff(d.path, "one\ntwo\nTHREE\n", "second") // in a tab page of its own
	callTool(t, d.c, "close_tab", map[string]string{"tab_name": "first"})
	answer(t, first)
	d.nv.Cmd("ClaudeDiffFocus")
	d.nv.Keys(`3G\ab`)
	if st := d.hunkState(); st.Text != original || !strings.Contains(st.Winbar, "1 hunk: 1 taken back") {
		t.Errorf("after the first closed, taking back the second's hunk left %q, winbar %q; want the file's text, 1 taken back", st.Text, st.Winbar)
	}
	d.nv.Cmd("ClaudeDiffReject")
	answer(t, second)
}

// The CLI takes the file's own text as a rejection: the user hears so when they accept it.
func TestAcceptingWithEveryHunkTakenBackSaysItIsARejection(t *testing.T) {
	d := newDiffEnv(t, "")
	p := d.openDiff(d.path, proposed, tab)
	d.nv.Keys(`2G\ab\aa`)
	if got := answer(t, p); len(got) != 2 || got[0] != "FILE_SAVED" || got[1] != original {
		t.Errorf("openDiff answered %q, want FILE_SAVED with the file's text", got)
	}
	if msgs := d.nv.Messages(); !strings.Contains(msgs, "every change taken back: Claude takes that as a rejection") {
		t.Errorf("messages %q, want the user told the CLI takes it as a rejection", msgs)
	}
}

func TestAProposalRejectedAfterATakeBackLeavesTheFileAlone(t *testing.T) {
	d := newDiffEnv(t, "")
	p := d.openDiff(d.path, proposed, tab)
	d.nv.Keys(`2G\ab`)
	d.nv.Keys(`\ad`)
	if got := answer(t, p); len(got) != 2 || got[0] != "DIFF_REJECTED" {
		t.Errorf("openDiff answered %q, want DIFF_REJECTED", got)
	}
	d.assertClosed("after rejecting")
	d.assertUntouched(d.path, original)
}

// Narrower, the hunks' state goes before any key, and the keys stay, :w and :q too: at half
// an 80-column screen (the file and the proposal side by side) the winbar still says how to
// accept and reject (issue 36). The state reads as words.
func TestTheWinbarDropsTheHunksStateBeforeAnyKey(t *testing.T) {
	for _, tt := range []struct {
		columns int
		want    string
	}{
		{200, ` Claude proposal  \aa accept · \ad reject · :w accept · :q reject │ 1 hunk open`},
		{120, ` Claude proposal  \aa, :w accept · \ad, :q reject`},
		{80, ` Claude  \aa, :w accept · \ad, :q reject`},
	} {
		t.Run(fmt.Sprint(tt.columns, " columns"), func(t *testing.T) {
			d := newDiffEnv(t, fmt.Sprintf(`vim.o.columns = %d`, tt.columns))
			p := d.openDiff(d.path, proposed, tab)
			if bar := strings.TrimRight(d.renderedWinbar(), " "); bar != tt.want {
				t.Errorf("the proposal's winbar shows %q, want %q", bar, tt.want)
			}
			d.nv.Cmd("ClaudeDiffDeny")
			answer(t, p)
		})
	}
}

func TestTheWinbarNamesThePerHunkKeys(t *testing.T) {
	d := newDiffEnv(t, `vim.o.columns = 400`)
	p := d.openDiff(d.path, proposed, tab)
	want := `\aa accept · \ad reject · :w accept · :q reject · \ab take back · \aw why · \ak keep │ 1 hunk open`
	if bar := d.renderedWinbar(); !strings.Contains(bar, want) {
		t.Errorf("the proposal's winbar shows %q, want %q in it", bar, want)
	}
	d.nv.Cmd("ClaudeDiffDeny")
	answer(t, p)
}

// The large path (claude.diff.large) finds its hunks in a worker thread: the keys use them.
func TestPerHunkKeysInALargeProposal(t *testing.T) {
	d := newDiffEnv(t, `vim.o.columns = 300`)
	var file, proposal, want strings.Builder
	for n := range 30000 {
		line := fmt.Sprintf("line %d of a large file", n+1)
		file.WriteString(line + "\n")
		kept := line
		if n%50 == 25 {
			line = fmt.Sprintf("line %d CHANGED", n+1)
			kept = line
			if n == 75 {
				kept = fmt.Sprintf("line %d of a large file", n+1) // the one taken back
			}
		}
		proposal.WriteString(line + "\n")
		want.WriteString(kept + "\n")
	}
	path := d.nv.WriteFile("large.txt", file.String())
	d.nv.Cmd("edit " + path)
	p := d.openDiff(path, proposal.String(), "large")
	d.nv.Cmd("ClaudeDiffFocus")
	d.nv.Keys(`26G\ak`) // the first kept, the cursor on to the second
	var line int
	d.nv.Lua(&line, `return vim.fn.line('.')`)
	if line != 76 {
		t.Errorf("after keeping the first hunk the cursor is on line %d, want 76 (the next hunk)", line)
	}
	d.nv.Keys(`\ab`)
	if bar := d.renderedWinbar(); !strings.Contains(bar, "600 hunks: 1 taken back, 1 kept, 598 open") {
		t.Errorf("the winbar shows %q, want 600 hunks: 1 taken back, 1 kept", bar)
	}
	d.nv.Cmd("ClaudeDiffAccept")
	if got := answer(t, p); len(got) != 2 || got[0] != "FILE_SAVED" || got[1] != want.String() {
		t.Errorf("openDiff answered %q with %d bytes, want FILE_SAVED with line 76 taken back", got[0], len(got[1]))
	}
	d.assertClosed("after the large diff")
}
