package e2e

import (
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

// A terminal's edit under review: while its diff waits the session needs the user (the CLI
// asks for the edit's permission while the diff is open), and picking it from
// :ClaudeSessions goes to the proposal.
func TestATerminalsDiffNeedsYouAndPickingItGoesToTheProposal(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	path := s.writeFile("greet.txt", original)
	s.api.Push(fakeapi.Read(path), fakeapi.Edit(path, "two", "TWO"), fakeapi.Say("Louder now."))
	s.edit(path)
	s.open()
	s.prompt("Please make the second line louder")
	s.nextDiffOpened(path)
	s.waitAttention("the edit under review", map[string]string{"terminal:1": "needs_you permission"})

	s.nv.Cmd("stopinsert")
	s.nv.Cmd("tabnew")
	s.pickSession("terminal 1")
	s.nv.Cmd("ClaudeSessions")
	if st := s.diffState(); !st.InProposal {
		t.Errorf("after picking the session whose diff waits: %+v, want the cursor in the proposal", st)
	}
	s.nv.Keys(`\aa`)
	s.nextDiffClosed("accepted")
	s.waitText("Louder now.", turnTimeout)
	s.waitAttention("the turn done", map[string]string{"terminal:1": "done"})
}
