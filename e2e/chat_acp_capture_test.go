package e2e

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

// TestCaptureAnACPAgentsChatScreen writes the screen of a chat on an ACP agent (Neovim in
// tmux, the real claude-agent-acp on the CLI under test, the stand-in API) to
// $ACP_CAPTURE, for the README and :help. The agent's entry is named "goose", as a
// non-Claude agent's would be: what the chat shows comes from ACP alone, whoever answers.
// It only runs when that is set.
func TestCaptureAnACPAgentsChatScreen(t *testing.T) {
	agent := os.Getenv("CLAUDE_ACP_AGENT")
	if agent == "" {
		t.Skip("CLAUDE_ACP_AGENT is not set")
	}
	out, cli, api, env := captureSetup(t, "ACP_CAPTURE")
	greet := filepath.Join(env.Project, "greet.txt")
	if err := os.WriteFile(greet, []byte("hello\nfrom\nNeovim\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	api.Push(
		fakeapi.Turn{Thinking: "The user asks about greet.txt; I should read it first.", Tools: []fakeapi.ToolUse{{Name: "Read", Input: map[string]any{"file_path": greet}}}},
		fakeapi.Stream("greet.txt has three lines: **hello**, **from** and **Neovim**.", 6, 0),
	)
	term := neovimInTmux(t, env, env.Project, cli, 160, 24, `
require('claude').setup({ terminal_cmd = { `+luaString(cli)+` }, chat = { agents = {
  goose = { command = `+luaString(agent)+`, env = { CLAUDE_CODE_EXECUTABLE = `+luaString(cli)+` } },
} } })
vim.cmd.edit('greet.txt')`)
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	defer cancel()
	if _, err := term.WaitForText(ctx, "hello"); err != nil {
		t.Fatal(err)
	}
	term.Type(":ClaudeChat goose")
	term.Send("Enter")
	if _, err := term.WaitFor(ctx, regexp.MustCompile(`goose chat \(ACP\)`)); err != nil {
		t.Fatal(err)
	}
	term.Type("iWhat does greet.txt say?")
	term.Send("C-s")
	if _, err := term.WaitForText(ctx, "tokens in"); err != nil {
		t.Fatal(err)
	}
	term.Send("Escape")
	screen := settledScreen(t, term)
	writeCapture(t, out, screen)
}
