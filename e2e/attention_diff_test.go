package e2e

import (
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

// A terminal's edit under review: while its diff waits the session needs the user (the CLI
// asks for the edit's permission while the diff is open), for a "review", the diff's word
// (issue 36), and picking it from :Claude sessions goes to the proposal.
func TestATerminalsDiffNeedsYouAndPickingItGoesToTheProposal(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	path := s.writeFile("greet.txt", original)
	s.api.Push(fakeapi.Read(path), fakeapi.Edit(path, "two", "TWO"), fakeapi.Say("Louder now."))
	s.edit(path)
	s.open()
	s.prompt("Please make the second line louder")
	s.nextDiffOpened(path)
	s.waitAttention("the edit under review", map[string]string{"terminal:1": "needs_you diff"})

	s.nv.Cmd("stopinsert")
	s.nv.Cmd("tabnew")
	s.pickSession("terminal 1")
	s.nv.Cmd("ClaudeSessions")
	var offered []string
	s.nv.Lua(&offered, `return _G.offered`)
	if len(offered) == 0 || !strings.HasPrefix(offered[0], "needs you (review) · terminal 1 ") {
		t.Errorf(":Claude sessions offered %q, want first the review of terminal 1", offered)
	}
	if st := s.diffState(); !st.InProposal {
		t.Errorf("after picking the session whose diff waits: %+v, want the cursor in the proposal", st)
	}
	s.nv.Keys(`\aa`)
	s.nextDiffClosed("accepted")
	s.waitText("Louder now.", turnTimeout)
	s.waitAttention("the turn done", map[string]string{"terminal:1": "done"})
}
