package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// Several reviews in one turn (issue 36, defect 3): the model's message holds three Edits,
// which the CLI asks about one after the other. The user, waiting in their file, answers each
// with :w and nothing else: each next proposal comes forward as they answer the one before
// (its winbar says where it stands, "2 of 3"), and once the last is done the cursor is back
// where it was. The second proposal comes within a second of the first's :w; those keys were
// review keys, not typing.

// cursorAt is where the cursor is: window, line, column.
type cursorAt struct {
	Win  int `msgpack:"win"`
	Line int `msgpack:"line"`
	Col  int `msgpack:"col"`
}

func (s *session) cursor() cursorAt {
	s.t.Helper()
	var c cursorAt
	s.nv.Lua(&c, `local pos = vim.api.nvim_win_get_cursor(0)
		return { win = vim.api.nvim_get_current_win(), line = pos[1], col = pos[2] }`)
	return c
}

// proposalWinbar is the current window's winbar as drawn.
func (s *session) proposalWinbar() string {
	s.t.Helper()
	var text string
	s.nv.Lua(&text, `return vim.api.nvim_eval_statusline(vim.wo.winbar, { winid = 0, use_winbar = true }).str`)
	return text
}

func TestThreeEditsOfATurnAreReviewedWithThreeWritesAndTheCursorComesBack(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	var paths []string
	var reads, edits []fakeapi.ToolUse
	for _, name := range []string{"a", "b", "c"} {
		path := s.writeFile(name+".txt", fmt.Sprintf("%[1]s1\n%[1]s2\n%[1]s3\n", name))
		paths = append(paths, path)
		reads = append(reads, fakeapi.ToolUse{Name: "Read", Input: map[string]any{"file_path": path}})
		edits = append(edits, fakeapi.ToolUse{Name: "Edit", Input: map[string]any{
			"file_path": path, "old_string": name + "2", "new_string": strings.ToUpper(name) + "2"}})
	}
	// The edits wait until the user has settled in their file: a user who has stopped to
	// wait for Claude, not one still typing.
	settled := make(chan struct{})
	s.api.Push(fakeapi.Turn{Tools: reads}, fakeapi.Turn{Tools: edits, Gate: settled}, fakeapi.Say("All three are louder."))
	s.edit(paths[0])
	s.open()
	s.prompt("Make the second line of each file louder")

	s.nv.Keys(`<C-\><C-n><C-w>p3G`) // back to a.txt, on its third line
	before := s.cursor()
	nvimtest.Wait(t, "the user's last key to be a pause ago (claude.typing)", turnTimeout, func() bool {
		var busy bool
		s.nv.Lua(&busy, `return require('claude.typing').busy() ~= nil`)
		return !busy
	})
	close(settled)

	for i, path := range paths {
		s.nextDiffOpened(path)
		if st := s.diffState(); !st.InProposal || st.Views != 1 {
			t.Fatalf("review %d of 3 (%s): %+v; want it come forward, the cursor in its proposal", i+1, filepath.Base(path), st)
		}
		// The CLI may start the message's first tool before it has written the message to
		// its transcript, where the count comes from (host/reviews.go): then the first
		// review shows none. The later ones always find it.
		s.checkReviewCount(i, path, "the transcript was not written yet")
		s.nv.Keys(":w<CR>")
		s.nextDiffClosed("accepted")
	}
	s.waitText("All three are louder.", turnTimeout)
	s.assertSecondLinesLouder(paths)
	s.assertNoDiff("after the three reviews")
	if after := s.cursor(); after != before {
		t.Errorf("after the last review the cursor is at %+v, want it back where it was: %+v", after, before)
	}
	var mode string
	s.nv.Lua(&mode, `return vim.api.nvim_get_mode().mode`)
	if mode != "n" {
		t.Errorf("after the last review the mode is %q, want Normal mode", mode)
	}
}

// checkReviewCount checks that review i (0-based) of three, of path, says "i+1 of 3" in its
// winbar; the first may say no count at all, for the reason given.
func (s *session) checkReviewCount(i int, path, whyNone string) {
	s.t.Helper()
	winbar := s.proposalWinbar()
	switch want := fmt.Sprintf("%d of 3", i+1); {
	case strings.Contains(winbar, want):
	case i == 0 && !strings.Contains(winbar, " of "):
		s.t.Logf("review 1's winbar has no count (%s): %q", whyNone, winbar)
	default:
		s.t.Errorf("review %d (%s)'s winbar is %q, want it to say %q", i+1, filepath.Base(path), winbar, want)
	}
}

// assertSecondLinesLouder checks that each of paths (NAME.txt, three lines NAME1..NAME3)
// has its second line upper-cased, as the three-edit scenarios propose.
func (s *session) assertSecondLinesLouder(paths []string) {
	s.t.Helper()
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".txt")
		if got, want := s.fileContent(path), fmt.Sprintf("%s1\n%s2\n%s3\n", name, strings.ToUpper(name), name); got != want {
			s.t.Errorf("%s holds %q, want %q", filepath.Base(path), got, want)
		}
	}
}
