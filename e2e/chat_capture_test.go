package e2e

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/e2e/tmuxterm"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// captureSetup starts a screen capture's test: the file to write ($name: the test is skipped
// when it is not set), the CLI under test, the stand-in API with script, and the CLI's
// isolated environment.
func captureSetup(t *testing.T, name string, script ...fakeapi.Turn) (out, cli string, api *fakeapi.Server, env *clienv.Env) {
	t.Helper()
	if out = os.Getenv(name); out == "" {
		t.Skip(name + " is not set")
	}
	cli = clienv.Bin(t)
	api = fakeapi.New(t, script...)
	env = clienv.New(t, api.URL())
	// After Neovim (its tmux's cleanup comes first) and before the directories go: a chat's
	// CLI ended mid-turn still writes its session files while it exits.
	t.Cleanup(func() { waitOrKill(t, processesWithEnv("CLAUDE_CONFIG_DIR="+env.ConfigDir)) })
	return out, cli, api, env
}

// TestCaptureAChatScreen writes the screen of a short real conversation (Neovim in tmux, the
// real CLI, the stand-in API) to $CHAT_CAPTURE, for the README and :help. It only runs when
// that is set: `CHAT_CAPTURE=/tmp/chat.txt make e2e` or go test -run CaptureAChatScreen.
func TestCaptureAChatScreen(t *testing.T) {
	out, cli, api, env := captureSetup(t, "CHAT_CAPTURE")
	greet := filepath.Join(env.Project, "greet.txt")
	if err := os.WriteFile(greet, []byte("hello\nfrom\nNeovim\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	api.Push(
		fakeapi.Turn{Thinking: "The user asks about greet.txt; I should read it first.", Tools: []fakeapi.ToolUse{{Name: "Read", Input: map[string]any{"file_path": greet}}}},
		fakeapi.Stream("greet.txt has three lines: **hello**, **from** and **Neovim**.", 6, 20*time.Millisecond),
	)
	term := neovimInTmux(t, env, env.Project, cli, 110, 22, "vim.cmd.edit('greet.txt')")
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	defer cancel()
	if _, err := term.WaitForText(ctx, "hello"); err != nil {
		t.Fatal(err)
	}
	openChat(ctx, t, term, ":ClaudeChat")
	term.Type("iWhat does greet.txt say?")
	term.Send("C-s")
	if _, err := term.WaitForText(ctx, "tokens in"); err != nil {
		t.Fatal(err)
	}
	term.Send("Escape")
	screen := settledScreen(t, term)
	writeCapture(t, out, screen)
}

// neovimInTmux starts Neovim in a width×height tmux terminal in dir, with the plugin, its
// chat's CLI cli and env's environment, then runs the Lua in extra (e.g. opening a file): a
// user's screen, for the captures in the README and :help.
func neovimInTmux(t *testing.T, env *clienv.Env, dir, cli string, width, height int, extra string) *tmuxterm.Term {
	t.Helper()
	init := filepath.Join(t.TempDir(), "init.lua")
	if err := os.WriteFile(init, []byte(`
vim.opt.rtp:prepend(`+luaString(nvimtest.RepoRoot())+`)
vim.g.claude_nvim_binary = `+luaString(pluginBinary)+`
require('claude').setup({ terminal_cmd = { `+luaString(cli)+` } })
`+extra+`
`), 0o644); err != nil {
		t.Fatal(err)
	}
	vars := append(env.Vars(), "PATH="+os.Getenv("PATH"))
	return tmuxterm.Start(t, tmuxterm.Options{Dir: dir, Env: vars, Width: width, Height: height},
		nvimtest.Binary(t), "--clean", "-u", init)
}

// chatWinbar is the chat's winbar: "Claude chat" alone until the CLI has
// said its model, then the model, effort and context before the title, which a
// narrow window cuts off (the state comes first on purpose: chat/state.lua).
var chatWinbar = regexp.MustCompile(`Claude chat|· effort \S+`)

// openChat types :ClaudeChat and waits for the chat's window.
func openChat(ctx context.Context, t *testing.T, term *tmuxterm.Term, command string) {
	t.Helper()
	term.Type(command)
	term.Send("Enter")
	if _, err := term.WaitFor(ctx, chatWinbar); err != nil {
		t.Fatal(err)
	}
}

// writeCapture writes a captured screen (the text README and :help show) to out, and
// logs it.
func writeCapture(t *testing.T, out, screen string) {
	t.Helper()
	if err := os.WriteFile(out, []byte(screen), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screen written to %s:\n%s", out, screen)
}

// settledScreen is the screen after the last redraw has landed; only captures wait on that.
func settledScreen(t *testing.T, term *tmuxterm.Term) string {
	t.Helper()
	time.Sleep(500 * time.Millisecond)
	screen, err := term.Screen()
	if err != nil {
		t.Fatal(err)
	}
	return screen
}

// luaString quotes s for Lua source.
func luaString(s string) string {
	return "[==[" + s + "]==]"
}
