package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

// TestCaptureAChatQuestionAndPlanScreen writes two screens of a real conversation in plan
// mode (Neovim in tmux, the real CLI, the stand-in API) to $CHAT_ASK_CAPTURE, for the README
// and :help: Claude's question with the picker the user opened, then the plan opened in its
// buffer. It only runs when that is set.
func TestCaptureAChatQuestionAndPlanScreen(t *testing.T) {
	out, cli, api, env := captureSetup(t, "CHAT_ASK_CAPTURE")
	greet := filepath.Join(env.Project, "greet.txt")
	if err := os.WriteFile(greet, []byte("hello\nfrom\nNeovim\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	api.Push(
		fakeapi.Ask(fakeapi.Question{Question: "How loud should the greeting be?", Header: "Volume", Options: []fakeapi.Option{
			{Label: "Shout", Description: "all capitals"}, {Label: "Whisper", Description: "all lower case"}}}),
		fakeapi.WritePlan("# Shout the greeting\n\n1. Change `hello` to `HELLO` in greet.txt\n2. Leave the other lines\n"),
		fakeapi.ExitPlanMode(),
	)
	term := neovimInTmux(t, env, env.Project, cli, 110, 24, "vim.cmd.edit('greet.txt')")
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	defer cancel()
	wait := func(text string) {
		t.Helper()
		if _, err := term.WaitForText(ctx, text); err != nil {
			t.Fatal(err)
		}
	}
	var screens []string
	capture := func() {
		t.Helper()
		screens = append(screens, settledScreen(t, term))
	}
	wait("hello")
	openChat(ctx, t, term, ":ClaudeChat")
	term.Type(":Claude mode plan")
	term.Send("Enter")
	wait("Mode: plan")
	term.Type("iMake the greeting louder")
	term.Send("C-s")
	wait("waiting for you")
	term.Send("Escape")
	term.Send("C-w")
	term.Send("k")
	term.Send("Enter")
	wait("Type number")
	capture()
	term.Type("1")
	term.Send("Enter")
	wait("approval")
	term.Send("Enter")
	wait("ga approve")
	capture()
	writeCapture(t, out, strings.Join(screens, "\n\n"))
}
