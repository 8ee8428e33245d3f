package host

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

const original = "one\ntwo\nthree\n"
const proposed = "one\nTWO\nthree\n"

// diffEnv is an editor with a file open and a connected client.
type diffEnv struct {
	*env
	c      *mcptest.Client
	path   string
	opened <-chan map[string]any
	closed <-chan map[string]any
}

func newDiffEnv(t testing.TB, setup string, opts ...nvimtest.Option) *diffEnv {
	e := newEnv(t, opts...)
	if setup != "" {
		e.nv.Lua(nil, setup)
	}
	d := &diffEnv{env: e, path: e.nv.WriteFile("greet.txt", original)}
	d.opened = e.nv.UserEvents("ClaudeDiffOpened")
	d.closed = e.nv.UserEvents("ClaudeDiffClosed")
	d.c = e.connect()
	e.nv.Cmd("edit " + d.path)
	return d
}

// startDiff sends openDiff like the CLI.
func (d *diffEnv) startDiff(path, contents, tab string) *mcptest.Pending {
	d.t.Helper()
	p, err := d.c.Start("tools/call", map[string]any{"name": "openDiff", "arguments": map[string]any{
		"old_file_path": path, "new_file_path": path, "new_file_contents": contents, "tab_name": tab,
	}})
	if err != nil {
		d.t.Fatal(err)
	}
	return p
}

// openDiff sends openDiff like the CLI and waits until the view is shown.
func (d *diffEnv) openDiff(path, contents, tab string) *mcptest.Pending {
	d.t.Helper()
	p := d.startDiff(path, contents, tab)
	var ev map[string]any
	select {
	case ev = <-d.opened:
	case <-time.After(waitTimeout):
		// Why it waits (the user's mode, a message) is what a rare failure needs.
		var why string
		d.nv.Lua(&why, `local m = vim.api.nvim_get_mode()
			return string.format("mode %s (blocking %s), state %q, in %s, busy: %s",
				m.mode, tostring(m.blocking), vim.fn.state(), vim.api.nvim_buf_get_name(0),
				tostring(require("claude.typing").busy()))`)
		d.t.Fatalf("timed out after %v waiting for the diff to open: %s\n:messages\n%s", waitTimeout, why, d.nv.Messages())
	}
	if ev["tab_name"] != tab {
		d.t.Fatalf("opened %v, want tab %q", ev, tab)
	}
	return p
}

