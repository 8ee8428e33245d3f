package e2e

import (
	"context"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

// TestCaptureAChatTaskListAndSubagentScreen writes the screen of a chat with a task list and
// a finished subagent (Neovim in tmux, the real CLI, the stand-in API) to
// $CHAT_AGENTS_CAPTURE, for the README and :help. It only runs when that is set.
func TestCaptureAChatTaskListAndSubagentScreen(t *testing.T) {
	const prompt = "SUBAGENT: find the failing test"
	out, cli, api, env := captureSetup(t, "CHAT_AGENTS_CAPTURE",
		fakeapi.Turn{Tools: []fakeapi.ToolUse{taskCreate("Find the failing test", "Finding the failing test"), taskCreate("Fix it", "Fixing it")}},
		fakeapi.Use("TaskUpdate", map[string]any{"taskId": "1", "status": "in_progress"}),
		fakeapi.Use("Agent", map[string]any{"description": "Find the failing test", "prompt": prompt, "subagent_type": "Explore", "run_in_background": false}),
		fakeapi.Say("The subagent found it: `TestParse` fails on an empty line."),
	)
	api.Agent(prompt, fakeapi.Use("Bash", map[string]any{"command": "ls", "description": "list the files"}), fakeapi.Say("TestParse fails on an empty line."))
	env.Set("CLAUDE_CODE_ENABLE_TODO_TOOLS", "1")
	term := neovimInTmux(t, env, env.Project, cli, 150, 22, "")
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	defer cancel()
	openChat(ctx, t, term, ":ClaudeChat")
	term.Type("iWhy do the tests fail?")
	term.Send("C-s")
	if _, err := term.WaitForText(ctx, "tokens in"); err != nil {
		t.Fatal(err)
	}
	term.Send("Escape")
	screen := settledScreen(t, term)
	// Then the subagent's group opened: zo on its Agent line.
	term.Type(`:lua vim.api.nvim_set_current_win(vim.fn.bufwinid(require('claude.chat').buffers().transcript)); vim.fn.search('Agent(', 'w'); vim.cmd('normal! zo')`)
	term.Send("Enter")
	if _, err := term.WaitForText(ctx, "● Bash(ls)"); err != nil {
		t.Fatal(err)
	}
	screen += "\n" + settledScreen(t, term)
	writeCapture(t, out, screen)
}
