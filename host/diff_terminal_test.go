package host

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// Neovim resizes a terminal to the full editor width when, with that terminal as the current
// window, a buffer no window shows gets an option or a name set. A diff usually opens while
// the user is in Claude's terminal; the CLI must keep drawing for the width of its split.
func TestOpeningADiffFromClaudesTerminalKeepsItsSize(t *testing.T) {
	for _, tt := range []struct{ name, file string }{
		{"for an existing file", "greet.txt"},
		{"for a new file", "new.txt"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := newDiffEnv(t, idleCLI)
			d.nv.Cmd("set columns=200 | ClaudeOpen")
			var pid, width int
			d.nv.Lua(&pid, `return vim.fn.jobpid(vim.b[require('claude.terminal').buf()].terminal_job_id)`)
			d.nv.Lua(&width, `return vim.api.nvim_win_get_width(0)`)
			p := d.openDiff(filepath.Join(filepath.Dir(d.path), tt.file), proposed, tab)
			if got := ptyColumns(t, pid); got != width {
				t.Errorf("with the diff open, the terminal's pty is %d columns wide, want its window's %d", got, width)
			}
			d.nv.Cmd("ClaudeDiffDeny")
			answer(t, p)
		})
	}
}

// ptyColumns reads the width of the terminal pid runs in.
func ptyColumns(t *testing.T, pid int) int {
	t.Helper()
	tty, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/0", pid))
	if err != nil {
		t.Skipf("cannot find the terminal of %d: %v", pid, err)
	}
	out, err := exec.Command("stty", "-F", tty, "size").Output()
	if err != nil {
		t.Skipf("stty -F %s size: %v", tty, err)
	}
	var rows, cols int
	if _, err := fmt.Sscan(strings.TrimSpace(string(out)), &rows, &cols); err != nil {
		t.Fatalf("stty size printed %q", out)
	}
	return cols
}

// waitMode waits until Neovim is in mode: :startinsert takes effect only
// when Neovim next waits for keys.
func waitMode(t testing.TB, nv *nvimtest.Nvim, mode string) {
	t.Helper()
	nvimtest.Wait(t, "mode "+mode, waitTimeout, func() bool {
		var m struct {
			Mode string `msgpack:"mode"`
		}
		if err := nv.Call("nvim_get_mode", &m); err != nil {
			t.Fatal(err)
		}
		return m.Mode == mode
	})
}

// The user submits a prompt in Claude's terminal and keeps typing a
// follow-up, as the CLI invites, while Claude's edit arrives: every key must
// reach the terminal, none the proposal.
func TestKeysTypedIntoClaudesTerminalNeverReachAProposal(t *testing.T) {
	d := newDiffEnv(t, idleCLI)
	d.nv.Cmd("Claude focus insert") // starts Claude, in Terminal mode to type
	waitMode(t, d.nv, "t")
	if _, err := d.nv.Input("and then "); err != nil {
		t.Fatal(err)
	}
	p := d.startDiff(d.path, proposed, tab)
	// The keys the issue saw land in the proposal as Normal-mode commands.
	if _, err := d.nv.Input("#o the README"); err != nil {
		t.Fatal(err)
	}
	nvimtest.Next(t, d.opened, "the diff to open beside the terminal", waitTimeout)
	if _, err := d.nv.Input(" too<CR>"); err != nil {
		t.Fatal(err)
	}
	waitMode(t, d.nv, "t")
	var st struct {
		InTerminal bool   `msgpack:"in_terminal"`
		Proposal   string `msgpack:"proposal"`
		Modified   bool   `msgpack:"modified"`
		Shown      bool   `msgpack:"shown"`
	}
	d.nv.Lua(&st, `
		local out = { in_terminal = vim.b.claude_terminal == true, proposal = "", modified = false, shown = false }
		for _, b in ipairs(vim.api.nvim_list_bufs()) do
			if vim.b[b].claude_diff then
				out.proposal = table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), "\n") .. "\n"
				out.modified = vim.bo[b].modified
				out.shown = #vim.fn.win_findbuf(b) > 0
			end
		end
		return out`)
	if !st.InTerminal {
		t.Errorf("the diff took the focus from Claude's terminal while the user typed in it")
	}
	if st.Proposal != proposed || st.Modified || !st.Shown {
		t.Errorf("the proposal holds %q (modified %v, shown %v); want %q untouched and on screen", st.Proposal, st.Modified, st.Shown, proposed)
	}
	nvimtest.Wait(t, "the typed keys to reach the terminal", waitTimeout, func() bool {
		var text string
		d.nv.Lua(&text, `return table.concat(vim.api.nvim_buf_get_lines(require('claude.terminal').buf(), 0, -1, false), "\n")`)
		return strings.Contains(text, "and then #o the README too")
	})
	if msgs := d.nv.Messages(); !strings.Contains(msgs, "Claude proposes a change to greet.txt: the diff is open beside; :Claude review focus goes to it") {
		t.Errorf("the user was not told where the diff is; messages: %q", msgs)
	}
	d.nv.Cmd("ClaudeDiffFocus")
	var inProposal bool
	d.nv.Lua(&inProposal, `return vim.b.claude_diff ~= nil`)
	if !inProposal {
		t.Errorf(":Claude review focus did not go to the proposal")
	}
	d.nv.Cmd("ClaudeDiffAccept")
	if got := answer(t, p); got[0] != "FILE_SAVED" || got[1] != proposed {
		t.Errorf("answer %q, want the proposal as sent", got)
	}
}

