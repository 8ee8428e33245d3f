package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// An ACP agent's edit reviewed per hunk: claude-agent-acp's Edit asks (mode default) and
// opens in the diff review; the user takes the first hunk back and accepts the rest. The
// agent writes the whole proposal itself once allowed (no fs/write_text_file comes), the
// chat then gives the file what the user kept, and the agent is told with the next prompt.
func TestAnACPAgentsEditReviewedPerHunkKeepsOnlyTheKeptHunk(t *testing.T) {
	s := acpSession(t, []string{"acpclaude"})
	s.ledgerRepo()
	path := s.writeFile("poem.txt", fiveLines)
	twoHunkEdit(s, path, "Only the fourth line shouts now.")
	s.nv.Cmd("ClaudeChat acpclaude")
	s.chatSend("Please make lines two and four of poem.txt louder")
	s.nextDiffOpened(path)
	if got := s.fileContent(path); got != fiveLines {
		t.Fatalf("poem.txt while the review is open = %q; want it untouched", got)
	}
	s.nv.Cmd("ClaudeDiffFocus")
	s.takeBackTheFirstHunkAndAccept()
	s.waitChat("  ⎿  accepted with your changes")
	s.waitChat("Only the fourth line shouts now.")
	nvimtest.Wait(t, "the turn to end", turnTimeout, func() bool {
		return strings.Contains(s.chatTranscript(), " tokens in, ")
	})
	if got := s.fileContent(path); got != onlyKept {
		t.Errorf("after taking back one hunk and accepting, poem.txt holds %q, want only the kept hunk: %q", got, onlyKept)
	}
	// The turn is in the ledger as the file was left: only the kept hunk.
	s.changesRequest("list", `vim.cmd('ClaudeChanges')`)
	if list := s.currentLines(); !strings.Contains(list, "M poem.txt  +1 -1") {
		t.Errorf(":ClaudeChanges does not show poem.txt with one line changed:\n%s", list)
	}
	s.nv.Cmd("close")
	// The agent hears of it with the next message.
	s.api.Push(fakeapi.Say("Noted."))
	s.chatSendIn(s.env.Project+"//acpclaude", "Thanks")
	s.waitChat("Noted.")
	reqs := s.api.Main()
	told := reqs[len(reqs)-1].LastUserText()
	for _, want := range []string{"The user modified your proposed changes to " + strconv.Quote(path), "Thanks"} {
		if !strings.Contains(told, want) {
			t.Errorf("the next prompt's request holds %q, want %q in it", told, want)
		}
	}
	if t.Failed() {
		t.Logf("transcript:\n%s", s.chatTranscript())
	}
}

// An ACP turn in a folder that is not a git repository is in the ledger too (its root is
// the folder, as for the Claude chat's turns outside git) and is reverted from it.
func TestAnACPAgentsTurnOutsideGitIsInTheLedger(t *testing.T) {
	s := acpSession(t, []string{"acpclaude"})
	if _, err := os.Stat(filepath.Join(s.env.Project, ".git")); err == nil {
		t.Fatal("the project is a git repository")
	}
	path := s.writeFile("poem.txt", fiveLines)
	s.api.Push(fakeapi.Read(path), fakeapi.Edit(path, "four", "FOUR"), fakeapi.Say("Louder."))
	s.nv.Cmd("ClaudeChat acpclaude")
	s.chatSend("Make line four louder")
	s.nextDiffOpened(path)
	s.nv.Cmd("ClaudeDiffFocus")
	s.nv.Keys(`\aa`)
	s.turnInTheLedger(path, onlyKept)
}

// An edit claude-agent-acp runs without asking (acceptEdits) outside git is in the ledger
// too: the Claude it runs gets the PreToolUse hook (through the session's _meta), so the
// file is snapshotted before the edit, as for Claude's own chat.
func TestAnACPAgentsUnaskedEditOutsideGitIsInTheLedger(t *testing.T) {
	s := acpSession(t, []string{"acpclaude"})
	path := s.writeFile("poem.txt", fiveLines)
	s.api.Push(fakeapi.Read(path), fakeapi.Edit(path, "four", "FOUR"), fakeapi.Say("Louder."))
	s.nv.Cmd("ClaudeChat acpclaude")
	s.nv.Cmd("ClaudeChatMode acceptEdits")
	nvimtest.Wait(t, "the agent's mode to be acceptEdits", turnTimeout, func() bool {
		return strings.Contains(s.chatWinbar(), "acceptEdits")
	})
	s.chatSend("Make line four louder")
	s.waitChat("Louder.")
	s.turnInTheLedger(path, strings.Replace(fiveLines, "four", "FOUR", 1))
}

// turnInTheLedger waits for the ACP turn that made path (fiveLines before) hold want to
// end, then finds it in :Claude changes and reverts it there.
func (s *session) turnInTheLedger(path, want string) {
	t := s.t
	t.Helper()
	nvimtest.Wait(t, "the turn to end", turnTimeout, func() bool {
		return strings.Contains(s.chatTranscript(), " tokens in, ")
	})
	if got := s.fileContent(path); got != want {
		t.Fatalf("poem.txt after the Edit = %q, want %q", got, want)
	}
	s.changesRequest("list", `vim.cmd('ClaudeChanges')`)
	if list := s.currentLines(); !strings.Contains(list, "M poem.txt  +1 -1") {
		t.Fatalf(":ClaudeChanges has no poem.txt:\n%s", list)
	}
	s.cursorToLineWith("M poem.txt")
	s.changesRequest("revert_file", `vim.api.nvim_feedkeys('X', 'x', false)`)
	if got := s.fileContent(path); got != fiveLines {
		t.Errorf("poem.txt after reverting the ACP turn = %q, want %q", got, fiveLines)
	}
}
