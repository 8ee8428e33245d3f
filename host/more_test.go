package host

import (
	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

func TestDiagnosticsChangedIsSentForTheFile(t *testing.T) {
	e := newEnv(t)
	path := e.nv.WriteFile("d.txt", "x\n")
	c := e.connect()
	e.nv.Cmd("edit " + path)
	e.nv.Lua(nil, `vim.diagnostic.set(vim.api.nvim_create_namespace('t'), 0,
		{ { lnum = 0, col = 0, message = 'bad x', severity = vim.diagnostic.severity.WARN } })`)
	got := mcptest.Next[wireFileDiags](t, c, "diagnostics_changed")
	if got.URI != "file://"+path || len(got.Diagnostics) != 1 || got.Diagnostics[0].Message != "bad x" || got.Diagnostics[0].Severity != "Warning" {
		t.Errorf("diagnostics_changed = %+v", got)
	}
}

func TestAFileChangedOnDiskIsReloadedUnlessTheBufferHasUnsavedEdits(t *testing.T) {
	e := newEnv(t)
	clean := e.nv.WriteFile("clean.txt", "old\n")
	dirty := e.nv.WriteFile("dirty.txt", "old\n")
	e.start()
	e.nv.Cmd("edit " + dirty + " | call setline(1, 'mine') | edit " + clean)
	for _, p := range []string{clean, dirty} {
		writeOnDisk(t, p, "from Claude\n")
	}
	e.nv.Lua(nil, `require('claude.reload').check()`)
	var lines map[string]string
	e.nv.Lua(&lines, `local a, b = ... return { clean = vim.fn.getbufline(vim.fn.bufnr(a), 1)[1], dirty = vim.fn.getbufline(vim.fn.bufnr(b), 1)[1] }`, clean, dirty)
	if lines["clean"] != "from Claude" {
		t.Errorf("the clean buffer shows %q, want Claude's text reloaded", lines["clean"])
	}
	if lines["dirty"] != "mine" {
		t.Errorf("the buffer with unsaved edits shows %q, want the user's text kept", lines["dirty"])
	}
	if msgs := e.nv.Messages(); !strings.Contains(msgs, "dirty.txt changed on disk but has unsaved edits") {
		t.Errorf("no warning about the kept edits; messages: %q", msgs)
	}
}

func TestAnAcceptedDiffReloadsTheFileWhenTheCLIWritesIt(t *testing.T) {
	d := newDiffEnv(t, "")
	p := d.openDiff(d.path, proposed, tab)
	d.nv.Cmd("write")
	answer(t, p)
	// The CLI writes the file a moment after FILE_SAVED.
	writeOnDisk(t, d.path, proposed)
	nvimtest.Wait(t, "the buffer to show the new text", waitTimeout, func() bool {
		var line string
		d.nv.Lua(&line, `return vim.fn.getbufline(vim.fn.bufnr(...), 2)[1] or ''`, d.path)
		return line == "TWO"
	})
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

func TestDiffLayoutOptions(t *testing.T) {
	d := newDiffEnv(t, `require('claude').setup({ terminal_cmd = { 'cat' }, diff = { layout = 'horizontal', keep_terminal_focus = true } })`)
	d.nv.Cmd("ClaudeOpen")
	p := d.openDiff(d.path, proposed, tab)
	var st struct {
		Cur    string `msgpack:"cur"`
		Layout string `msgpack:"layout"`
	}
	d.nv.Lua(&st, `
		local prop, orig
		for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
			local b = vim.api.nvim_win_get_buf(w)
			if vim.b[b].claude_diff then prop = w elseif vim.wo[w].diff then orig = w end
		end
		local pr, orr = vim.api.nvim_win_get_position(prop), vim.api.nvim_win_get_position(orig)
		return { cur = vim.bo.buftype, layout = (pr[1] > orr[1] and pr[2] == orr[2]) and 'horizontal' or 'vertical' }`)
	if st.Cur != "terminal" || st.Layout != "horizontal" {
		t.Errorf("focus in %q with a %s layout; want the terminal kept focused and the proposal below the file", st.Cur, st.Layout)
	}
	d.nv.Cmd("ClaudeDiffAccept")
	answer(t, p)
}

func TestTheTerminalOpensWhereConfigured(t *testing.T) {
	e := newEnv(t)
	e.nv.Lua(nil, `require('claude').setup({ terminal_cmd = { 'cat' }, terminal = { position = 'below', size = 7 } })`)
	e.nv.Cmd("ClaudeOpen")
	var st struct {
		Height int `msgpack:"height"`
		Row    int `msgpack:"row"`
	}
	e.nv.Lua(&st, `local w = vim.api.nvim_get_current_win()
		return { height = vim.api.nvim_win_get_height(w), row = vim.api.nvim_win_get_position(w)[1] }`)
	if st.Height != 7 || st.Row == 0 {
		t.Errorf("terminal window height %d at row %d, want 7 lines at the bottom", st.Height, st.Row)
	}
}

// Accepting in the CLI's own prompt: the CLI sends close_tab, then writes
// the file; the user's buffer must follow even if they stay in Claude's
// terminal (nothing else would trigger a check).
func TestADiffDecidedInTheCLIPromptReloadsTheFileWhenWritten(t *testing.T) {
	d := newDiffEnv(t, "")
	p := d.openDiff(d.path, proposed, tab)
	callTool(t, d.c, "close_tab", map[string]string{"tab_name": tab})
	answer(t, p)
	writeOnDisk(t, d.path, proposed)
	nvimtest.Wait(t, "the buffer to show the CLI's write", waitTimeout, func() bool {
		var line string
		d.nv.Lua(&line, `return vim.fn.getbufline(vim.fn.bufnr(...), 2)[1] or ''`, d.path)
		return line == "TWO"
	})
}

func TestADiffOpensInAFileWindowNotAPanelOrAPinnedWindow(t *testing.T) {
	for _, panel := range []string{
		"topleft vnew | setlocal buftype=nofile filetype=NvimTree",
		"topleft vsplit | enew | setlocal winfixbuf",
	} {
		t.Run(panel, func(t *testing.T) {
			d := newDiffEnv(t, "")
			d.nv.Cmd(panel)
			var panelWin, panelBuf int
			d.nv.Lua(&panelWin, `return vim.api.nvim_get_current_win()`)
			d.nv.Lua(&panelBuf, `return vim.api.nvim_get_current_buf()`)
			p := d.openDiff(d.path, proposed, tab)
			var shown int
			var diff bool
			d.nv.Lua(&shown, `return vim.api.nvim_win_get_buf(...)`, panelWin)
			d.nv.Lua(&diff, `return vim.wo[...].diff`, panelWin)
			if shown != panelBuf || diff {
				t.Errorf("the panel window now shows buffer %d (diff %v), want its own buffer %d untouched", shown, diff, panelBuf)
			}
			if msgs := d.nv.Messages(); strings.Contains(msgs, "E1513") || strings.Contains(msgs, "rror") {
				t.Errorf("opening the diff reported: %s", msgs)
			}
			d.nv.Cmd("ClaudeDiffAccept")
			if got := answer(t, p); got[0] != "FILE_SAVED" {
				t.Errorf("answer %q", got)
			}
			d.assertClosed("after accepting")
		})
	}
}

func TestADiffComparesWithTheFileAsItIsOnDiskNow(t *testing.T) {
	// Focus stays in Claude's terminal: no BufEnter of a file buffer does it.
	d := newDiffEnv(t, `require('claude').setup({ terminal_cmd = { 'cat' }, diff = { keep_terminal_focus = true } })`)
	d.nv.Cmd("ClaudeOpen")
	// Claude wrote the file without asking (an allowed edit); the buffer
	// has not looked since.
	writeOnDisk(t, d.path, "one\ntwo, by Claude\nthree\n")
	p := d.openDiff(d.path, proposed, tab)
	var left []string
	d.nv.Lua(&left, `return vim.fn.getbufline(vim.fn.bufnr(...), 1, '$')`, d.path)
	if strings.Join(left, "\n") != "one\ntwo, by Claude\nthree" {
		t.Errorf("the diff's left side shows %q, want the file as it is on disk", left)
	}
	d.nv.Cmd("ClaudeDiffDeny")
	answer(t, p)
}

func TestAFloatingTerminalStepsAsideForADiff(t *testing.T) {
	d := newDiffEnv(t, `require('claude').setup({ terminal_cmd = { 'cat' }, terminal = { position = 'float', float = { width = 0.5, height = 10 } } })`)
	floating := func() (shown bool, width, height int, focused bool) {
		var st struct {
			Shown   bool `msgpack:"shown"`
			Width   int  `msgpack:"width"`
			Height  int  `msgpack:"height"`
			Focused bool `msgpack:"focused"`
		}
		d.nv.Lua(&st, `
			local buf = require('claude.terminal').buf()
			for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
				if vim.api.nvim_win_get_buf(w) == buf and vim.api.nvim_win_get_config(w).relative ~= '' then
					return { shown = true, width = vim.api.nvim_win_get_width(w), height = vim.api.nvim_win_get_height(w),
						focused = w == vim.api.nvim_get_current_win() }
				end
			end
			return { shown = false, width = 0, height = 0, focused = false }`)
		return st.Shown, st.Width, st.Height, st.Focused
	}
	var columns int
	d.nv.Lua(&columns, `return vim.o.columns`)

	d.nv.Cmd("ClaudeOpen")
	if shown, w, h, focused := floating(); !shown || w != columns/2 || h != 10 || !focused {
		t.Fatalf("after :ClaudeOpen: float shown %v, %dx%d, focused %v; want a focused %dx10 float", shown, w, h, focused, columns/2)
	}
	d.nv.Cmd("set columns=100 | doautocmd VimResized")
	if shown, w, _, _ := floating(); !shown || w != 50 {
		t.Errorf("after the editor shrank to 100 columns the float is %d wide (shown %v), want 50", w, shown)
	}
	d.nv.Cmd("ClaudeToggle")
	if shown, _, _, _ := floating(); shown {
		t.Errorf(":ClaudeToggle left the float shown")
	}
	d.nv.Cmd("ClaudeToggle")

	// Typing into the float (terminal mode), the diff waits: it would
	// take the focus, and the float would cover it.
	p := d.startDiff(d.path, proposed, tab)
	nvimtest.Wait(t, "the diff to be registered", waitTimeout, func() bool {
		v, _, _ := d.viewState()
		return v == 1
	})
	if shown, _, _, focused := floating(); !shown || !focused {
		t.Errorf("a diff arriving in terminal mode: float shown %v, focused %v; want it left as it is", shown, focused)
	}
	d.nv.Keys(`<C-\><C-n>`)
	nvimtest.Next(t, d.opened, "the diff to open once the user left terminal mode", waitTimeout)
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
