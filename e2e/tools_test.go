package e2e

import (
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

// The editor's tools in the terminal: the model calls mcp__ide__getDiagnostics (the IDE
// WebSocket's tool). 2.1.332 offers it only behind ToolSearch; the call must still be
// answered from Neovim. Both 2.1.197 and 2.1.332 ask the user first ("Do you want to
// proceed?"), in default mode; the user says yes.
func TestATerminalDiagnosticsToolCallIsAnsweredFromTheEditor(t *testing.T) {
	t.Parallel()
	const message = "e2e: greeting is never used"
	s := newSession(t)
	path := s.writeFile("greet.txt", original)
	s.api.Push(
		fakeapi.Use("mcp__ide__getDiagnostics", map[string]any{"uri": "file://" + path}),
		fakeapi.Say("One warning in greet.txt."),
	)
	s.edit(path)
	s.nv.Lua(nil, `
		local ns = vim.api.nvim_create_namespace('e2e')
		vim.diagnostic.set(ns, 0, { { lnum = 1, col = 0, message = ..., severity = vim.diagnostic.severity.WARN } })`, message)
	s.open()
	s.prompt("What does the editor say about greet.txt?")
	s.waitText(clienv.ProceedQuestion, turnTimeout)
	s.focusClaude()
	s.typeKeys("1")
	s.waitText("One warning in greet.txt.", turnTimeout)
	s.assertToolAnswered("mcp__ide__getDiagnostics", message)
}
