package host

import (
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// snacksTerm is what the tests read of the Claude terminal that
// terminal.provider = "snacks" started.
type snacksTerm struct {
	Buf      int  `msgpack:"buf"`
	Running  bool `msgpack:"running"`
	Snacks   bool `msgpack:"snacks"`    // snacks made the buffer (b:snacks_terminal)
	Ours     bool `msgpack:"ours"`      // and we know it as Claude's (b:claude_terminal)
	Win      int  `msgpack:"win"`       // its window in this tab page, 0 if none
	SnackWin bool `msgpack:"snack_win"` // a window snacks made (w:snacks_win)
	Height   int  `msgpack:"height"`
	Row      int  `msgpack:"row"`
}

func readSnacksTerm(t *testing.T, e *env) snacksTerm {
	t.Helper()
	var st snacksTerm
	e.nv.Lua(&st, `
		local terminal = require('claude.terminal')
		local buf = terminal.buf()
		if not buf then
			return { buf = 0, running = terminal.is_running() }
		end
		local win = terminal.window_in_tab(buf)
		return {
			buf = buf,
			running = terminal.is_running(),
			snacks = vim.b[buf].snacks_terminal ~= nil,
			ours = vim.b[buf].claude_terminal == true,
			win = win or 0,
			snack_win = win ~= nil and vim.w[win].snacks_win ~= nil,
			height = win and vim.api.nvim_win_get_height(win) or 0,
			row = win and vim.api.nvim_win_get_position(win)[1] or 0,
		}`)
	return st
}

// terminal.provider = "snacks": the CLI runs in a Snacks.terminal (the real
// snacks.nvim), placed by terminal.position and size, and is still the
// session's terminal: :Claude type types into it, :Claude toggle hides
// it and has snacks show it again, and a clean exit closes it.
func TestSnacksProviderRunsClaudeInASnacksTerminal(t *testing.T) {
	e := newEnv(t, nvimtest.WithPlugins(t, "snacks.nvim"))
	e.nv.Lua(nil, `
		require('snacks').setup({})
		require('claude').setup({ terminal_cmd = { 'sh', '-c', 'exec cat', 'cli' }, permission_mode = false, terminal = { provider = 'snacks', position = 'below', size = 7 } })`)
	exited := e.nv.UserEvents("ClaudeTerminalExited")
	e.connect()
	e.nv.Cmd("ClaudeOpen")
	st := readSnacksTerm(t, e)
	if !st.Snacks || !st.Ours || !st.Running {
		t.Fatalf(":Claude open with the snacks provider: %+v, want a running snacks terminal known as Claude's\n%s", st, e.nv.Messages())
	}
	var current int
	e.nv.Lua(&current, `return vim.api.nvim_get_current_buf()`)
	if current != st.Buf || !st.SnackWin || st.Height != 7 || st.Row == 0 {
		t.Errorf("the snacks terminal (buffer %d, current %d) is %+v, want the current buffer in a snacks window 7 lines high at the bottom", st.Buf, current, st)
	}
	waitMode(t, e.nv, "t")

	e.nv.Cmd("wincmd p")
	e.nv.Cmd("ClaudeSendText typed by us")
	nvimtest.Wait(t, "the text in the snacks terminal", waitTimeout, func() bool {
		var text string
		e.nv.Lua(&text, `return table.concat(vim.api.nvim_buf_get_lines(..., 0, -1, false), "\n")`, st.Buf)
		return strings.Contains(text, "typed by us")
	})

	e.nv.Cmd("ClaudeToggle")
	if got := readSnacksTerm(t, e); got.Win != 0 || !got.Running {
		t.Errorf("after :Claude toggle the snacks terminal is %+v, want hidden and running", got)
	}
	e.nv.Cmd("ClaudeToggle")
	if got := readSnacksTerm(t, e); got.Win == 0 || !got.SnackWin || got.Buf != st.Buf || got.Height != 7 {
		t.Errorf("after a second :Claude toggle the snacks terminal is %+v, want buffer %d shown again by snacks, 7 lines high", got, st.Buf)
	}

	// Enter, then Ctrl-D ends cat with status 0, as /exit ends Claude.
	e.nv.Lua(nil, `vim.api.nvim_chan_send(vim.b[...].terminal_job_id, "\r\4")`, st.Buf)
	nvimtest.Next(t, exited, "ClaudeTerminalExited", waitTimeout)
	nvimtest.Wait(t, "the snacks terminal to close", waitTimeout, func() bool {
		var valid bool
		e.nv.Lua(&valid, `return vim.api.nvim_buf_is_valid(...)`, st.Buf)
		return !valid
	})
	if got := readSnacksTerm(t, e); got.Running || got.Buf != 0 {
		t.Errorf("after Claude exited the session still has %+v", got)
	}
}

func TestSnacksProviderSaysWhenSnacksIsMissing(t *testing.T) {
	e := newEnv(t)
	e.nv.Lua(nil, `require('claude').setup({ terminal_cmd = { 'sh', '-c', 'exec cat', 'cli' }, permission_mode = false, terminal = { provider = 'snacks' } })`)
	if msg := commandMessages(t, e.nv, "ClaudeOpen"); !strings.Contains(msg, `terminal.provider = "snacks" needs folke/snacks.nvim`) {
		t.Errorf(":Claude open with the snacks provider and no snacks.nvim said %q, want that it needs snacks.nvim", msg)
	}
	var terms int
	e.nv.Lua(&terms, `local n = 0 for _, b in ipairs(vim.api.nvim_list_bufs()) do if vim.bo[b].buftype == 'terminal' then n = n + 1 end end return n`)
	if terms != 0 {
		t.Errorf("%d terminal buffers after the snacks provider failed, want none", terms)
	}
}
