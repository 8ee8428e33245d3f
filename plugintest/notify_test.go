package plugintest

import (
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// withUI attaches this test as a Neovim UI of 80×24 cells: without one, Neovim never waits
// for "Press ENTER" and draws nothing, so nothing here could fail.
func withUI(t *testing.T, nv *nvimtest.Nvim) {
	t.Helper()
	if err := nv.RegisterHandler("redraw", func(...any) {}); err != nil {
		t.Fatal(err)
	}
	if err := nv.AttachUI(80, 24, map[string]any{"ext_linegrid": true}); err != nil {
		t.Fatal(err)
	}
}

type editorMode struct {
	Mode     string `msgpack:"mode"`
	Blocking bool   `msgpack:"blocking"`
}

// modeAfter runs Lua, lets Neovim draw, and returns the mode it is in then. Neovim stuck
// on "Press ENTER" may not even answer: that fails the test after a while.
func modeAfter(t *testing.T, nv *nvimtest.Nvim, code string) editorMode {
	t.Helper()
	nv.Lua(nil, code)
	answered := make(chan editorMode, 1)
	go func() {
		var m editorMode
		// Input first: a request after it runs once the main loop ran what code scheduled.
		_, _ = nv.Input("")
		if err := nv.Call("nvim_get_mode", &m); err == nil {
			answered <- m
		}
	}()
	select {
	case m := <-answered:
		return m
	case <-time.After(stuckAfter):
		t.Fatalf("after %s Neovim did not answer for %v: it waits for Enter", code, stuckAfter)
		return editorMode{}
	}
}

// stuckAfter is how long Neovim may take to answer nvim_get_mode: a
// Neovim stuck on "Press ENTER" never does, one on a loaded machine
// running tests in parallel may take seconds.
const stuckAfter = waitTimeout

const longError = `"the Go binary /a/rather/long/path/to/the/checkout/of/claude.nvim/bin/claude-nvim is missing: run make in /a/rather/long/path/to/the/checkout/of/claude.nvim (needs Go 1.24 or newer; see :help claude-install)"`

func TestMessagesNeverWaitForEnter(t *testing.T) {
	for _, tt := range []struct{ name, code string }{
		{"a long error", `require("claude.notify").error(` + longError + `)`},
		{"two messages from one command", `vim.cmd("lua require('claude.notify').warn('one thing') require('claude.notify').warn('and another')")`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			nv := newNvim(t)
			withUI(t, nv)
			if m := modeAfter(t, nv, tt.code); m.Blocking || m.Mode != "n" {
				t.Errorf("after %s Neovim is in mode %+v; want Normal mode, not waiting for Enter", tt.name, m)
			}
		})
	}
	t.Run("a long message shows whole beside the command line", func(t *testing.T) {
		nv := newNvim(t)
		withUI(t, nv)
		modeAfter(t, nv, `require("claude.notify").error(`+longError+`)`)
		if shown := messageWindow(t, nv); !strings.Contains(shown, "(needs Go 1.24 or newer; see :help claude-install)") {
			t.Errorf("the message window shows %q, want the whole message", shown)
		}
	})
}

// In Insert and Terminal mode the mode message ("-- INSERT --") takes the command line at
// once: a message there must show elsewhere.
func TestAMessageInInsertModeIsNotHiddenByTheModeMessage(t *testing.T) {
	nv := newNvim(t)
	withUI(t, nv)
	nv.Keys("i")
	modeAfter(t, nv, `require("claude.notify").info("Claude proposes a change to greet.txt")`)
	if shown := messageWindow(t, nv); !strings.Contains(shown, "Claude proposes a change to greet.txt") {
		t.Errorf("in Insert mode the message window shows %q, want the message", shown)
	}
}

// messageWindow is the text of claude.notify's message window, its lines
// joined by spaces ("" when it is closed).
func messageWindow(t *testing.T, nv *nvimtest.Nvim) string {
	t.Helper()
	var shown []string
	nv.Lua(&shown, `return require("claude.notify").shown()`)
	return strings.Join(shown, " ")
}

