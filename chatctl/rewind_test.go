package chatctl_test

import (
	"os"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// A rewind while Claude works would cut what the turn still writes into: R says so, and
// nothing reaches the CLI. R away from the transcript says where to press it.
func TestARewindWhileClaudeWorksIsRefusedWithoutAskingTheCLI(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Cmd("ClaudeChat")
	if got := commandMessages(t, e.nv, "ClaudeChatRewind"); !strings.Contains(got, "put the cursor on one of your prompts in the chat's transcript first") {
		t.Errorf(":Claude chat rewind in the input said %q; want it to say where", got)
	}
	e.prompt("be slow")
	e.waitTranscript("Working")
	e.nv.Lua(nil, `
		local b = require('claude.chat').buffers()
		vim.api.nvim_set_current_win(vim.fn.bufwinid(b.transcript))
		vim.fn.cursor(1, 1); vim.fn.search('^> be slow')`)
	before := e.nv.Messages()
	e.nv.Keys("R")
	if got := strings.TrimPrefix(e.nv.Messages(), before); !strings.Contains(got, "Claude is working") {
		t.Errorf("R on a prompt while Claude works said %q; want it refused", got)
	}
	e.nv.Keys("<C-c>")
	e.recorded(`"subtype":"interrupt"`)
	if b, _ := os.ReadFile(e.record); strings.Contains(string(b), "rewind") {
		t.Errorf("a refused rewind reached the CLI:\n%s", b)
	}
	if got := e.transcript(); strings.Contains(got, "⏪") {
		t.Errorf("a refused rewind shows in the transcript:\n%s", got)
	}
}

// A prompt edited to run again, whose rewind the CLI refuses, comes back to the input before
// what was typed there since: typed text is never lost. The dry run that could not be done
// says why, and the edit then rewinds the conversation only.
func TestAnEditedPromptWhoseRewindFailsComesBackToTheInput(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Cmd("ClaudeChat")
	e.prompt("stream")
	e.waitTranscript("Hello from the stand-in.")
	nvimtest.Wait(t, "the turn to end", waitTimeout, func() bool {
		return strings.Contains(e.transcript(), " tokens in, ")
	})
	e.nv.Lua(nil, `
		local b = require('claude.chat').buffers()
		vim.api.nvim_buf_set_lines(b.input, 0, -1, false, { "half typed" })
		vim.api.nvim_set_current_win(vim.fn.bufwinid(b.transcript))
		vim.fn.cursor(1, 1); vim.fn.search('^> stream')`)
	e.nv.Keys("R")
	e.waitTranscript("⏪ Rewind to your prompt: stream",
		"  ⎿  the code cannot be rewound: rewind_files: cannot rewind: No file checkpoint found for this message.")
	e.nv.Cmd("ClaudeChatRewind edit")
	var name string
	e.nv.Lua(&name, `return vim.api.nvim_buf_get_name(0)`)
	if !strings.HasPrefix(name, "claude-prompt://") {
		t.Fatalf(":Claude chat rewind edit opened %q, want the prompt's buffer", name)
	}
	e.nv.Lua(nil, `vim.api.nvim_buf_set_lines(0, 0, -1, false, { "stream, edited" })`)
	e.nv.Keys("<C-s>")
	e.recorded(`"subtype":"rewind_conversation"`)
	e.waitTranscript("**Error:** rewind failed: rewind_conversation: cannot rewind: turn running",
		"  ⎿  your edited prompt is in the input")
	if got := e.input(); got != "stream, edited\nhalf typed" {
		t.Errorf("after the failed rewind the input holds %q, want the edited prompt, then what was typed", got)
	}
	if got := e.transcript(); !strings.Contains(got, "Hello from the stand-in.") {
		t.Errorf("a failed rewind cut the transcript:\n%s", got)
	}
}
