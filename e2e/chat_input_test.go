package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The chat's input with the real CLI: completion of its slash commands and of workspace
// paths, and :Claude send adding lines to the next message while a chat is open.

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

// completeInInput replaces the chat input with text, presses <Tab> at its end, waits for the
// completion menu (the CLI's answer comes back asynchronously) and leaves Insert mode with the
// first completion in the line; it returns the line and the menu's words.
func (s *session) completeInInput(text string) (string, []string) {
	s.t.Helper()
	s.nv.Lua(nil, `
		local b = require('claude.chat').buffers()
		vim.api.nvim_set_current_win(vim.fn.bufwinid(b.input))
		vim.api.nvim_buf_set_lines(b.input, 0, -1, false, {})`)
	s.nv.Keys("i" + text)
	s.nv.Keys("<Tab>")
	// One completion is put in the line without a menu ('completeopt' without menuone).
	nvimtest.Wait(s.t, "the completion of "+text, turnTimeout, func() bool {
		var shown int
		s.nv.Lua(&shown, `return vim.fn.pumvisible()`)
		return shown == 1 || s.chatInput() != text
	})
	var menu []string
	s.nv.Lua(&menu, `return vim.tbl_map(function(it) return it.word end, vim.fn.complete_info({ 'items' }).items)`)
	s.nv.Keys("<Esc>")
	return s.chatInput(), menu
}

func TestTheChatInputCompletesTheCLIsSlashCommandsAndWorkspacePaths(t *testing.T) {
	t.Parallel()
	s := newSession(t, fakeapi.Say("Reviewed."))
	t.Cleanup(s.logTranscript)
	s.writeFile("greet.txt", original)
	os.Mkdir(filepath.Join(s.env.Project, "sub"), 0o700)
	s.writeFile("sub/green.go", "package sub\n")
	s.openChat()
	nvimtest.Wait(t, "the CLI's slash commands", turnTimeout, func() bool {
		var n int
		s.nv.Lua(&n, `return #(require('claude.chat')._commands() or {})`)
		return n > 0
	})
	if got := s.typeInInput("/securit", "<Tab>"); got != "/security-review" {
		t.Errorf("/securit<Tab> in the chat input gives %q, want the CLI's /security-review", got)
	}
	// @ completes as the CLI's own typeahead does (file_suggestions): fuzzy, through folders.
	if got, menu := s.completeInInput("look at @gre"); got != "look at @greet.txt" || !slices.Contains(menu, "@sub/green.go") {
		t.Errorf("@gre<Tab> in the chat input gives %q (menu %q), want the CLI's @greet.txt first and @sub/green.go offered", got, menu)
	}
	if got, _ := s.completeInInput("@green"); got != "@sub/green.go" {
		t.Errorf("@green<Tab> in the chat input gives %q, want the CLI's @sub/green.go", got)
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
		t.Errorf("after :Claude send the cursor is not in the chat's input")
	}
	s.nv.Keys("Awhat are these?<Esc><CR>")
	s.waitChat("Those are lines one and two.")
	if got := s.chatRequest(1).UserText(); !strings.Contains(got, "one\ntwo") && !strings.Contains(got, "1\tone\n2\ttwo") {
		t.Errorf("the model got %q, want the mentioned lines of greet.txt", got)
	}
	var terminal bool
	s.nv.Lua(&terminal, `return require('claude.terminal').buf() ~= nil`)
	if terminal {
		t.Errorf(":Claude send opened the Claude terminal while a chat was open")
	}
}
