package e2e

import (
	"context"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

// TestCaptureTheChatContextWinbar writes the screen of a chat whose context window is 42%
// full, at high effort, compacted once, to $CHAT_CONTEXT_CAPTURE, for the README and :help.
// It only runs when that is set.
func TestCaptureTheChatContextWinbar(t *testing.T) {
	out, cli, _, env := captureSetup(t, "CHAT_CONTEXT_CAPTURE",
		fakeapi.Filled("The parser keeps one decode per line; the batcher merges deltas.", 420_000),
		fakeapi.Filled("Done: the summary is all I need from here.", 30_000),
	)
	term := neovimInTmux(t, env, env.Project, cli, 100, 28, "require('claude').setup({ terminal_cmd = { "+luaString(cli)+" }, terminal = { position = 'tab' } })")
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	defer cancel()
	openChat(ctx, t, term, ":ClaudeChat")
	term.Type("iHow does the chat read the CLI's output?")
	term.Send("C-s")
	if _, err := term.WaitForText(ctx, "context 42%"); err != nil {
		t.Fatal(err)
	}
	term.Send("Escape")
	term.Type(":Claude effort high")
	term.Send("Enter")
	if _, err := term.WaitForText(ctx, "effort high"); err != nil {
		t.Fatal(err)
	}
	term.Type("i/compact")
	term.Send("C-s")
	if _, err := term.WaitForText(ctx, "Conversation compacted"); err != nil {
		t.Fatal(err)
	}
	term.Type("Go on from the summary.")
	term.Send("C-s")
	if _, err := term.WaitForText(ctx, "context 3%"); err != nil {
		t.Fatal(err)
	}
	term.Send("Escape")
	screen := settledScreen(t, term)
	writeCapture(t, out, screen)
}
