package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/e2e/tmuxterm"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// TestCaptureAChatQuestionAndPlanScreen writes two screens of a real conversation in plan
// mode (Neovim in tmux, the real CLI, the stand-in API) to $CHAT_ASK_CAPTURE, for the README
// and :help: Claude's question with the picker the user opened, then the plan opened in its
// buffer. It only runs when that is set.
func TestCaptureAChatQuestionAndPlanScreen(t *testing.T) {
	out := os.Getenv("CHAT_ASK_CAPTURE")
	if out == "" {
		t.Skip("CHAT_ASK_CAPTURE is not set")
	}
	cli := clienv.Bin(t)
	api := fakeapi.New(t)
	env := clienv.New(t, api.URL())
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
	init := filepath.Join(t.TempDir(), "init.lua")
	if err := os.WriteFile(init, []byte(`
vim.opt.rtp:prepend(`+luaString(nvimtest.RepoRoot())+`)
vim.g.claude_nvim_binary = `+luaString(pluginBinary)+`
require('claude').setup({ terminal_cmd = { `+luaString(cli)+` } })
vim.cmd.edit('greet.txt')
`), 0o644); err != nil {
		t.Fatal(err)
	}
	vars := append(env.Vars(), "PATH="+os.Getenv("PATH"))
	term := tmuxterm.Start(t, tmuxterm.Options{Dir: env.Project, Env: vars, Width: 110, Height: 24},
		nvimtest.Binary(t), "--clean", "-u", init)
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
		time.Sleep(500 * time.Millisecond) // let the last redraw land; only a capture waits on it
		screen, err := term.Screen()
		if err != nil {
			t.Fatal(err)
		}
		screens = append(screens, screen)
	}
	wait("hello")
	term.Type(":ClaudeChat")
	term.Send("Enter")
	wait("Claude chat")
	term.Type(":ClaudeChatMode plan")
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
	if err := os.WriteFile(out, []byte(strings.Join(screens, "\n\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screens written to %s:\n%s", out, strings.Join(screens, "\n\n"))
}