// answer waits for openDiff's answer and returns its text blocks.
func answer(t testing.TB, p *mcptest.Pending) []string {
	t.Helper()
	raw, err := p.Wait()
	if err != nil {
		t.Fatalf("openDiff: %v", err)
	}
	var res struct {
		Content []struct{ Text string } `json:"content"`
		IsError bool                    `json:"isError"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("openDiff error: %s", raw)
	}
	var out []string
	for _, c := range res.Content {
		out = append(out, c.Text)
	}
	return out
}

// viewState describes the editor after a diff: our views, diff windows,
// proposal buffers.
func (d *diffEnv) viewState() (views, diffWins, proposals int) {
	var s struct {
		Views     int `msgpack:"views"`
		DiffWins  int `msgpack:"diff_wins"`
		Proposals int `msgpack:"proposals"`
	}
	d.nv.Lua(&s, `
		local n, p = 0, 0
		for _, w in ipairs(vim.api.nvim_list_wins()) do if vim.wo[w].diff then n = n + 1 end end
		for _, b in ipairs(vim.api.nvim_list_bufs()) do if vim.b[b].claude_diff then p = p + 1 end end
		return { views = #require('claude.diff').ids(), diff_wins = n, proposals = p }`)
	return s.Views, s.DiffWins, s.Proposals
}

func (d *diffEnv) assertClosed(what string) {
	d.t.Helper()
	if v, w, p := d.viewState(); v != 0 || w != 0 || p != 0 {
		d.t.Errorf("%s: %d views, %d diff windows, %d proposal buffers left; want none", what, v, w, p)
	}
}

func (d *diffEnv) assertUntouched(path, want string) {
	d.t.Helper()
	if got := readFile(d.t, path); got != want {
		d.t.Errorf("file on disk = %q, want %q: the editor must never write it", got, want)
	}
}

const tab = "✻ [Claude Code] greet.txt (69f422) ⧉"

func TestAcceptingADiff(t *testing.T) {
	tests := []struct {
		name   string
		setup  string
		act    func(d *diffEnv)
		result string
	}{
		{"with :w in the proposal", "", func(d *diffEnv) { d.nv.Cmd("write") }, proposed},
		// Save-and-quit accepts too, and quits only the proposal.
		{"with :wq in the proposal", "", func(d *diffEnv) { d.nv.Cmd("wq") }, proposed},
		{"with :x typed in the untouched proposal", "", func(d *diffEnv) { d.nv.Keys(":x\r") }, proposed},
		{"with ZZ in the untouched proposal", "", func(d *diffEnv) { d.nv.Keys("ZZ") }, proposed},
		{"with the accept keymap", "", func(d *diffEnv) { d.nv.Keys(`\aa`) }, proposed},
		{"with a remapped accept key", `require('claude').setup({ diff = { keymaps = { accept = 'ga' } } })`,
			func(d *diffEnv) { d.nv.Keys("ga") }, proposed},
		{"with :Claude review accept from the file's window", "", func(d *diffEnv) {
			d.nv.Cmd("wincmd p")
			d.nv.Cmd("ClaudeDiffAccept")
		}, proposed},
		{"after editing the proposal", "", func(d *diffEnv) {
			d.nv.Cmd("call setline(3, 'THREE, by the user') | call append('$', 'added')")
			d.nv.Cmd("write")
		}, "one\nTWO\nTHREE, by the user\nadded\n"},
		{"after :e! dropped the user's edits to it", "", func(d *diffEnv) {
			d.nv.Cmd("call setline(1, 'scribble')")
			d.nv.Cmd("edit!")
			d.nv.Cmd("write")
		}, proposed},
		{"with hunks put back with do", "", func(d *diffEnv) {
			d.nv.Keys("gg]cdo")
			d.nv.Cmd("ClaudeDiffAccept")
		}, original},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDiffEnv(t, tt.setup)
			p := d.openDiff(d.path, proposed, tab)
			tt.act(d)
			got := answer(t, p)
			if len(got) != 2 || got[0] != "FILE_SAVED" || got[1] != tt.result {
				t.Errorf("openDiff answered %q, want [FILE_SAVED %q]", got, tt.result)
			}
			ev := nvimtest.Next(t, d.closed, "ClaudeDiffClosed", waitTimeout)
			if ev["result"] != "accepted" {
				t.Errorf("ClaudeDiffClosed %v, want result accepted", ev)
			}
			d.assertClosed("after accepting")
			d.assertUntouched(d.path, original)
			var fileWins int
			d.nv.Lua(&fileWins, `return #vim.fn.win_findbuf(vim.fn.bufnr(...))`, d.path)
			if fileWins != 1 {
				t.Errorf("after accepting, %d windows show the file, want its window kept", fileWins)
			}
		})
	}
}

func TestRejectingADiff(t *testing.T) {
	tests := []struct {
		name  string
		setup string
		act   func(d *diffEnv)
	}{
		{"with the reject keymap", "", func(d *diffEnv) { d.nv.Keys(`\ad`) }},
		{"with :Claude review reject", "", func(d *diffEnv) { d.nv.Cmd("ClaudeDiffDeny") }},
		{"by quitting the proposal's window", "", func(d *diffEnv) { d.nv.Cmd("quit") }},
		{"by quitting the proposal's window after editing it", "", func(d *diffEnv) {
			d.nv.Keys("Gochanged my mind<Esc>")
			if err := d.nv.Command("quit"); err != nil {
				d.t.Errorf(":q on an edited proposal: %v; the winbar promises :q rejects", err)
			}
		}},
		{"by wiping the proposal buffer", "", func(d *diffEnv) { d.nv.Cmd("bwipeout!") }},
		{"by closing its tab page", `require('claude').setup({ diff = { open_in_new_tab = true } })`,
			func(d *diffEnv) { d.nv.Cmd("tabclose") }},
		{"by quitting the proposal in its own tab page", `require('claude').setup({ diff = { open_in_new_tab = true } })`,
			func(d *diffEnv) { d.nv.Cmd("quit") }},
		{"by closing the tab page it opened in", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDiffEnv(t, tt.setup)
			act := tt.act
			if act == nil { // the user works in a second tab page and closes it
				d.nv.Cmd("tab split")
				act = func(d *diffEnv) { d.nv.Cmd("tabclose!") }
			}
			p := d.openDiff(d.path, proposed, tab)
			act(d)
			got := answer(t, p)
			if len(got) != 2 || got[0] != "DIFF_REJECTED" || got[1] != tab {
				t.Errorf("openDiff answered %q, want [DIFF_REJECTED %q]", got, tab)
			}
			d.assertClosed("after rejecting")
			d.assertUntouched(d.path, original)
			var tabs int
			d.nv.Lua(&tabs, `return #vim.api.nvim_list_tabpages()`)
			if tabs != 1 {
				t.Errorf("%d tab pages after rejecting, want 1: a tab page the diff opened must go", tabs)
			}
		})
	}
}

