package e2e

import (
	"strconv"
	"strings"
	"testing"
)

// Reject a whole proposal and tell Claude why (issue 36). In the terminal a rejection stops
// the CLI's turn, so the model reads nothing until the user's next prompt: the reason goes
// with it (a UserPromptSubmit hook's additionalContext). The chat sends it in the rejection,
// as the CLI's "No, and tell Claude what to do differently": the tool's result, and the turn
// goes on.

const rejectReason = "the poem must stay quiet"

// toldAfterTheRejection waits for the n-th main request and returns what it tells the model
// after its last answer: the user's text and the tool results.
func (s *session) toldAfterTheRejection(n int) string {
	s.t.Helper()
	req := s.mainRequest(n)
	told := []string{req.LastUserText()}
	for _, b := range req.ToolResults() {
		told = append(told, b.Texts()...)
	}
	return strings.Join(told, "\n")
}

func TestAProposalRejectedWithAReasonTellsTheTerminalsModelWhy(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	path := s.writeFile("poem.txt", fiveLines)
	twoHunkEdit(s, path, "Quiet it stays.") // the answer to the prompt after the rejection
	s.edit(path)
	s.open()
	s.prompt("Please make lines two and four of poem.txt louder")
	s.nextDiffOpened(path)
	s.goToTheProposal()
	s.nv.Cmd("Claude review reject " + rejectReason)
	s.nextDiffClosed("rejected")
	s.waitRejected("poem.txt")
	s.waitScreen("the CLI to end the turn", turnTimeout, isReady)

	s.prompt("What now?")
	told := s.toldAfterTheRejection(3)
	t.Logf("with the next prompt the model got: %q", told)
	for _, want := range []string{"What now?", "rejected your proposed change to " + strconv.Quote(path), strconv.Quote(rejectReason)} {
		if !strings.Contains(told, want) {
			t.Errorf("with the next prompt the model got %q, want it to hold %q", told, want)
		}
	}
	if got := s.fileContent(path); got != fiveLines {
		t.Errorf("%s holds %q, want it unchanged", path, got)
	}
	s.waitText("Quiet it stays.", turnTimeout)
}

func TestAProposalRejectedWithAReasonTellsTheChatsModelWhy(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	t.Cleanup(s.logTranscript)
	path := s.writeFile("poem.txt", fiveLines)
	twoHunkEdit(s, path, "Quiet it stays.") // the answer to the prompt after the rejection
	s.openChat()
	s.nv.Keys("iPlease make lines two and four of poem.txt louder<Esc><CR>")
	s.nextDiffOpened(path)
	s.nv.Cmd("ClaudeDiffFocus")
	// <Plug>(ClaudeDiffRejectWhy) asks why, as a user's mapping of it would.
	s.nv.Lua(nil, `local why = ...; vim.ui.input = function(_, done) done(why) end`, rejectReason)
	s.nv.Keys(`<Plug>(ClaudeDiffRejectWhy)`)
	s.nextDiffClosed("rejected")
	s.waitChat("  ⎿  rejected, saying why; Claude goes on")
	told := s.toldAfterTheRejection(3)
	t.Logf("after the rejection the model got: %q", told)
	s.waitChat("Quiet it stays.")
	for _, want := range []string{"The user rejected this change in the editor's diff review.", strconv.Quote(rejectReason)} {
		if !strings.Contains(told, want) {
			t.Errorf("after the rejection the model got %q, want it to hold %q", told, want)
		}
	}
	if got := s.fileContent(path); got != fiveLines {
		t.Errorf("%s holds %q, want it unchanged", path, got)
	}
}
