package host

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/hooks"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// :Claude changes at a scope (issue 36): the newest session's turns as one change, everything
// not committed against HEAD, the branch against its merge base; the same keys in each.

func TestTheScopesShowTheSessionTheUncommittedAndTheBranchWithTheSameKeys(t *testing.T) {
	c := newChangesEnv(t)
	gitIn(t, c.dir, "branch", "-M", "main")
	gitIn(t, c.dir, "checkout", "-q", "-b", "topic")
	c.nv.WriteFile("committed.txt", "on the branch\n")
	gitIn(t, c.dir, "add", "committed.txt")
	gitIn(t, c.dir, "commit", "-qm", "topic work")
	c.turn("fix the letters")
	c.hook(hooks.UserPromptSubmit, func(e *hooks.Event) { e.Prompt = "and d" })
	c.nv.WriteFile("d.txt", "d1\n")
	c.hook(hooks.Stop, nil)
	c.nv.WriteFile("mine.txt", "the user's own, not committed\n")

	if d := c.request("list", `vim.cmd('ClaudeChanges session')`); d["error"] != "" {
		t.Fatalf("the session scope: %v", d["error"])
	}
	list := strings.Join(c.bufLines(), "\n")
	for _, want := range []string{"Scope: the newest session", "the session's 2 turns", "M a.txt  +2 -2", "A d.txt  +1 -0"} {
		if !strings.Contains(list, want) {
			t.Errorf("the session scope has no %q:\n%s", want, list)
		}
	}
	if strings.Contains(list, "mine.txt") || strings.Contains(list, "committed.txt") {
		t.Errorf("the session scope lists what no turn did:\n%s", list)
	}

	list = c.nextScope("Scope: not committed: HEAD -> now")
	for _, want := range []string{"Scope: not committed: HEAD -> now", "M a.txt", "A d.txt", "A mine.txt"} {
		if !strings.Contains(list, want) {
			t.Errorf("the uncommitted scope has no %q:\n%s", want, list)
		}
	}
	if strings.Contains(list, "committed.txt  ") {
		t.Errorf("the uncommitted scope lists a committed file:\n%s", list)
	}
	// A scope is no turn: it has no start time to show (not the zero time, "1-01-01 00:00").
	if !strings.Contains(list, "now               everything not committed") {
		t.Errorf("the uncommitted scope's line does not read \"now … everything not committed\":\n%s", list)
	}
	// The same keys: X reverts a file to HEAD's text.
	c.cursorTo("A mine.txt")
	c.request("revert_file", `vim.api.nvim_feedkeys('X', 'x', false)`)
	if _, err := os.Stat(filepath.Join(c.dir, "mine.txt")); err == nil {
		t.Error("reverting mine.txt against HEAD kept the new file")
	}

	list = c.nextScope("Scope: the branch: merge base -> now")
	for _, want := range []string{"Scope: the branch: merge base -> now", "merge base with main", "A committed.txt", "M a.txt"} {
		if !strings.Contains(list, want) {
			t.Errorf("the branch scope has no %q:\n%s", want, list)
		}
	}
	c.cursorTo("M a.txt")
	c.request("open", `vim.api.nvim_feedkeys(vim.keycode('<CR>'), 'x', false)`)
	var before []string
	c.nv.Lua(&before, `return vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(vim.api.nvim_tabpage_list_wins(0)[1]), 0, -1, false)`)
	if strings.Join(before, "|") != "a1|a2|a3|a4|a5|a6|a7|a8" {
		t.Errorf("the branch scope's diff of a.txt starts from %q, want the merge base's text", before)
	}
}

// nextScope presses s in the list and waits until it shows the scope headed header with its
// files: an answer to the list's refresh after a revert may come in between, so the list is
// waited for by what it shows, not by the next answer.
func (c *changesEnv) nextScope(header string) string {
	c.t.Helper()
	c.nv.Keys("s")
	var list string
	nvimtest.Wait(c.t, "the list at "+header, waitTimeout, func() bool {
		list = strings.Join(c.bufLines(), "\n")
		return strings.Contains(list, header) && strings.Contains(list, " M a.txt")
	})
	return list
}