func TestCloseTabOnAPendingDiffClosesItAndWritesNothing(t *testing.T) {
	d := newDiffEnv(t, "")
	p := d.openDiff(d.path, proposed, tab)
	// The user answered in the CLI's prompt; the CLI sends close_tab twice.
	for i := 0; i < 2; i++ {
		if got := callTool(t, d.c, "close_tab", map[string]string{"tab_name": tab}); got[0] != "TAB_CLOSED" {
			t.Errorf("close_tab = %q", got)
		}
	}
	if got := answer(t, p); got[0] != "DIFF_REJECTED" {
		t.Errorf("the pending openDiff answered %q after close_tab; it must never be TAB_CLOSED or FILE_SAVED", got)
	}
	d.assertClosed("after close_tab")
	d.assertUntouched(d.path, original)
	var name string
	d.nv.Lua(&name, `return vim.api.nvim_buf_get_name(0)`)
	if name != d.path {
		t.Errorf("after close_tab the window shows %q, want the user's file back", name)
	}
}

func TestCloseAllDiffTabsClosesOnlyOurs(t *testing.T) {
	d := newDiffEnv(t, "")
	other := d.nv.WriteFile("other.txt", "a\nb\n")
	d.nv.Cmd("tabnew " + other + " | diffsplit " + d.path)
	d.nv.Cmd("tabnext 1")
	if got := callTool(t, d.c, "closeAllDiffTabs", nil); got[0] != "CLOSED_0_DIFF_TABS" {
		t.Errorf("closeAllDiffTabs with only the user's :diffsplit = %q, want CLOSED_0_DIFF_TABS", got)
	}
	var pending []*mcptest.Pending
	for _, name := range []string{"a.txt", "b.txt", "c.txt"} {
		path := d.nv.WriteFile(name, original)
		pending = append(pending, d.openDiff(path, proposed, "tab "+name))
		d.nv.Cmd("wincmd t")
	}
	if got := callTool(t, d.c, "closeAllDiffTabs", nil); got[0] != "CLOSED_3_DIFF_TABS" {
		t.Errorf("closeAllDiffTabs with 3 of ours = %q, want CLOSED_3_DIFF_TABS", got)
	}
	for _, p := range pending {
		if got := answer(t, p); got[0] != "DIFF_REJECTED" {
			t.Errorf("a closed pending diff answered %q", got)
		}
	}
	var userDiffWins int
	d.nv.Lua(&userDiffWins, `
		local n = 0
		for _, w in ipairs(vim.api.nvim_tabpage_list_wins(vim.api.nvim_list_tabpages()[2])) do
			if vim.wo[w].diff then n = n + 1 end
		end
		return n`)
	if userDiffWins != 2 {
		t.Errorf("the user's :diffsplit has %d diff windows left, want both", userDiffWins)
	}
}

func TestTheSameTabNameAgainReplacesTheOldDiff(t *testing.T) {
	d := newDiffEnv(t, "")
	first := d.openDiff(d.path, proposed, tab)
	second := d.openDiff(d.path, "one\ntwo\nTHREE\n", tab)
	if got := answer(t, first); got[0] != "DIFF_REJECTED" {
		t.Errorf("the replaced request answered %q, want DIFF_REJECTED", got)
	}
	if v, _, _ := d.viewState(); v != 1 {
		t.Errorf("%d views open, want only the new one", v)
	}
	d.nv.Cmd("write")
	if got := answer(t, second); got[0] != "FILE_SAVED" || got[1] != "one\ntwo\nTHREE\n" {
		t.Errorf("the new request answered %q", got)
	}
}

