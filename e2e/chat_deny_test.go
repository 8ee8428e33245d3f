package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// A plain deny in the chat stops the turn as the terminal's "No" does (issue 22 item 8):
// Claude waits for the user instead of asking the model again at once.

func TestAChatBashCommandDeniedStopsTheTurnAndClaudeWaitsForTheUser(t *testing.T) {
	t.Parallel()
	s := newSession(t, bashTurns("touch made-by-bash.txt", "Then I will try something else.")...)
	t.Cleanup(s.logTranscript)
	s.openChat()
	s.chatSend("Create made-by-bash.txt")
	s.waitChat("? Bash(touch made-by-bash.txt) asks for permission")
	s.nv.Cmd("ClaudeChatAnswer deny")
	s.waitChat("  ⎿  denied; the turn stops")
	nvimtest.Wait(t, "the turn to end", turnTimeout, func() bool {
		return strings.Contains(s.chatTranscript(), " tokens in, ")
	})
	if _, err := os.Stat(filepath.Join(s.env.Project, "made-by-bash.txt")); err == nil {
		t.Errorf("the denied command ran: made-by-bash.txt exists")
	}
	if n := len(s.api.Main()); n != 1 {
		t.Errorf("after a plain deny the model was asked %d times, want once (the turn stops)", n)
	}
	if strings.Contains(s.chatTranscript(), "Then I will try something else.") {
		t.Errorf("the turn went on after a plain deny")
	}
	// The next message goes on, and the model learns of the denial with it.
	s.chatSend("Never mind, say something")
	s.waitChat("Then I will try something else.")
	// The CLI's words, not ours: with interrupt it sends what the terminal's No sends.
	got := s.chatRequest(2)
	const stop = "STOP what you are doing and wait for the user to tell you how to proceed."
	if r := got.ToolResults(); len(r) != 1 || !r[0].IsError || !strings.Contains(strings.Join(r[0].Texts(), "\n"), stop) {
		t.Errorf("with the next message the model got the tool results %+v, want one error saying %q", r, stop)
	}
	if text := got.LastUserText(); !strings.Contains(text, "[Request interrupted by user for tool use]") {
		t.Errorf("with the next message the model got %q, want the CLI's note of the interruption", text)
	}
}

// What the chat's plain deny copies: the terminal's "No" (Esc in the CLI's dialog) stops the
// turn and the model is not asked again until the user writes.
func TestTheTerminalsNoToABashCommandStopsTheTurn(t *testing.T) {
	t.Parallel()
	s := newSession(t, bashTurns("touch made-by-bash.txt", "Then I will try something else.")...)
	s.open()
	s.prompt("Create made-by-bash.txt")
	s.waitText("Do you want to proceed?", turnTimeout)
	s.nv.Input("<Esc>") // the dialog's No
	screen := s.waitScreen("the CLI to be ready again", turnTimeout, isReady)
	if n := len(s.api.Main()); n != 1 || !strings.Contains(screen, "Interrupted") {
		t.Errorf("after the terminal's No the model was asked %d times (want once) and the screen is\n%s\nwant it interrupted", n, screen)
	}
}
