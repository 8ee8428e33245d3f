package chatctl_test

import (
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// How the chat's windows look: the winbar at a narrow width, the transcript's width beside
// Claude's terminal, and its tail at the window's bottom.

// transcriptWin is the window showing the chat's transcript in the current tab page.
func (e *chatEnv) transcriptWin() int {
	e.t.Helper()
	var win int
	e.nv.Lua(&win, `return vim.fn.bufwinid(require('claude.chat').buffers().transcript)`)
	if win <= 0 {
		e.t.Fatalf("no window shows the transcript")
	}
	return win
}

func TestANarrowChatWinbarKeepsTheModelAndTheState(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Cmd("ClaudeChat")
	e.prompt("be slow")
	e.waitTranscript("Working")
	win := e.transcriptWin()
	nvimtest.Wait(t, "the winbar to say Claude works", waitTimeout, func() bool {
		var status string
		e.nv.Lua(&status, `return vim.b[require('claude.chat').buffers().transcript].claude_chat_status`)
		return strings.Contains(status, "working")
	})
	var shown string
	e.nv.Lua(&shown, `
		local win = ...
		vim.api.nvim_win_set_width(win, 30)
		return vim.api.nvim_eval_statusline(vim.wo[win].winbar, { winid = win, use_winbar = true, maxwidth = 30 }).str`, win)
	if want := "fake-model · working…"; !strings.HasPrefix(shown, want) {
		t.Errorf("a 30-column transcript's winbar shows %q, want it to start with %q", shown, want)
	}
}

func TestAChatOpenedBesideClaudesTerminalIsWideEnoughToRead(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Lua(nil, `vim.o.columns = 80`)
	e.nv.Cmd("ClaudeOpen")
	e.nv.Cmd("stopinsert")
	e.nv.Cmd("ClaudeChat")
	var width, terminal int
	e.nv.Lua(&width, `return vim.api.nvim_win_get_width(...)`, e.transcriptWin())
	e.nv.Lua(&terminal, `
		for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
			if vim.bo[vim.api.nvim_win_get_buf(win)].buftype == 'terminal' then return vim.api.nvim_win_get_width(win) end
		end
		return 0`)
	if width < 40 {
		t.Errorf("with Claude's terminal open in 80 columns the chat's transcript is %d columns wide, want at least 40", width)
	}
	var narrowest int
	e.nv.Lua(&narrowest, `
		local n = math.huge
		for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do n = math.min(n, vim.api.nvim_win_get_width(win)) end
		return n`)
	if narrowest < 20 {
		t.Errorf("opening the chat left a window %d columns wide, want none under 20", narrowest)
	}
	if terminal != 32 {
		t.Errorf("the chat took Claude's terminal's columns: it is %d wide, want terminal.size's 32", terminal)
	}
}

func TestTheChatTranscriptKeepsItsTailAtTheWindowsBottom(t *testing.T) {
	e := newChatEnv(t)
	// A UI, so Neovim draws and scrolls as a user sees it.
	if err := e.nv.RegisterHandler("redraw", func(...any) {}); err != nil {
		t.Fatal(err)
	}
	if err := e.nv.AttachUI(80, 24, map[string]any{"ext_linegrid": true}); err != nil {
		t.Fatal(err)
	}
	e.nv.Cmd("ClaudeChat")
	// More than two windows of text, with folds (a thinking block, tool inputs and results)
	// that take rows away once closed.
	for i := 0; i < 12; i++ {
		e.prompt("think first")
		nvimtest.Wait(t, "the turn to end", waitTimeout, func() bool {
			return strings.Count(e.transcript(), "(this run)") == i+1
		})
	}
	// The tail is at the bottom when the end is shown and the line above the window's top
	// line would not fit in the rows left empty below the text.
	check := func(when string) {
		t.Helper()
		var got struct {
			Top    int  `msgpack:"top"`
			Rows   int  `msgpack:"rows"`
			Above  int  `msgpack:"above"`
			Height int  `msgpack:"height"`
			AtEnd  bool `msgpack:"at_end"`
		}
		e.nv.Lua(&got, `
			local win = ...
			return vim.api.nvim_win_call(win, function()
				local top = vim.fn.line('w0')
				return {
					top = top,
					rows = vim.api.nvim_win_text_height(win, { start_row = top - 1 }).all,
					above = top > 1 and vim.api.nvim_win_text_height(win, { start_row = top - 2, end_row = top - 2 }).all or 0,
					height = vim.fn.winheight(win),
					at_end = vim.fn.line('w$') == vim.fn.line('$'),
				}
			end)`, e.transcriptWin())
		if !got.AtEnd || got.Top > 1 && got.Rows+got.Above <= got.Height {
			t.Errorf("%s: the transcript window shows %d rows of text from line %d in %d rows (end shown: %v); want its tail at the bottom", when, got.Rows, got.Top, got.Height, got.AtEnd)
		}
	}
	check("after the turns")
	e.nv.Cmd("only")
	e.nv.Cmd("enew")
	e.nv.Cmd("ClaudeChat")
	check("after reopening")

	// A thinking block streamed in one batch and drawn, then closed (folded) in the next, as
	// the host sends them when the CLI pauses in between: its rows go, the end stays down.
	var thought []string
	for i := 0; i < 40; i++ {
		thought = append(thought, "a thought")
	}
	e.nv.Lua(nil, `
		local dir, text = ...
		require('claude.handlers').show_chat_events(dir, { { kind = 'thinking', text = text } })
		vim.cmd.redraw()
		require('claude.handlers').show_chat_events(dir, { { kind = 'block_end' } })
		vim.cmd.redraw()`, e.nv.Cwd, strings.Join(thought, "\n"))
	check("after a thinking block folded")
}