func TestADisconnectingClientClosesItsPendingDiffs(t *testing.T) {
	d := newDiffEnv(t, "")
	for _, name := range []string{"a.txt", "b.txt", "c.txt"} {
		path := d.nv.WriteFile(name, original)
		d.openDiff(path, proposed, "tab "+name)
	}
	d.c.Close()
	for i := 0; i < 3; i++ {
		ev := nvimtest.Next(t, d.closed, "the views to close", waitTimeout)
		if ev["result"] != "closed" {
			t.Errorf("ClaudeDiffClosed %v, want result closed", ev)
		}
	}
	d.assertClosed("after the client left")
	for _, name := range []string{"a.txt", "b.txt", "c.txt"} {
		d.assertUntouched(filepath.Join(d.nv.Cwd, name), original)
	}
}

func TestANewFile(t *testing.T) {
	for _, accept := range []bool{true, false} {
		t.Run(map[bool]string{true: "accepted", false: "rejected"}[accept], func(t *testing.T) {
			d := newDiffEnv(t, "")
			path := filepath.Join(d.nv.Cwd, "sub", "new.txt")
			p := d.openDiff(path, "brand new\n", "✻ [Claude Code] new.txt (740857) ⧉")
			var left []string
			d.nv.Lua(&left, `vim.cmd('wincmd p') local l = vim.api.nvim_buf_get_lines(0, 0, -1, false) vim.cmd('wincmd p') return l`)
			if len(left) != 1 || left[0] != "" {
				t.Errorf("left side of a new file = %q, want empty", left)
			}
			if accept {
				d.nv.Cmd("write")
			} else {
				d.nv.Cmd("ClaudeDiffDeny")
			}
			got := answer(t, p)
			// mcptest is no CLI release: the text as accepted, as for 2.1.332 (see mcp.savedText).
			if accept && (len(got) != 2 || got[0] != "FILE_SAVED" || got[1] != "brand new\n") {
				t.Errorf("accepted new file answered %q", got)
			}
			if !accept && got[0] != "DIFF_REJECTED" {
				t.Errorf("rejected new file answered %q", got)
			}
			if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the editor created %s (stat: %v); only the CLI may", path, err)
			}
			d.assertClosed("after a new file")
		})
	}
}

func TestADirtyOriginalBufferKeepsItsEdits(t *testing.T) {
	d := newDiffEnv(t, "")
	d.nv.Cmd("call setline(1, 'ONE, unsaved')")
	p := d.openDiff(d.path, proposed, tab)
	var left []string
	d.nv.Lua(&left, `vim.cmd('wincmd p') local l = vim.api.nvim_buf_get_lines(0, 0, -1, false) vim.cmd('wincmd p') return l`)
	if strings.Join(left, "\n") != "ONE, unsaved\ntwo\nthree" {
		t.Errorf("left side = %q, want the buffer's unsaved text", left)
	}
	if msgs := d.nv.Messages(); !strings.Contains(msgs, "has unsaved changes") {
		t.Errorf("the user was not told about their unsaved changes; messages: %q", msgs)
	}
	d.nv.Cmd("write")
	if got := answer(t, p); got[0] != "FILE_SAVED" || got[1] != proposed {
		t.Errorf("answer %q", got)
	}
	var first string
	var modified bool
	d.nv.Lua(&first, `return vim.fn.getbufline(vim.fn.bufnr(...), 1)[1]`, d.path)
	d.nv.Lua(&modified, `return vim.bo[vim.fn.bufnr(...)].modified`, d.path)
	if first != "ONE, unsaved" || !modified {
		t.Errorf("the user's buffer now starts %q (modified %v), want their unsaved edit kept", first, modified)
	}
	d.assertUntouched(d.path, original)
}

func TestAFiveMebibyteProposal(t *testing.T) {
	d := newDiffEnv(t, "")
	var b strings.Builder
	for b.Len() < 5<<20 {
		b.WriteString("a line of a generated file, long enough to look like code();\n")
	}
	big := b.String()
	bigPath := d.nv.WriteFile("big.txt", strings.Replace(big, "generated", "GENERATED", 1))
	p := d.openDiff(bigPath, big, "big")
	d.nv.Cmd("write")
	if got := answer(t, p); got[0] != "FILE_SAVED" || got[1] != big {
		t.Errorf("5 MiB accept answered %q and %d bytes, want FILE_SAVED and the %d bytes", got[0], len(got[1]), len(big))
	}
	d.assertClosed("after the big diff")
}

// renderedWinbar is the proposal window's winbar as drawn at its width.
func (d *diffEnv) renderedWinbar() string {
	d.t.Helper()
	var bar string
	d.nv.Lua(&bar, `
		for _, w in ipairs(vim.api.nvim_list_wins()) do
			if vim.b[vim.api.nvim_win_get_buf(w)].claude_diff then
				return vim.api.nvim_eval_statusline(vim.wo[w].winbar, { winid = w, use_winbar = true }).str
			end
		end
		return ""`)
	return bar
}

