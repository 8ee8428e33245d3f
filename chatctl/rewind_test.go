package chatctl_test

import (
	"os"
	"strings"
	"testing"
)

// A rewind while Claude works would cut what the turn still writes into: R says so, and
// nothing reaches the CLI. R away from the transcript says where to press it.
func TestARewindWhileClaudeWorksIsRefusedWithoutAskingTheCLI(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Cmd("ClaudeChat")
	if got := commandMessages(t, e.nv, "ClaudeChatRewind"); !strings.Contains(got, "put the cursor on one of your prompts in the chat's transcript first") {
		t.Errorf(":ClaudeChatRewind in the input said %q; want it to say where", got)
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
