package e2e

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

// TestCaptureTheConversationList writes the screen of :ClaudeChat resume over two stored
// conversations, one renamed, with the preview of the other open, to $CHAT_HISTORY_CAPTURE,
// for the README and :help. It only runs when that is set.
func TestCaptureTheConversationList(t *testing.T) {
	out, cli, api, env := captureSetup(t, "CHAT_HISTORY_CAPTURE")
	greet := filepath.Join(env.Project, "greet.txt")
	if err := os.WriteFile(greet, []byte("hello\nfrom\nNeovim\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	api.Push(
		fakeapi.Read(greet),
		fakeapi.Say("greet.txt has three lines: hello, from and Neovim."),
		fakeapi.Say("Noted: the release is on Friday."),
	)
	term := neovimInTmux(t, env, env.Project, cli, 110, 24, "")
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	defer cancel()
	step := func(keys, want string) {
		t.Helper()
		if keys != "" {
			term.Type(keys)
			term.Send("Enter")
		}
		if _, err := term.WaitForText(ctx, want); err != nil {
			screen, _ := term.Screen()
			t.Fatalf("%v\n%s", err, screen)
		}
	}
	openChat(ctx, t, term, ":ClaudeChat")
	term.Type("iWhat does greet.txt say?")
	term.Send("C-s")
	step("", "tokens in")
	term.Send("Escape")
	openChat(ctx, t, term, ":ClaudeChat new")
	term.Type("iRemember: the release is on Friday")
	term.Send("C-s")
	step("", "Noted: the release")
	term.Send("Escape")
	step(":ClaudeChat resume", "2 conversations")
	term.Type("r")
	step("", "Rename the conversation")
	term.Send("C-u")
	term.Type("Release date")
	term.Send("Enter")
	step("", "Release date")
	term.Send("j")
	term.Type("p")
	step("", "> What does greet.txt say?")
	screen := settledScreen(t, term)
	writeCapture(t, out, screen)
}
