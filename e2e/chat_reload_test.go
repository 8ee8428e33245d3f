package e2e

import (
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// Files the chat's CLI writes itself, without a review, are reloaded in their buffers as the
// terminal's edits are, and never over the user's unsaved edits (issue 22 item 6).

func TestAChatsUnreviewedEditsAndBashWritesAreReloadedButNeverOverUnsavedEdits(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	t.Cleanup(s.logTranscript)
	edited := s.writeFile("edited.txt", original)
	sedded := s.writeFile("sedded.txt", original)
	mine := s.writeFile("mine.txt", original)
	const sed = "sed -i 's/three/THREE/' sedded.txt mine.txt"
	// Each answer after a write waits for its gate: the buffer must show the write while the
	// turn still runs, not only once it ends.
	afterEdit, afterSed := make(chan struct{}), make(chan struct{})
	bash := fakeapi.Use("Bash", map[string]any{"command": sed, "description": "Shout the last lines"})
	bash.Gate = afterEdit
	closing := fakeapi.Say("All three files are louder.")
	closing.Gate = afterSed
	s.api.Push(fakeapi.Read(edited), fakeapi.Edit(edited, "two", "TWO"), bash, closing)
	t.Cleanup(func() { // a failed test must not leave the CLI waiting
		for _, gate := range []chan struct{}{afterEdit, afterSed} {
			select {
			case <-gate:
			default:
				close(gate)
			}
		}
	})
	s.edit(edited)
	s.edit(sedded)
	s.edit(mine)
	s.nv.Keys("Goadded by the user<Esc>") // unsaved: Claude's write must not replace it
	s.answerPermissions("Allow once", "")
	s.openChat()
	s.nv.Cmd("ClaudeChatMode acceptEdits")
	s.waitChat("_Mode: acceptEdits_")
	s.chatSend("Make the files louder")
	s.chatRequest(3) // carries the Edit's result; its answer waits
	s.waitBuffer(edited, proposed)
	close(afterEdit)
	// acceptEdits lets the Edit through; the CLI (2.1.332) runs a sed -i in the project
	// without asking too, but an older one may ask.
	nvimtest.Wait(t, "the Bash command to run or ask", turnTimeout, func() bool {
		return len(s.api.Main()) >= 4 || strings.Contains(s.chatTranscript(), "? Bash(")
	})
	if strings.Contains(s.chatTranscript(), "? Bash(") {
		t.Logf("Claude Code %s asked before the sed -i in acceptEdits mode", cliVersion)
		s.nv.Cmd("ClaudeChatAnswer")
	}
	s.chatRequest(4) // carries the Bash result; its answer waits
	s.waitBuffer(sedded, "one\ntwo\nTHREE\n")
	close(afterSed)
	s.waitChat("All three files are louder.")
	if got := s.fileContent(mine); got != "one\ntwo\nTHREE\n" {
		t.Fatalf("the sed did not change %s: it holds %q", mine, got)
	}
	nvimtest.Wait(t, "the warning about the unsaved buffer", turnTimeout, func() bool {
		return strings.Contains(s.nv.Messages(), "mine.txt changed on disk but has unsaved edits here; not reloaded")
	})
	if b := s.buffer(mine); !b.Modified || b.Text != original+"added by the user\n" {
		t.Errorf("the buffer with unsaved edits is %+v, want the user's text kept, still modified", b)
	}
	if n := strings.Count(s.nv.Messages(), "mine.txt changed on disk"); n != 1 {
		t.Errorf("the user was told %d times about mine.txt, want once; messages:\n%s", n, s.nv.Messages())
	}
	var mode map[string]any
	s.nv.Lua(&mode, `return vim.api.nvim_get_mode()`)
	if mode["blocking"] == true || mode["mode"] != "n" {
		t.Errorf("after the reloads Neovim is in mode %v, want Normal and not waiting at a prompt", mode)
	}
}
