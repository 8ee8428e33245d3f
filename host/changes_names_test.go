package host

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/hooks"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// A file whose name holds a newline, a byte that is not UTF-8 and words that look like the
// plugin's: :Claude changes lists it escaped (a buffer line cannot hold a newline), the
// quickfix list shows it escaped too, and everything that touches the file (its diff, its
// signs, the unsaved-edits guard, the revert and the reload) uses its real bytes.
func TestClaudeChangesShowsAnOddNameEscapedAndRevertsItsHunk(t *testing.T) {
	c := newChangesEnv(t)
	const name = "odd\n[claude.nvim] \xff name.txt"
	const shown = `"odd\n[claude.nvim] \xff name.txt"` // as the list writes it
	path := c.nv.WriteFile(name, "o1\no2\no3\no4\no5\no6\no7\no8\n")
	gitIn(t, c.dir, "add", "-A")
	gitIn(t, c.dir, "commit", "-qm", "an odd name")
	signs := c.nv.UserEvents("ClaudeChangeSigns")
	c.nv.Lua(nil, `vim.cmd.edit({ args = { ... }, magic = { file = false } })`, path)

	c.hook(hooks.UserPromptSubmit, func(e *hooks.Event) { e.Prompt = "shout" })
	c.hook(hooks.PreToolUse, func(e *hooks.Event) { e.ToolName = "Bash" })
	c.nv.WriteFile(name, "o1\nO2\no3\no4\no5\no6\nO7\no8\n")
	c.hook(hooks.Stop, nil)
	nvimtest.Next(t, signs, "the signs pushed when the turn ended", waitTimeout)
	var signed []int
	c.nv.Lua(&signed, `vim.cmd('checktime') return require('claude.changes.signs').lines(0)`)
	if fmt.Sprint(signed) != "[2 7]" {
		t.Errorf("signed lines of the odd file = %v, want [2 7]", signed)
	}

	if reply := c.request("list", `vim.cmd('ClaudeChanges')`); reply["error"] != "" {
		t.Fatalf("the list failed: %v", reply["error"])
	}
	list := strings.Join(c.bufLines(), "\n")
	if !strings.Contains(list, "M "+shown+"  +2 -2") {
		t.Fatalf("the list has no line for %s:\n%s\nmessages:\n%s", shown, list, c.nv.Messages())
	}

	c.cursorTo(shown)
	c.request("open", `vim.api.nvim_feedkeys(vim.keycode('<CR>'), 'x', false)`)
	var diff struct {
		Wins    int    `msgpack:"wins"`
		Name    string `msgpack:"name"`
		Before  string `msgpack:"before"`
		Winbar  string `msgpack:"winbar"`
		Scratch string `msgpack:"scratch"`
	}
	c.nv.Lua(&diff, `local wins = vim.api.nvim_tabpage_list_wins(0)
		local before = vim.api.nvim_win_get_buf(wins[1])
		return { wins = #wins, name = vim.api.nvim_buf_get_name(0), winbar = vim.wo[wins[1]].winbar, scratch = vim.api.nvim_buf_get_name(before),
			before = table.concat(vim.api.nvim_buf_get_lines(before, 0, -1, false), "|") }`)
	if diff.Wins != 2 || diff.Name != path || diff.Before != "o1|o2|o3|o4|o5|o6|o7|o8" || !strings.Contains(diff.Winbar, shown) || !strings.HasSuffix(diff.Scratch, "/"+shown) {
		t.Fatalf("the diff = %+v, want the before text beside the file's own buffer named %q, its name shown escaped", diff, path)
	}

	// The guard finds the file's buffer by its real name: unsaved edits refuse the revert.
	c.nv.Cmd("call setline(1, 'unsaved')")
	c.nv.Lua(nil, `vim.api.nvim_win_set_cursor(0, { 7, 0 })`)
	c.nv.Keys(`\ar`)
	if msgs := c.nv.Messages(); !strings.Contains(msgs, shown+" has unsaved edits") {
		t.Errorf("no refusal naming the file escaped; messages:\n%s", msgs)
	}
	c.nv.Cmd("silent undo")

	c.nv.Lua(nil, `vim.api.nvim_win_set_cursor(0, { 7, 0 })`)
	if reply := c.request("revert_hunk", `vim.api.nvim_feedkeys(vim.keycode('\\ar'), 'x', false)`); reply["error"] != "" {
		t.Fatalf("the hunk's revert failed: %v", reply["error"])
	}
	if got, want := c.disk(name), "o1\nO2\no3\no4\no5\no6\no7\no8\n"; got != want {
		t.Errorf("the odd file on disk = %q, want %q (its second hunk taken back)", got, want)
	}
	var line7 string
	c.nv.Lua(&line7, `return vim.api.nvim_buf_get_lines(0, 6, 7, false)[1]`)
	if line7 != "o7" {
		t.Errorf("the file's buffer line 7 = %q, want it reloaded to o7", line7)
	}

	c.request("qf", `vim.cmd('ClaudeChanges qf')`)
	var qf []map[string]any
	c.nv.Lua(&qf, `local out = {}
		for _, it in ipairs(vim.fn.getqflist()) do
			table.insert(out, { name = vim.api.nvim_buf_get_name(it.bufnr), lnum = it.lnum, module = it.module })
		end
		return out`)
	var odd []string
	for _, it := range qf {
		if it["name"] == path {
			odd = append(odd, fmt.Sprint(it["lnum"], " ", it["module"]))
		}
	}
	if fmt.Sprint(odd) != "[2 "+shown+"]" {
		t.Errorf("the quickfix entries of the odd file = %q, want its one unreviewed hunk (line 2) shown as %s; all: %v", odd, shown, qf)
	}

	c.nv.Cmd("tabclose | ClaudeChanges")
	c.cursorTo(shown)
	if reply := c.request("revert_file", `vim.api.nvim_feedkeys('X', 'x', false)`); reply["error"] != "" {
		t.Fatalf("the file's revert failed: %v", reply["error"])
	}
	if got := c.disk(name); got != "o1\no2\no3\no4\no5\no6\no7\no8\n" {
		t.Errorf("the odd file = %q after reverting it from the list, want its old text", got)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 5 { // .git, a b c, the odd one
		t.Errorf("the workspace holds %d entries, want 5: nothing written under a misread name", len(entries))
	}
}
