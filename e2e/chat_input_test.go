package e2e

import (
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The chat's input with the real CLI: completion of its slash commands and of workspace
// paths, and :ClaudeSend adding lines to the next message while a chat is open.

// chatInput returns the chat input's lines, joined.
func (s *session) chatInput() string {
	var lines []string
	s.nv.Lua(&lines, `return vim.api.nvim_buf_get_lines(require('claude.chat').buffers().input, 0, -1, false)`)
	return strings.Join(lines, "\n")
}

// typeInInput replaces the chat input with text, leaves the cursor at its end in Insert
// mode and then presses keys. Typed apart, as a user does: an expr mapping in typeahead runs
// before the text typed just before it is in the line.
func (s *session) typeInInput(text, keys string) string {
	s.t.Helper()
	s.nv.Lua(nil, `
		local b = require('claude.chat').buffers()
		vim.api.nvim_set_current_win(vim.fn.bufwinid(b.input))
		vim.api.nvim_buf_set_lines(b.input, 0, -1, false, {})`)
	s.nv.Keys("i" + text)
	s.nv.Keys(keys)
	s.nv.Keys("<Esc>")
	return s.chatInput()
}

func TestTheChatInputCompletesTheCLIsSlashCommandsAndWorkspacePaths(t *testing.T) {
	t.Parallel()
	s := newSession(t, fakeapi.Say("Reviewed."))
	t.Cleanup(s.logTranscript)
	s.writeFile("greet.txt", original)
	s.openChat()
	nvimtest.Wait(t, "the CLI's slash commands", turnTimeout, func() bool {
		var n int
		s.nv.Lua(&n, `return #(require('claude.chat')._commands() or {})`)
		return n > 0
	})
	if got := s.typeInInput("/securit", "<Tab>"); got != "/security-review" {
		t.Errorf("/securit<Tab> in the chat input gives %q, want the CLI's /security-review", got)
	}
	if got := s.typeInInput("look at @gre", "<Tab>"); got != "look at @greet.txt" {
		t.Errorf("@gre<Tab> in the chat input gives %q, want the workspace's @greet.txt", got)
	}
	if got := s.typeInInput("not /securit", "<Tab>"); strings.Contains(got, "review") {
		t.Errorf("a / inside the message completed as a command: %q", got)
	}
	// A completed command sent as the message runs as the CLI's command.
	s.typeInInput("/securit", "<Tab>")
	s.nv.Keys("<CR>")
	s.waitChat("Reviewed.")
	if got := s.chatRequest(1).LastUserText(); !strings.Contains(got, "<command-name>/security-review</command-name>") {
		t.Errorf("after sending /security-review the model got %q, want the command's prompt", got)
	}
}

func TestClaudeSendAddsLinesToTheChatsNextMessageWhileAChatIsOpen(t *testing.T) {
	t.Parallel()
	s := newSession(t, fakeapi.Say("Those are lines one and two."))
	t.Cleanup(s.logTranscript)
	path := s.writeFile("greet.txt", original)
	s.edit(path)
	s.openChat()
	s.nv.Lua(nil, `vim.api.nvim_set_current_win(vim.fn.bufwinid(vim.fn.bufnr(...)))`, path)
	s.nv.Cmd("1,2ClaudeSend")
	if got := s.chatInput(); got != "@greet.txt#L1-2 " {
		t.Fatalf("after :1,2ClaudeSend the chat input holds %q, want the mention @greet.txt#L1-2", got)
	}
	var inInput bool
	s.nv.Lua(&inInput, `return vim.api.nvim_get_current_buf() == require('claude.chat').buffers().input`)
	if !inInput {
		t.Errorf("after :ClaudeSend the cursor is not in the chat's input")
	}
	s.nv.Keys("Awhat are these?<Esc><CR>")
	s.waitChat("Those are lines one and two.")
	if got := s.chatRequest(1).UserText(); !strings.Contains(got, "one\ntwo") && !strings.Contains(got, "1\tone\n2\ttwo") {
		t.Errorf("the model got %q, want the mentioned lines of greet.txt", got)
	}
	var terminal bool
	s.nv.Lua(&terminal, `return require('claude.terminal').buf() ~= nil`)
	if terminal {
		t.Errorf(":ClaudeSend opened the Claude terminal while a chat was open")
	}
}