func TestADiffOpensWhenOnlyClaudesTerminalIsShown(t *testing.T) {
	d := newDiffEnv(t, idleCLI)
	d.nv.Cmd("ClaudeOpen")
	d.nv.Cmd("only")
	p := d.openDiff(d.path, proposed, tab)
	var wins []string
	d.nv.Lua(&wins, `
		local out = {}
		for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
			local b = vim.api.nvim_win_get_buf(w)
			table.insert(out, vim.bo[b].buftype .. ':' .. tostring(vim.wo[w].diff))
		end
		return out`)
	if strings.Join(wins, " ") != ":true acwrite:true terminal:false" {
		t.Errorf("windows = %v, want the file and the proposal in diff mode beside the terminal", wins)
	}
	d.nv.Cmd("ClaudeDiffDeny")
	answer(t, p)
	var n int
	d.nv.Lua(&n, `return #vim.api.nvim_list_wins()`)
	if n != 1 {
		t.Errorf("%d windows after the diff closed, want only the terminal again", n)
	}
	d.assertClosed("after rejecting")
}

func TestAFloatingTerminalStepsAsideForADiff(t *testing.T) {
	d := newDiffEnv(t, `require('claude').setup({ terminal_cmd = { 'sh', '-c', 'exec cat', 'cli' }, permission_mode = false, terminal = { position = 'float', float = { width = 0.5, height = 10 } } })`)
	// Claude's floating terminal in this tab page: shown, its size, focused.
	floating := func() (shown bool, width, height int, focused bool) {
		var st struct {
			Shown   bool `msgpack:",array"`
			Width   int
			Height  int
			Focused bool
		}
		d.nv.Lua(&st, `
			local buf = require('claude.terminal').buf()
			for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
				if vim.api.nvim_win_get_buf(w) == buf and vim.api.nvim_win_get_config(w).relative ~= '' then
					return { true, vim.api.nvim_win_get_width(w), vim.api.nvim_win_get_height(w), w == vim.api.nvim_get_current_win() }
				end
			end
			return { false, 0, 0, false }`)
		return st.Shown, st.Width, st.Height, st.Focused
	}
	var columns int
	d.nv.Lua(&columns, `return vim.o.columns`)

	d.nv.Cmd("ClaudeOpen")
	if shown, w, h, focused := floating(); !shown || w != columns/2 || h != 10 || !focused {
		t.Fatalf("after :Claude open: float shown %v, %dx%d, focused %v; want a focused %dx10 float", shown, w, h, focused, columns/2)
	}
	waitMode(t, d.nv, "nt") // a command leaves the cursor in Normal mode (terminal.focus_insert)
	d.nv.Cmd("set columns=100 | doautocmd VimResized")
	if shown, w, _, _ := floating(); !shown || w != 50 {
		t.Errorf("after the editor shrank to 100 columns the float is %d wide (shown %v), want 50", w, shown)
	}
	d.nv.Cmd("ClaudeToggle")
	if shown, _, _, _ := floating(); shown {
		t.Errorf(":Claude toggle left the float shown")
	}
	d.nv.Cmd("ClaudeToggle")
	d.nv.Cmd("Claude focus insert")
	// :Claude focus insert's :startinsert takes effect only when Neovim next waits
	// for keys. A diff arriving before that finds the user idle in the
	// float's Normal mode (no key typed: these are RPC commands), so it
	// rightly takes the focus: 20 of 300 runs failed so, under load.
	waitMode(t, d.nv, "t")

	// Typing into the float (terminal mode), the diff waits until the user
	// goes to it: it would take the focus, and the float would cover it.
	p := d.startDiff(d.path, proposed, tab)
	nvimtest.Wait(t, "the diff to be registered", waitTimeout, func() bool {
		v, _, _ := d.viewState()
		return v == 1
	})
	if shown, _, _, focused := floating(); !shown || !focused {
		var mode string
		d.nv.Lua(&mode, `return vim.api.nvim_get_mode().mode`)
		t.Errorf("a diff arriving in terminal mode: float shown %v, focused %v (mode %q now); want it left as it is; messages:\n%s", shown, focused, mode, d.nv.Messages())
	}
	d.nv.Keys(`<C-\><C-n>`)
	if _, wins, _ := d.viewState(); wins != 0 {
		t.Errorf("the diff opened by itself once the user left terminal mode")
	}
	d.nv.Cmd("ClaudeDiffFocus")
	nvimtest.Next(t, d.opened, "the diff to open on :Claude review focus", waitTimeout)
	if shown, _, _, _ := floating(); shown {
		t.Errorf("the float still covers the diff")
	}
	var cur string
	d.nv.Lua(&cur, `return vim.bo.buftype`)
	if cur != "acwrite" {
		t.Errorf("focus is in a %q buffer, want the proposal", cur)
	}
	d.nv.Cmd("write")
	answer(t, p)
	nvimtest.Next(t, d.closed, "the diff to close", waitTimeout)
	if shown, _, _, focused := floating(); !shown || !focused {
		t.Errorf("after the diff: float shown %v, focused %v; want it back with focus", shown, focused)
	}
}

