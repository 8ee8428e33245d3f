package e2e

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The editor's state as context (issue 40, item 2) with the real CLI: an @word expands to a
// block the user sees before sending, and the model gets that block byte for byte.

// The quickfix list and the unstaged hunks of greet.txt, as the model must get them.
const (
	qfBlock = `<editor-context source="quickfix list" title="go vet" items="2">
greet.txt:2:1: error: two is not loud enough
greet.txt:3: consider three`
	hunksBlock = `<editor-context source="unstaged git hunks" file="greet.txt" note="the buffer, unsaved changes included">
--- a/greet.txt
+++ b/greet.txt
@@ -1,3 +1,3 @@
 one
-two
+TWO
 three`
	diagBlock = `<editor-context source="diagnostics" of="greet.txt" items="1">
greet.txt:2:1: warning: shout less [style]`
	blockEnd = "\n</editor-context>"
)

// editorState gives the session a quickfix list, diagnostics, and greet.txt committed to a
// git repository and changed in its buffer (not saved); the cursor stays in greet.txt.
func (s *session) editorState() string {
	s.t.Helper()
	path := s.writeFile("greet.txt", original)
	for _, args := range [][]string{{"init", "-q"}, {"add", "greet.txt"}, {"commit", "-qm", "first"}} {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Dir = s.env.Project
		if out, err := cmd.CombinedOutput(); err != nil {
			s.t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	s.edit(path)
	s.nv.Lua(nil, `
		vim.api.nvim_buf_set_lines(0, 1, 2, false, { 'TWO' })
		vim.fn.setqflist({}, ' ', { title = 'go vet', items = {
			{ filename = 'greet.txt', lnum = 2, col = 1, type = 'E', text = 'two is not loud enough' },
			{ filename = 'greet.txt', lnum = 3, text = 'consider three' },
		} })
		vim.diagnostic.set(vim.api.nvim_create_namespace('e2e'), 0, {
			{ lnum = 1, col = 0, message = 'shout less', severity = vim.diagnostic.severity.WARN, source = 'style' },
		})`)
	return path
}

func TestContextPickedInTheChatInputIsShownAndReachesTheModelAsIs(t *testing.T) {
	t.Parallel()
	s := newSession(t, fakeapi.Say("I see the list and the hunk."))
	t.Cleanup(s.logTranscript)
	s.editorState()
	s.openChat()
	// @qf completed: the block replaces it in the input, where the user reads it. <Tab>
	// asks the CLI for its @ suggestions; the menu comes with the answer, the editor's words
	// first.
	s.nv.Lua(nil, `vim.api.nvim_set_current_win(vim.fn.bufwinid(require('claude.chat').buffers().input))`)
	s.nv.Keys("i@qf")
	s.nv.Keys("<Tab>")
	nvimtest.Wait(t, "the completion of @qf", turnTimeout, func() bool {
		var mode string
		s.nv.Lua(&mode, `return vim.fn.complete_info({ 'mode' }).mode`)
		return mode != "" || s.chatInput() != "@qf"
	})
	s.nv.Keys("<Esc>")
	want := qfBlock + blockEnd + "\n"
	nvimtest.Wait(t, "the quickfix block in the chat input", turnTimeout, func() bool { return s.chatInput() == want })
	// More context in the same message: :Claude add @hunks:FILE goes to the chat's input too.
	s.nv.Cmd("ClaudeAdd @hunks:greet.txt")
	want += hunksBlock + blockEnd + "\n"
	if got := s.chatInput(); got != want {
		t.Fatalf("after :Claude add @hunks:greet.txt the input holds\n%s\nwant\n%s", got, want)
	}
	s.nv.Keys("<Esc>GAWhat now?<Esc><CR>")
	s.waitChat("I see the list and the hunk.")
	if got := s.chatRequest(1).LastUserText(); !strings.Contains(got, want+"What now?") {
		t.Errorf("the model got\n%s\nwant it to hold\n%s", got, want+"What now?")
	}
}

func TestContextAddedToTheTerminalsPromptReachesTheModelAsIs(t *testing.T) {
	t.Parallel()
	s := newSession(t, fakeapi.Say("Noted the warning."))
	s.editorState()
	s.open()
	s.nv.Cmd("ClaudeAdd @diag:greet.txt")
	s.waitScreen("the pasted context in the CLI's input box", turnTimeout, func(sc string) bool {
		return strings.Contains(sc, "[Pasted text") || strings.Contains(sc, "editor-context")
	})
	s.focusClaude()
	s.pressEnter()
	s.waitText("Noted the warning.", turnTimeout)
	if got := s.mainRequest(1).LastUserText(); !strings.Contains(got, diagBlock+blockEnd+"\n") {
		t.Errorf("the model got\n%s\nwant it to hold\n%s", got, diagBlock+blockEnd)
	}
}
