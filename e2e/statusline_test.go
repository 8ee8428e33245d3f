package e2e

import (
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The statusline counts Claude's changes nobody reviewed yet (the ledger's hunks), whatever
// else it says: with a terminal session, whose state the attention list knows, and with a
// chat alone (issue 36, defect 1: the count was dropped once any session was known).

// statusline returns require('claude').statusline().
func (s *session) statusline() string {
	s.t.Helper()
	var line string
	s.nv.Lua(&line, `return require('claude').statusline()`)
	return line
}

// assertUnreviewedShown checks that the statusline starts with head and ends with the count
// of unreviewed hunks the host pushed last (one: the turn changed one line).
func (s *session) assertUnreviewedShown(head string) {
	s.t.Helper()
	var count int
	s.nv.Lua(&count, `return require('claude.changes.signs').count()`)
	if count != 1 {
		s.t.Fatalf("the ledger counts %d unreviewed hunks, want the turn's 1", count)
	}
	if line := s.statusline(); !strings.HasPrefix(line, head) || !strings.HasSuffix(line, " · 1 unreviewed") {
		s.t.Errorf("statusline() = %q, want it to start with %q and end with %q", line, head, " · 1 unreviewed")
	}
}

func TestTheStatuslineCountsUnreviewedChangesWithATerminalSession(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	path := s.writeFile("greet.txt", original)
	s.api.Push(fakeapi.Read(path), fakeapi.Edit(path, "two", "TWO"), fakeapi.Say("Turn over."))
	s.withPermissionMode("acceptEdits") // written without the review: the ledger has it
	signs := s.nv.UserEvents("ClaudeChangeSigns")
	s.edit(path)
	s.open()
	s.prompt("Please make the second line louder")
	s.waitText("Turn over.", turnTimeout)
	nvimtest.Next(t, signs, "the signs pushed when the turn ended (its Stop hook)", turnTimeout)
	s.assertUnreviewedShown("Claude ● acceptEdits")
}

func TestTheStatuslineCountsUnreviewedChangesWithAChatAlone(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	t.Cleanup(s.logTranscript)
	path := s.writeFile("greet.txt", original)
	s.api.Push(fakeapi.Read(path), fakeapi.Edit(path, "two", "TWO"), fakeapi.Say("Chat turn over."))
	signs := s.nv.UserEvents("ClaudeChangeSigns")
	s.openChat()
	s.nv.Cmd("ClaudeChatMode acceptEdits")
	s.waitChat("_Mode: acceptEdits_")
	s.chatSend("Please make the second line louder")
	s.waitChat("Chat turn over.")
	nvimtest.Next(t, signs, "the signs pushed when the chat's turn ended", turnTimeout)
	s.assertUnreviewedShown("Claude")
}
