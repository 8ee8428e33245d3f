package e2e

// Two sessions in one Neovim: two real CLIs, each in a worktree of its own,
// each in a tab page of its own.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// screenOf returns the visible rows of session id's terminal, wherever the
// user is.
func (s *session) screenOf(id int) string {
	s.t.Helper()
	var lines []string
	s.nv.Lua(&lines, `
		local buf = require('claude.terminal').buf(...)
		if not buf then return {} end
		local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
		while #lines > 0 and vim.trim(lines[#lines]) == "" do table.remove(lines) end
		return vim.list_slice(lines, math.max(1, #lines - 11))`, id)
	return strings.Join(lines, "\n")
}

func (s *session) tabPage() int {
	s.t.Helper()
	var n int
	s.nv.Lua(&n, `return vim.fn.tabpagenr()`)
	return n
}

func TestTwoCLIsInTwoWorktreesEachGetTheirOwnEditsAndSelections(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	worktree := filepath.Join(filepath.Dir(s.env.Project), "worktree")
	if err := os.MkdirAll(worktree, 0o755); err != nil {
		t.Fatal(err)
	}
	s.env.Trust(t, worktree)
	pathA := s.writeFile("greet.txt", original)
	pathB := filepath.Join(worktree, "feature.txt")
	if err := os.WriteFile(pathB, []byte(original), 0o644); err != nil {
		t.Fatal(err)
	}

	// Session a in tab page 1 (the project), session b in tab page 2 (the worktree).
	s.edit(pathA)
	s.open()
	s.nv.Cmd("tabnew")
	s.nv.Lua(nil, `vim.cmd.tcd(vim.fn.fnameescape(...))`, worktree)
	s.edit(pathB)
	s.open()
	var sessions []struct {
		ID  int    `msgpack:"id"`
		Cwd string `msgpack:"cwd"`
	}
	s.nv.Lua(&sessions, `return require('claude.terminal').sessions()`)
	if len(sessions) != 2 || sessions[0].Cwd != s.env.Project || sessions[1].Cwd != worktree {
		t.Fatalf("sessions %+v, want the project's and the worktree's", sessions)
	}

	// A selection in b's tab page reaches b's CLI and not a's.
	s.nv.Keys("ggVj")
	s.waitText("2 lines selected", turnTimeout)
	s.nv.Keys("<Esc>")
	if screenA := s.screenOf(1); strings.Contains(screenA, "lines selected") || !strings.Contains(screenA, selectionIndicator(pathA)) {
		t.Errorf("a's CLI shows a selection made in b's tab page (or lost its own file); a's screen:\n%s", screenA)
	}

	// b proposes an edit while the user is in a's tab page: it waits for b's.
	s.api.Push(fakeapi.Read(pathB), fakeapi.Edit(pathB, "two", "TWO"), fakeapi.Say("b is louder now."))
	s.prompt("Please make the second line of feature.txt louder")
	s.nv.Cmd("stopinsert")
	s.nv.Cmd("tabnext 1")
	nvimtest.Wait(t, "b's proposal to arrive", turnTimeout, func() bool {
		var n int
		s.nv.Lua(&n, `return require('claude.diff').waiting(2)`)
		return n == 1
	})
	if st := s.diffState(); st.DiffWindows != 0 {
		t.Fatalf("b's proposal opened in a's tab page: %+v", st)
	}
	s.nv.Cmd("tabnext 2")
	s.nextDiffOpened(pathB)
	if n := s.tabPage(); n != 2 {
		t.Errorf("b's proposal opened in tab page %d, want b's (2)", n)
	}
	s.nv.Cmd("ClaudeDiffFocus")
	s.waitMode("n", "normal mode in b's proposal")
	s.nv.Keys(`\aa`)
	s.nextDiffClosed("accepted")
	s.waitText("b is louder now.", turnTimeout)
	if got := s.fileContent(pathB); got != proposed {
		t.Errorf("after accepting b's proposal, %s holds %q, want %q", pathB, got, proposed)
	}

	// a's edit, in a's tab page, rejected: a's CLI hears it, b's file stays as accepted.
	s.nv.Cmd("tabnext 1")
	s.api.Push(fakeapi.Read(pathA), fakeapi.Edit(pathA, "two", "TWO"))
	s.prompt("Please make the second line of greet.txt louder")
	s.nextDiffOpened(pathA)
	if n := s.tabPage(); n != 1 {
		t.Errorf("a's proposal opened in tab page %d, want a's (1)", n)
	}
	s.goToTheProposal()
	s.nv.Keys(`\ad`)
	s.nextDiffClosed("rejected")
	s.waitRejected("greet.txt")
	if got := s.fileContent(pathA); got != original {
		t.Errorf("after rejecting a's proposal, %s holds %q, want it unchanged", pathA, got)
	}
	if got := s.fileContent(pathB); got != proposed {
		t.Errorf("a's rejection changed b's file: %q", got)
	}
	if screenB := s.screenOf(2); clienv.Rejected(screenB, "greet.txt") {
		t.Errorf("b's CLI shows a's rejection; b's screen:\n%s", screenB)
	}
}
