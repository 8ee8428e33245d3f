package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// Background work (issue 39, item 7): a running command sent to the background with <C-b>
// (the CLI's Ctrl+B), shown in the task list with its state and output, stopped from there,
// and the turn's end saying what still runs.

// chatTaskIDs are the CLI's ids of the tasks the chat knows of (started, running or ended).
func (s *session) chatTaskIDs() []string {
	var ids []string
	s.nv.Lua(&ids, `
		local c = require('claude.chat.state').chats[...]
		return vim.tbl_keys(c and c.bg or {})`, s.env.Project)
	return ids
}

func TestACommandSentToTheBackgroundShowsInTheTaskListAndStops(t *testing.T) {
	t.Parallel()
	const command = "echo started; sleep 60; echo finished > finished.txt"
	s := newSession(t,
		fakeapi.Use("Bash", map[string]any{"command": command, "description": "Wait a minute"}),
		fakeapi.Say("It runs in the background now."),
		fakeapi.Say("The command stopped."),
		fakeapi.Say("Noted."))
	t.Cleanup(s.logTranscript)
	s.openChat()
	s.nv.Cmd("ClaudeChatMode acceptEdits") // the command runs unasked
	s.waitChat("_Mode: acceptEdits_")
	s.chatSend("Run the slow thing")
	nvimtest.Wait(t, "the command to start as a task", turnTimeout, func() bool { return len(s.chatTaskIDs()) == 1 })
	// <C-b> in the input's Insert mode, as in the terminal (Normal mode's
	// is Vim's: a screen back).
	s.nv.Lua(nil, `vim.api.nvim_set_current_win(vim.fn.bufwinid(require('claude.chat').buffers().input))`)
	s.nv.Keys("a<C-b><Esc>")
	s.waitChat("It runs in the background now.")
	s.waitChat("_Still running in the background: Wait a minute (command) (gl: the task list)_")
	v := s.waitTaskView("Background", "◐ Wait a minute (command) · running in the background (o output, x stop)")
	if !v.Shown || !v.InInput {
		t.Errorf("the task list is shown %v, the cursor in the input %v: want it shown, the input kept", v.Shown, v.InInput)
	}
	if result := s.toolResult("Bash"); !strings.Contains(strings.Join(result.Texts(), "\n"), "backgrounded") {
		t.Errorf("the model got %q for the command, want it told the command went to the background", result.Texts())
	}

	// o on its line: its output so far.
	s.nv.Lua(nil, `
		local v = vim.fn.win_findbuf(require('claude.chat.state').chats[...].taskbuf)[1]
		vim.api.nvim_set_current_win(v)
		vim.api.nvim_win_set_cursor(v, { 2, 0 })`, s.env.Project)
	s.nv.Keys("o")
	if cliVersion == "2.1.197" {
		s.waitPanel("output", "Error: this Claude Code cannot read a task's output (get_task_output came with 2.1.332)")
	} else {
		s.waitPanel("output", "Output of Wait a minute", "bytes written", "started")
	}

	// x stops it: it never finishes.
	s.nv.Lua(nil, `
		local v = vim.fn.win_findbuf(require('claude.chat.state').chats[...].taskbuf)[1]
		vim.api.nvim_set_current_win(v)
		vim.api.nvim_win_set_cursor(v, { 2, 0 })`, s.env.Project)
	s.nv.Keys("x")
	nvimtest.Wait(t, "the task list to say it stopped", turnTimeout, func() bool {
		text := strings.Join(s.taskView().Lines, "\n")
		return strings.Contains(text, "Wait a minute (command) · ") && !strings.Contains(text, "running in the background")
	})
	t.Logf("task list: %q", s.taskView().Lines)
	if _, err := os.Stat(filepath.Join(s.env.Project, "finished.txt")); err == nil {
		t.Errorf("the stopped command finished")
	}
}
