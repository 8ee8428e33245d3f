package chatctl_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// A background subagent's lines arrive while the conversation's answer streams below its
// Agent line: they go under that line, inside its closed fold, and the answer streams on
// unbroken.
func TestABackgroundSubagentsLinesGoUnderItsAgentLineWhileTheAnswerStreams(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Cmd("ClaudeChat")
	e.prompt("subagent")
	e.waitTranscript(
		"● Agent(Look around) · done in 2.5 s · 1 tool",
		"  │ description: Look around",
		"  │ prompt: P",
		"  │ subagent_type: Explore",
		"  ⎿  Async agent launched successfully.",
		"  │ ● Bash(ls)",
		"  │   │ command: ls",
		"  │   ⎿  a.txt … (2 lines)",
		"  │   │ b.txt",
		"  ⎿  Done: Two files.",
		"",
		"Main text goes on.",
	)
	shown := func() string {
		var buf int
		e.nv.Lua(&buf, `return require('claude.chat').buffers().transcript`)
		return strings.Join(e.nv.ShownLines(buf), "\n")
	}
	want := "● Agent(Look around) · done in 2.5 s · 1 tool\n\nMain text goes on."
	if got := shown(); !strings.Contains(got, want) {
		t.Errorf("the chat window shows\n%s\nwant the subagent's group closed on its Agent line:\n%s", got, want)
	}
	if got := fmt.Sprint(nestedFold(e)); got != "[2 0 1]" {
		t.Errorf("the subagent's Bash line: fold level, closed fold's start and end (from the line) %s, want [2 0 1]: a closed fold of its own, with its input, in the group's", got)
	}
	// A window opened later gets the same folds, the subagent's own nested in its group.
	e.nv.Lua(nil, `
		local b = require('claude.chat').buffers()
		vim.api.nvim_win_close(vim.fn.bufwinid(b.transcript), true)`)
	e.nv.Cmd("ClaudeChat")
	if got := shown(); !strings.Contains(got, want) {
		t.Errorf("a window opened again shows\n%s\nwant the subagent's group closed on its Agent line", got)
	}
	if got := fmt.Sprint(nestedFold(e)); got != "[2 0 1]" {
		t.Errorf("in a window opened again, the subagent's Bash line: %s, want [2 0 1]", got)
	}
}

// nestedFold opens the group (zo on the Agent line) and returns, for the subagent's Bash line,
// its fold level and its closed fold's start and end relative to it: [2 0 1] is a closed fold
// of its own, with its input, inside the group's.
func nestedFold(e *chatEnv) []int {
	var folds []int
	e.nv.Lua(&folds, `
		local win = vim.fn.bufwinid(require('claude.chat').buffers().transcript)
		return vim.api.nvim_win_call(win, function()
			for l = 1, vim.fn.line('$') do
				if vim.fn.getline(l):match('^● Agent%(') then
					vim.cmd(l .. 'foldopen')
				end
			end
			for l = 1, vim.fn.line('$') do
				if vim.fn.getline(l):match('● Bash%(ls%)') then
					return { vim.fn.foldlevel(l), vim.fn.foldclosed(l) - l, vim.fn.foldclosedend(l) - l }
				end
			end
			return {}
		end)`)
	return folds
}

// taskWindow is how many windows show the chat's task list, and its lines.
func taskWindow(e *chatEnv) (int, string) {
	var v struct {
		Wins  int      `msgpack:"wins"`
		Lines []string `msgpack:"lines"`
	}
	e.nv.Lua(&v, `
		for _, b in ipairs(vim.api.nvim_list_bufs()) do
			if vim.api.nvim_buf_get_name(b):match('^claude%-tasks://') then
				return { wins = #vim.fn.win_findbuf(b), lines = vim.api.nvim_buf_get_lines(b, 0, -1, false) }
			end
		end
		return { wins = 0, lines = {} }`)
	return v.Wins, strings.Join(v.Lines, "\n")
}

// The task list's window, once the user closed it, stays closed through later changes until
// gl shows it again; it never takes the cursor.
func TestATaskListWindowTheUserClosedStaysClosedUntilGl(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Cmd("ClaudeChat")
	e.prompt("tasks")
	e.waitTranscript("Planned.")
	if wins, lines := taskWindow(e); wins != 1 || lines != "Tasks: 0 of 1 done\n☐ One" {
		t.Fatalf("after a task was created: %d windows show %q; want 1 showing the task", wins, lines)
	}
	var inInput bool
	e.nv.Lua(&inInput, `return vim.api.nvim_get_current_buf() == require('claude.chat').buffers().input`)
	if !inInput {
		t.Errorf("the task list took the cursor from the input")
	}
	e.nv.Lua(nil, `
		for _, w in ipairs(vim.api.nvim_list_wins()) do
			if vim.api.nvim_buf_get_name(vim.api.nvim_win_get_buf(w)):match('^claude%-tasks://') then
				vim.api.nvim_win_call(w, function() vim.cmd('close') end)
			end
		end`)
	e.prompt("tasks again")
	nvimtest.Wait(t, "the second task", waitTimeout, func() bool {
		_, lines := taskWindow(e)
		return strings.Count(lines, "☐ One") == 2
	})
	if wins, _ := taskWindow(e); wins != 0 {
		t.Errorf("the task list the user closed opened again on a change")
	}
	e.nv.Lua(nil, `vim.api.nvim_set_current_win(vim.fn.bufwinid(require('claude.chat').buffers().transcript))`)
	e.nv.Keys("gl")
	if wins, _ := taskWindow(e); wins != 1 {
		t.Errorf("gl did not show the task list again")
	}
	e.nv.Keys("gl")
	if wins, _ := taskWindow(e); wins != 0 {
		t.Errorf("gl did not hide the task list")
	}
}