func TestTheProposalsWinbarShowsTheKeysAsTyped(t *testing.T) {
	for _, tt := range []struct{ setup, want string }{
		{"", `\aa accept · \ad reject · :w accept · :q reject`},
		{`vim.g.mapleader = ' '`, `<Space>aa accept · <Space>ad reject · :w accept · :q reject`},
		{`require('claude').setup({ diff = { keymaps = { accept = 'ga', reject = false } } })`, `ga accept · :w accept · :q reject`},
	} {
		t.Run(tt.want, func(t *testing.T) {
			d := newDiffEnv(t, `vim.o.columns = 200 `+tt.setup)
			p := d.openDiff(d.path, proposed, tab)
			if bar := d.renderedWinbar(); !strings.Contains(bar, " Claude proposal ") || !strings.Contains(bar, tt.want) {
				t.Errorf("the proposal's winbar shows %q, want the label and %q", bar, tt.want)
			}
			d.nv.Cmd("ClaudeDiffDeny")
			answer(t, p)
		})
	}
}

// At common widths, beside Claude's terminal, the proposal is about a
// third of the screen: both keys must still show.
func TestTheProposalsWinbarKeepsBothKeysAtCommonWidths(t *testing.T) {
	for _, tt := range []struct {
		columns int
		setup   string
		want    []string
	}{
		{120, "", []string{`\aa`, `\ad`, "accept", "reject"}},
		{100, "", []string{`\aa`, `\ad`, "accept", "reject"}},
		{120, `vim.g.mapleader = ' '`, []string{`<Space>aa`, `<Space>ad`, "accept", "reject"}},
	} {
		t.Run(fmt.Sprintf("%d columns %s", tt.columns, tt.setup), func(t *testing.T) {
			d := newDiffEnv(t, fmt.Sprintf(`vim.o.columns = %d %s
				require('claude').setup({ terminal_cmd = { 'sh', '-c', 'exec cat', 'cli' }, permission_mode = false })`, tt.columns, tt.setup))
			d.nv.Cmd("ClaudeOpen") // in Normal mode (terminal.focus_insert)
			d.nv.Cmd("wincmd p")
			// In the file, idle: the proposal takes the focus (a user in the terminal's
			// Terminal mode would rightly be waited for: typing.lua).
			waitMode(t, d.nv, "n")
			p := d.openDiff(d.path, proposed, tab)
			bar := d.renderedWinbar()
			for _, key := range tt.want {
				if !strings.Contains(bar, key) {
					t.Errorf("the proposal's winbar shows %q, want %q in it", bar, key)
				}
			}
			d.nv.Cmd("ClaudeDiffDeny")
			answer(t, p)
		})
	}
}

// diffWhileTyping types keys, then sends openDiff, and checks that the
// diff is registered but not shown: the user is still typing.
func (d *diffEnv) diffWhileTyping(keys string) *mcptest.Pending {
	d.t.Helper()
	d.nv.Keys(keys)
	p := d.startDiff(d.path, proposed, tab)
	nvimtest.Wait(d.t, "the diff to be registered", waitTimeout, func() bool {
		v, _, _ := d.viewState()
		return v == 1
	})
	if _, wins, props := d.viewState(); wins != 0 || props != 0 {
		d.t.Errorf("after typing %q: %d diff windows, %d proposal buffers; want none yet", keys, wins, props)
	}
	return p
}

// leaveCmdwin closes q: and then the command line it returns to, as a user
// pressing CTRL-C twice (one at a time: together they leave the latter open).
func leaveCmdwin(d *diffEnv) {
	d.nv.Keys("<C-c>")
	d.nv.Keys("<C-c>")
}

