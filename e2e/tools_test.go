package e2e

import (
	"strings"
	"testing"
	"time"

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
	s.answerYes(clienv.ProceedQuestion)
	s.waitText("One warning in greet.txt.", turnTimeout)
	s.assertToolAnswered("mcp__ide__getDiagnostics", message)
}

// answerYes answers one of the CLI's own questions (question: its text, e.g.
// clienv.ProceedQuestion) with 1 (Yes) in its terminal, as the user does. A key that arrives
// while the dialog is still being drawn can be lost (seen with 2.1.332 on a loaded machine),
// so it is typed again while the question stays.
func (s *session) answerYes(question string) {
	s.t.Helper()
	s.waitText(question, turnTimeout)
	s.focusClaude()
	for try := 1; ; try++ {
		s.typeKeys("1")
		deadline := time.Now().Add(answerWait)
		for {
			screen, _ := s.screen()
			if !strings.Contains(screen, question) {
				return
			}
			if time.Now().After(deadline) {
				break
			}
			time.Sleep(pollInterval)
		}
		if try == 3 {
			s.t.Fatalf("the CLI still asks %q after 1 was typed %d times", question, try)
		}
		s.t.Logf("the CLI still asks %q; typing 1 again", question)
	}
}

// answerWait is how long a typed answer may take to close the CLI's dialog.
const answerWait = 10 * time.Second
