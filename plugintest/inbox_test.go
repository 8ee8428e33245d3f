package plugintest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The inbox (issue 36): :Claude sessions lists what waits for the user first, an edit under
// review in the diff's word ("review", not "permission"), then every file written and not
// reviewed, then the sessions at work; :Claude sessions next goes to the first of them. The
// states are pushed as the Go host pushes them (attention.update, changes.signs.set).
func TestTheInboxListsWhatWaitsThenWhatIsUnreviewed(t *testing.T) {
	nv := newNvim(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "poem.txt")
	if err := os.WriteFile(file, []byte("one\ntwo\nthree\nfour\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	nv.Lua(nil, `
		local dir, file = ...
		require("claude.attention").update({
			{ key = "terminal:7", state = "working", kind = "", cwd = dir, prompt = "tidy up", since = 0, conversation = "", wait = 0, mode = "" },
			{ key = "chat:" .. dir, state = "needs_you", kind = "diff", cwd = dir, prompt = "louder", since = 0, conversation = "", wait = 1, mode = "" },
		})
		require("claude.changes.signs").set({ root = dir, count = 2, files = { [file] = {
			{ start = 3, count = 1, kind = "change" }, { start = 4, count = 1, kind = "add" },
		} } })`, dir, file)
	var lines []string
	nv.Lua(&lines, `
		local view = require("claude.attention.view")
		local out = {}
		for _, e in ipairs(view.entries()) do table.insert(out, view.format(e)) end
		return out`)
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "needs you (review) · chat ") ||
		!strings.HasPrefix(lines[1], "unreviewed · ") || !strings.Contains(lines[1], "poem.txt · 2 hunks to review") ||
		!strings.HasPrefix(lines[2], "working · terminal 7 ") {
		t.Errorf("the inbox lists %q; want the review first, then poem.txt's 2 unreviewed hunks, then the working terminal", lines)
	}

	// Nothing waits but the unreviewed file: next goes to its first changed line.
	nv.Lua(nil, `
		local dir = ...
		require("claude.attention").update({
			{ key = "chat:" .. dir, state = "done", kind = "", cwd = dir, prompt = "louder", since = 0, conversation = "", wait = 1, mode = "" },
		})`, dir)
	nv.Cmd("ClaudeSessions next")
	var at struct {
		Name string `msgpack:"name"`
		Line int    `msgpack:"line"`
	}
	nv.Lua(&at, `return { name = vim.api.nvim_buf_get_name(0), line = vim.api.nvim_win_get_cursor(0)[1] }`)
	if at.Name != file || at.Line != 3 {
		t.Errorf(":Claude sessions next went to %s line %d, want %s line 3 (its first unreviewed change)", at.Name, at.Line, file)
	}
}
