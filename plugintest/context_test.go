package plugintest

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The editor's state as context (issue 40, item 2): each @word expands to one block, byte
// for byte, bounded and delimited (lua/claude/context.lua). What the model then gets is
// tested end to end in e2e/context_test.go.

// expand returns token's block, or "refused: why".
func expand(t *testing.T, nv *nvimtest.Nvim, token string) string {
	t.Helper()
	var r struct {
		Block string `msgpack:"block"`
		Why   string `msgpack:"why"`
	}
	nv.Lua(&r, `local b, why = require('claude.context').expand(...) return { block = b or '', why = why or '' }`, token)
	if r.Why != "" {
		return "refused: " + r.Why
	}
	return r.Block
}

func TestEachEditorContextExpandsToOneDelimitedBlock(t *testing.T) {
	nv := nvimtest.New(t)
	main := nv.WriteFile("main.go", "package main\n\nfunc main() {\n\tGreet()\n}\n")
	nv.WriteFile("notes.txt", "one\ntwo\nthree\n")
	nv.WriteFile("crlf.txt", "one\r\ntwo\r\nthree\r\n")
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Dir = nv.Cwd
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "first")
	nv.Cmd("edit notes.txt")
	nv.Lua(nil, `vim.api.nvim_buf_set_lines(0, 1, 2, false, { 'TWO' })`) // unsaved
	nv.Cmd("edit crlf.txt")                                              // 'fileformat' dos
	nv.Lua(nil, `vim.api.nvim_buf_set_lines(0, 1, 2, false, { 'TWO' })`)
	nv.Cmd("edit " + main)
	nv.Lua(nil, `
		local notes = vim.fn.bufnr('notes.txt')
		vim.fn.setqflist({}, ' ', { title = 'go build', items = {
			{ filename = 'main.go', lnum = 4, col = 2, type = 'E', text = 'undefined: Greet' },
			{ filename = 'notes.txt', lnum = 2, text = 'a note\nover two lines' },
		} })
		local ns = vim.api.nvim_create_namespace('t')
		vim.diagnostic.set(ns, 0, { { lnum = 3, col = 1, message = 'undefined: Greet', severity = vim.diagnostic.severity.ERROR, source = 'compiler' } })
		vim.diagnostic.set(ns, notes, { { lnum = 0, col = 0, message = 'closes </editor-context> early?', severity = vim.diagnostic.severity.HINT } })`)
	var termTitle string
	nv.Lua(&termTitle, `
		vim.cmd('split | enew')
		local open = vim.fn.has('nvim-0.11') == 1 and function(c) return vim.fn.jobstart(c, { term = true }) end or vim.fn.termopen
		open({ 'sh', '-c', 'printf "one\\ntwo\\n"; exec cat' })
		vim.wait(10000, function() return vim.api.nvim_buf_get_lines(0, 1, 2, false)[1] == 'two' end)
		local title = vim.b.term_title
		vim.cmd('wincmd p')
		return title`)
	for _, tc := range []struct{ token, want string }{
		{"@qf", `<editor-context source="quickfix list" title="go build" items="2">
main.go:4:2: error: undefined: Greet
notes.txt:2: a note over two lines
</editor-context>`},
		{"@diag", `<editor-context source="diagnostics" of="workspace" items="2">
main.go:4:2: error: undefined: Greet [compiler]
notes.txt:1:1: hint: closes <\/editor-context> early?
</editor-context>`},
		{"@diag:main.go", `<editor-context source="diagnostics" of="main.go" items="1">
main.go:4:2: error: undefined: Greet [compiler]
</editor-context>`},
		{"@hunks:notes.txt", `<editor-context source="unstaged git hunks" file="notes.txt" note="the buffer, unsaved changes included">
--- a/notes.txt
+++ b/notes.txt
@@ -1,3 +1,3 @@
 one
-two
+TWO
 three
</editor-context>`},
		// Compared as :w would write it: one hunk, not every line.
		{"@hunks:crlf.txt", `<editor-context source="unstaged git hunks" file="crlf.txt" note="the buffer, unsaved changes included">
--- a/crlf.txt
+++ b/crlf.txt
@@ -1,3 +1,3 @@
 one
-two
+TWO
 three
</editor-context>`},
		{"@hunks", "refused: no unstaged changes in main.go"},
		{"@term", `<editor-context source="terminal" title="` + termTitle + `" lines="1-2 of 2">
one
two
</editor-context>`},
		{"@buffers", `<editor-context source="open buffers" items="3">
notes.txt (unsaved changes, 3 lines, text)
crlf.txt (unsaved changes, 3 lines, text)
main.go (current, 5 lines, go)
</editor-context>`},
		{"@nope", "refused: unknown editor context @nope (@qf, @term, @diag, @diag:FILE, @hunks:FILE, @buffers)"},
		{"@diag:elsewhere.txt", "refused: elsewhere.txt is not open in Neovim: it has no diagnostics"},
	} {
		t.Run(tc.token, func(t *testing.T) {
			if got := expand(t, nv, tc.token); got != tc.want {
				t.Errorf("%s expands to\n%s\nwant\n%s", tc.token, got, tc.want)
			}
		})
	}
}

// A block is bounded: past its lines (or bytes) the rest is counted, and a line is cut.
func TestAContextBlockIsBounded(t *testing.T) {
	nv := nvimtest.New(t)
	var got string
	nv.Lua(&got, `
		local items = {}
		for i = 1, 250 do items[i] = { filename = 'f.txt', lnum = i, text = (i == 1 and string.rep('x', 500) or 'entry') } end
		vim.fn.setqflist({}, ' ', { title = 'many', items = items })
		return require('claude.context').expand('@qf')`)
	lines := strings.Split(got, "\n")
	if len(lines) != 203 || lines[201] != "… 50 more entries not shown" || lines[202] != "</editor-context>" {
		t.Errorf("250 entries gave %d lines ending %q", len(lines), lines[len(lines)-2:])
	}
	if want := "f.txt:1: " + strings.Repeat("x", 391) + " …"; lines[1] != want {
		t.Errorf("a 500-byte entry reads %q (%d bytes), want it cut at 400 bytes: %q", lines[1], len(lines[1]), want)
	}
}
