package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/e2e/tmuxterm"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// Titles (issue 39, item 5): the conversation the chat runs, renamed in the history list, is
// renamed through its CLI (rename_session): the CLI holds the title and writes it, and the
// terminal's --resume picker shows it.

func TestRenamingTheRunningConversationGoesThroughItsCLI(t *testing.T) {
	t.Parallel()
	const (
		prompt = "Remember the word lantern"
		title  = "Lantern notes"
	)
	s := newSession(t, fakeapi.Say("Noted."))
	t.Cleanup(s.logTranscript)
	s.openChat()
	s.chatSend(prompt)
	s.waitChat("Noted.")
	s.turnDone(1)
	id := s.conversationID(prompt)

	s.nv.Cmd("ClaudeChat resume")
	s.waitHistory("the conversation", prompt)
	s.onHistoryLine(prompt)
	s.answerInput(title)
	s.nv.Keys("r")
	s.waitHistory("the new title", title)

	// The CLI wrote the title (2.1.332 with its agent-name line beside it) and says so.
	stored := s.fileContent(s.storedFile(id))
	if !strings.Contains(stored, `{"type":"custom-title","customTitle":"`+title+`","sessionId":"`+id+`"}`) {
		t.Errorf("the conversation's file has no custom-title line for %q", title)
	}
	if cliVersion != "2.1.197" {
		s.waitChat("_Title: " + title + "_")
		// Written by the CLI just after the custom-title line, which the list showed.
		nvimtest.Wait(t, "the CLI's agent-name line (the title given through it)", turnTimeout, func() bool {
			return strings.Contains(s.fileContent(s.storedFile(id)), `{"type":"agent-name","agentName":"`+title+`"`)
		})
		if got := s.chatStatus(); !strings.Contains(got, title+" · Claude chat") {
			t.Errorf("the winbar says %q, want the title", got)
		}
	}

	// The terminal's --resume picker (of print mode's entrypoint, which lists the chat's
	// conversations) shows it.
	env := append(s.env.Vars(), "CLAUDE_CODE_ENTRYPOINT=sdk-cli")
	term := tmuxterm.Start(t, tmuxterm.Options{Dir: s.env.Project, Env: env, Width: 120, Height: 40}, clienv.Bin(t), "--resume")
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	if _, err := term.WaitForText(ctx, title); err != nil {
		screen, _ := term.Screen()
		t.Errorf("the CLI's --resume picker does not show %q: %v\n%s", title, err, screen)
	}
	term.Close()
}
