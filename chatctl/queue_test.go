package chatctl_test

import (
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// A message queued while Claude works is typed text like any other: if the CLI exits before
// a turn takes it in, it goes back into the input rather than being lost.
func TestAQueuedMessageGoesBackToTheInputWhenTheCLIExits(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Cmd("ClaudeChat")
	e.prompt("be slow")
	e.waitTranscript("Working")
	e.prompt("crash now") // queued: the stand-in reads it and exits 3, mid-turn
	e.waitTranscript("**Claude exited mid-turn (code 3).** Send again to resume the conversation.")
	var input []string
	nvimtest.Wait(t, "the queued message back in the input", waitTimeout, func() bool {
		e.nv.Lua(&input, `return vim.api.nvim_buf_get_lines(require('claude.chat').buffers().input, 0, -1, false)`)
		return strings.Join(input, "\n") == "crash now"
	})
	if got := e.transcript(); strings.Contains(got, "> crash now") {
		t.Errorf("the queued message shows as sent:\n%s", got)
	}
}