func TestANotifierThatReplacesVimNotifyGetsEveryMessage(t *testing.T) {
	nv := newNvim(t)
	nv.Lua(nil, `_G.got = {} vim.notify = function(msg, level, opts) table.insert(_G.got, { msg = msg, level = level, title = opts and opts.title }) end`)
	nv.Lua(nil, `require("claude.notify").warn("one") require("claude.notify").error("claude.nvim: two")`)
	var got []struct {
		Msg   string `msgpack:"msg"`
		Level int    `msgpack:"level"`
		Title string `msgpack:"title"`
	}
	nv.Lua(&got, `return _G.got`)
	if len(got) != 2 || got[0].Msg != "claude.nvim: one" || got[0].Level != 3 || got[1].Msg != "claude.nvim: two" || got[1].Level != 4 || got[0].Title != "claude.nvim" {
		t.Errorf("the user's vim.notify got %+v; want both messages, prefixed once, at WARN (3) and ERROR (4), titled claude.nvim", got)
	}
}

// A terminal beside the file, the user typing in it: the message window must not cover it
// (Claude's terminal shows the CLI's own choices at its bottom, issue 36), and still shows.
func TestTheMessageWindowNeverCoversATerminal(t *testing.T) {
	nv := newNvim(t)
	withUI(t, nv)
	nv.Cmd(`vsplit | terminal sh -c 'exec cat'`)
	nv.Cmd("startinsert")
	nvimtest.Wait(t, "Terminal mode", waitTimeout, func() bool {
		var m editorMode
		return nv.Call("nvim_get_mode", &m) == nil && m.Mode == "t"
	})
	modeAfter(t, nv, `require("claude.notify").info("Claude proposes a change to greet.txt: the diff is open beside; :Claude review focus goes to it")`)
	if shown := messageWindow(t, nv); !strings.Contains(shown, "Claude proposes a change") {
		t.Fatalf("in Terminal mode the message window shows %q, want the message", shown)
	}
	var overlap string
	nv.Lua(&overlap, `
		local toast, term
		for _, w in ipairs(vim.api.nvim_list_wins()) do
			local buf = vim.api.nvim_win_get_buf(w)
			if vim.api.nvim_win_get_config(w).relative ~= "" then
				toast = w
			elseif vim.bo[buf].buftype == "terminal" then
				term = w
			end
		end
		local function box(w, border)
			local p = vim.api.nvim_win_get_position(w)
			return p[1], p[1] + vim.api.nvim_win_get_height(w) + border, p[2], p[2] + vim.api.nvim_win_get_width(w) + border
		end
		local t1, b1, l1, r1 = box(toast, 2)
		local t2, b2, l2, r2 = box(term, 0)
		if t1 < b2 and t2 < b1 and l1 < r2 and l2 < r1 then
			return string.format("toast rows %d-%d cols %d-%d, terminal rows %d-%d cols %d-%d", t1, b1, l1, r1, t2, b2, l2, r2)
		end
		return ""`)
	if overlap != "" {
		t.Errorf("the message window covers the terminal: %s", overlap)
	}
}

// A message about something over (a proposal answered) leaves the screen when withdrawn;
// another message stays.
func TestAWithdrawnMessageLeavesTheMessageWindow(t *testing.T) {
	nv := newNvim(t)
	withUI(t, nv)
	nv.Keys("i")
	modeAfter(t, nv, `require("claude.notify").info("Claude proposes a change to greet.txt", { tag = "diff:1" })
		require("claude.notify").info("something else")`)
	if shown := messageWindow(t, nv); !strings.Contains(shown, "proposes a change") || !strings.Contains(shown, "something else") {
		t.Fatalf("the message window shows %q, want both messages", shown)
	}
	modeAfter(t, nv, `require("claude.notify").withdraw("diff:1")`)
	nvimtest.Wait(t, "the withdrawn message to leave", waitTimeout, func() bool {
		shown := messageWindow(t, nv)
		return !strings.Contains(shown, "proposes a change") && strings.Contains(shown, "something else")
	})
}
