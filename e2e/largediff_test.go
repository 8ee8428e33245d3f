package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

// The outside harness's worst case through the real CLI: an Edit with
// replace_all changing every 50th line of a 2 MiB file. The CLI sends the
// whole new file in one openDiff; it reaches Neovim in pieces and opens by
// steps (lua/claude/diff/large.lua), and accepting it has the CLI write
// exactly what it proposed.
func TestAManyHunkEditOfALargeFileIsWrittenExactlyAsProposed(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	var file, want strings.Builder
	for n := range 30000 {
		line := fmt.Sprintf("line %06d: some text to make it as long as a line of code", n+1)
		if n%50 == 25 {
			file.WriteString(line + " // TODO(bigdiff)\n")
			want.WriteString(line + " // DONE(bigdiff)\n")
			continue
		}
		file.WriteString(line + "\n")
		want.WriteString(line + "\n")
	}
	path := s.writeFile("large.txt", file.String())
	// The CLI reads a file this large only in parts; one part makes the
	// Edit allowed.
	s.api.Push(
		fakeapi.Use("Read", map[string]any{"file_path": path, "offset": 1, "limit": 40}),
		fakeapi.Use("Edit", map[string]any{"file_path": path, "old_string": "// TODO(bigdiff)", "new_string": "// DONE(bigdiff)", "replace_all": true}),
		fakeapi.Say("Every marker is done."),
	)
	s.edit(path)
	s.open()
	s.prompt("Please mark every TODO(bigdiff) in large.txt done")
	s.nextDiffOpened(path)
	s.goToTheProposal()
	var hunks int
	s.nv.Lua(&hunks, `
		local n, last = 0, 0
		vim.api.nvim_win_set_cursor(0, { 1, 0 })
		while true do
			vim.cmd('normal! ]c')
			local now = vim.api.nvim_win_get_cursor(0)[1]
			if now == last then break end
			n, last = n + 1, now
		end
		return n`)
	if hunks != 600 {
		t.Errorf("]c stopped at %d hunks in the proposal, want 600", hunks)
	}

	s.nv.Keys(`\aa`)
	s.nextDiffClosed("accepted")
	// The request after the Edit's result: the CLI has written the file.
	if result := s.editResult(3); !strings.Contains(result, "has been updated successfully") {
		t.Errorf("the model got the tool result %q, want the file updated", result)
	}
	if got := s.fileContent(path); got != want.String() {
		t.Errorf("after accepting, %s holds %d bytes, want the proposal's %d exactly", path, len(got), want.Len())
	}
	s.waitText("Every marker is done.", turnTimeout)
}