// A proposal offered beside a typing user says so in a message, which leaves the screen
// when the CLI closes the view (close_tab): close_tab withdraws the message of a view that
// told the user something (and loads nothing for one that did not).
func TestClosingAnOfferedDiffWithdrawsItsMessage(t *testing.T) {
	d := newDiffEnv(t, idleCLI)
	d.nv.Lua(nil, `
		local notify = require('claude.notify')
		local withdraw = notify.withdraw
		vim.g.claude_test_withdrawn = {}
		notify.withdraw = function(tag)
			vim.g.claude_test_withdrawn = vim.list_extend(vim.g.claude_test_withdrawn, { tag })
			return withdraw(tag)
		end`)
	d.nv.Cmd("Claude focus insert")
	waitMode(t, d.nv, "t")
	if _, err := d.nv.Input("and then "); err != nil {
		t.Fatal(err)
	}
	p := d.startDiff(d.path, proposed, tab)
	nvimtest.Next(t, d.opened, "the diff to open beside the terminal", waitTimeout)
	if msgs := d.nv.Messages(); !strings.Contains(msgs, "the diff is open beside") {
		t.Fatalf("the user was not told where the diff is; messages: %q", msgs)
	}
	callTool(t, d.c, "close_tab", map[string]string{"tab_name": tab})
	answer(t, p)
	nvimtest.Wait(t, "the offer's message to be withdrawn", waitTimeout, func() bool {
		var tags []string
		d.nv.Lua(&tags, `return vim.g.claude_test_withdrawn`)
		return len(tags) == 1 && strings.HasPrefix(tags[0], "diff:")
	})
}
