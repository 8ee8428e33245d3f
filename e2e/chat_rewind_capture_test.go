package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

// TestCaptureAChatRewindScreen writes two screens to $CHAT_CAPTURE_REWIND, for the README and
// :help: the dry run of a rewind waiting in the transcript after R on the first of two
// prompts, then the choices opened with <CR> there. It only runs when that is set:
// CHAT_CAPTURE_REWIND=/tmp/rewind.txt go test -run CaptureAChatRewind.
func TestCaptureAChatRewindScreen(t *testing.T) {
	out, cli, api, env := captureSetup(t, "CHAT_CAPTURE_REWIND")
	path := filepath.Join(env.Project, "f.txt")
	if err := os.WriteFile(path, []byte(rewindOriginal), 0o644); err != nil {
		t.Fatal(err)
	}
	api.Push(
		fakeapi.Read(path), fakeapi.Edit(path, "two", "TWO"), fakeapi.Say("First edit done."),
		fakeapi.Edit(path, "three", "THREE\nfour"), fakeapi.Say("Second edit done."),
	)
	term := neovimInTmux(t, env, env.Project, cli, 120, 30, "")
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	defer cancel()
	wait := func(text string) {
		t.Helper()
		if _, err := term.WaitForText(ctx, text); err != nil {
			t.Fatal(err)
		}
	}
	wait("~")
	openChat(ctx, t, term, ":ClaudeChat")
	term.Type(":Claude mode acceptEdits")
	term.Send("Enter")
	wait("Mode: acceptEdits")
	term.Type("i" + firstPrompt)
	term.Send("C-s")
	wait("First edit done.")
	term.Type(secondPrompt)
	term.Send("C-s")
	wait("Second edit done.")
	// The turn is over once its summary line is there too, after the answer's text.
	if _, err := term.WaitUntil(ctx, "the second turn's summary", func(screen string) bool {
		_, after, found := strings.Cut(screen, "Second edit done.")
		return found && strings.Contains(after, "(this run)")
	}); err != nil {
		t.Fatal(err)
	}
	term.Send("Escape")
	term.Send("C-w")
	term.Type("k")
	term.Type("gg/^> First")
	term.Send("Enter")
	term.Type("R")
	wait("<CR> here to choose")
	preview := settledScreen(t, term)

	term.Send("Enter")
	wait("Fork a new conversation")
	choices := settledScreen(t, term)
	writeCapture(t, out, preview+"\n"+choices)
}