// Nothing outside the command-line window (q:) can change while it is
// open: the diff waits, also after the user left it, until they go to it.
func TestADiffArrivingInTheCommandLineWindowWaitsUntilTheUserGoesToIt(t *testing.T) {
	for _, closeFirst := range []bool{false, true} {
		t.Run(map[bool]string{false: "then accepted", true: "closed by the CLI meanwhile"}[closeFirst], func(t *testing.T) {
			d := newDiffEnv(t, "")
			p := d.diffWhileTyping("q:")
			if closeFirst {
				callTool(t, d.c, "close_tab", map[string]string{"tab_name": tab})
				if got := answer(t, p); got[0] != "DIFF_REJECTED" {
					t.Errorf("answer %q", got)
				}
				leaveCmdwin(d)
				d.assertClosed("after close_tab and leaving the command-line window")
				return
			}
			leaveCmdwin(d)
			if _, wins, _ := d.viewState(); wins != 0 {
				t.Errorf("the diff opened by itself once the command-line window closed (%d diff windows)", wins)
			}
			d.nv.Cmd("ClaudeDiffFocus")
			nvimtest.Next(t, d.opened, "the diff to open on :Claude review focus", waitTimeout)
			d.nv.Cmd("write")
			if got := answer(t, p); got[0] != "FILE_SAVED" || got[1] != proposed {
				t.Errorf("answer %q", got)
			}
			d.assertClosed("after accepting")
			if msgs := d.nv.Messages(); strings.Contains(msgs, "E11") {
				t.Errorf("messages: %s", msgs)
			}
		})
	}
}

func TestADiffClosedWhileTheCommandLineWindowIsOpenGoesWhenTheUserLeavesIt(t *testing.T) {
	d := newDiffEnv(t, "")
	p := d.openDiff(d.path, proposed, tab)
	d.nv.Keys("q:")
	if got := callTool(t, d.c, "closeAllDiffTabs", nil); got[0] != "CLOSED_1_DIFF_TABS" {
		t.Errorf("closeAllDiffTabs = %q", got)
	}
	if got := answer(t, p); got[0] != "DIFF_REJECTED" {
		t.Errorf("answer %q", got)
	}
	leaveCmdwin(d)
	nvimtest.Next(t, d.closed, "the view to close", waitTimeout)
	d.assertClosed("after leaving the command-line window")
	d.assertUntouched(d.path, original)
}

// A proposal arriving while the user types must not catch their keys, nor
// open when they stop: it waits until they go to it (:Claude review focus).
func TestADiffWaitsWhileTheUserTypes(t *testing.T) {
	for _, tt := range []struct {
		name, before, after, wantLine string
	}{
		{"in Insert mode, then :w", "Aand more", " typing<Esc>:w<CR>", "oneand more typing"},
		{"on the command line", ":s/one/ONE", "/<CR>:w<CR>", "ONE"},
		{"between the halves of dd", "d", "ddd:w<CR>", "three"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := newDiffEnv(t, "")
			p := d.diffWhileTyping(tt.before)
			// (Neovim 0.10 keeps no message given on the command line.)
			if msgs := d.nv.Messages(); tt.before != ":s/one/ONE" && !strings.Contains(msgs, "Claude proposes a change to greet.txt; it waits until you go to it (:Claude review focus)") {
				t.Errorf("the user was not told a diff waits; messages: %q", msgs)
			}
			d.nv.Keys(tt.after)
			waitLine(t, d.nv, d.path, 1, tt.wantLine, "the user's keys in their buffer")
			nvimtest.Wait(t, "the user's :w to write their file", waitTimeout, func() bool {
				got, _ := os.ReadFile(d.path)
				return strings.HasPrefix(string(got), tt.wantLine+"\n")
			})
			if _, wins, props := d.viewState(); wins != 0 || props != 0 {
				t.Errorf("after the user's keys: %d diff windows, %d proposals; want it still waiting unseen", wins, props)
			}
			var status string
			d.nv.Lua(&status, `return require('claude').statusline()`)
			if !strings.Contains(status, "1 waits for you") {
				t.Errorf("the statusline says %q, want that a proposal waits", status)
			}
			d.nv.Cmd("ClaudeDiffFocus")
			nvimtest.Next(t, d.opened, "the diff to open on :Claude review focus", waitTimeout)
			d.nv.Cmd("write")
			if got := answer(t, p); got[0] != "FILE_SAVED" || got[1] != proposed {
				t.Errorf("answer %q, want the proposal as sent", got)
			}
		})
	}
}

func TestACancelledOpenDiffClosesTheView(t *testing.T) {
	d := newDiffEnv(t, "")
	p := d.openDiff(d.path, proposed, tab)
	if err := p.Cancel("user interrupted"); err != nil {
		t.Fatal(err)
	}
	if ev := nvimtest.Next(t, d.closed, "the view to close", waitTimeout); ev["result"] != "closed" {
		t.Errorf("ClaudeDiffClosed %v", ev)
	}
	d.assertClosed("after notifications/cancelled")
	d.assertUntouched(d.path, original)
}
