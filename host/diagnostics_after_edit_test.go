package host

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The CLI asks for one file's diagnostics right before it writes an edit (its baseline). A
// file open in Neovim with no diagnostics at all is the common case; if that answer fails,
// the CLI takes no baseline and never tells the model about problems the edit introduces.
func TestGetDiagnosticsOfAnOpenFileWithoutDiagnostics(t *testing.T) {
	e := newEnv(t)
	path := e.nv.WriteFile("clean.txt", "nothing wrong here\n")
	c := e.connect()
	e.nv.Cmd("edit " + path)

	got := decodeJSON[[]wireFileDiags](t, callTool(t, c, "getDiagnostics", map[string]string{"uri": "file://" + path})[0])
	if len(got) != 1 || got[0].URI != "file://"+path || len(got[0].Diagnostics) != 0 {
		t.Errorf("getDiagnostics {uri: %s} = %+v, want one entry for it with no diagnostics", path, got)
	}
}

// linterTiming: the tests with a linter that answers after a reload run
// alone (nvimtest.Serial), not beside the parallel tests: they pass only if
// the linter answers within the 400 ms getDiagnostics waits, and
// getDiagnostics comes within the 2 s a reload counts as fresh
// (nvimapi/settle.go), real times no test can stretch.

// A linter that reports shouting 100 ms after a buffer is (re)loaded, as real ones do;
// vim.g.shoutlint_runs counts what it published.
const shoutLinter = `
	local ns = vim.api.nvim_create_namespace('shoutlint')
	vim.g.shoutlint_runs = 0
	vim.api.nvim_create_autocmd('BufReadPost', { callback = function(ev)
		vim.defer_fn(function()
			local found = {}
			for i, l in ipairs(vim.api.nvim_buf_get_lines(ev.buf, 0, -1, false)) do
				if l:find('TWO', 1, true) then
					table.insert(found, { lnum = i - 1, col = 0, message = 'shouting', severity = 1 })
				end
			end
			vim.diagnostic.set(ns, ev.buf, found)
			vim.g.shoutlint_runs = vim.g.shoutlint_runs + 1
		end, 100)
	end })`

// newLintedDiffEnv is a diff env whose file the linter has looked at once (when it was
// opened), so the only run that can see an edit is the one its reload starts: a run still
// pending from the opening would read the new text too and hide a reload nobody linted.
func newLintedDiffEnv(t *testing.T) *diffEnv {
	t.Helper()
	d := newDiffEnv(t, shoutLinter, nvimtest.Serial()) // see linterTiming
	nvimtest.Wait(t, "the linter's run on the opened file", waitTimeout, func() bool {
		var runs int
		d.nv.Lua(&runs, `return vim.g.shoutlint_runs`)
		return runs > 0
	})
	return d
}

// writeAsTheCLI writes path the way the CLI does (a temporary file renamed over it), with
// a later mtime so Neovim sees the change however coarse its clock.
func writeAsTheCLI(t *testing.T, path, content string) {
	t.Helper()
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp")
	writeOnDisk(t, tmp, content)
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// wantShoutOnLine2 calls getDiagnostics for every file and wants the linter's diagnostic
// of the new text.
func wantShoutOnLine2(t *testing.T, d *diffEnv) {
	t.Helper()
	all := decodeJSON[[]wireFileDiags](t, callTool(t, d.c, "getDiagnostics", nil)[0])
	if len(all) != 1 || len(all[0].Diagnostics) != 1 || all[0].Diagnostics[0].Range.Start.Line != 1 {
		t.Errorf("getDiagnostics right after the reload = %+v, want the linter's diagnostic on line 2", all)
	}
}

// After an accepted diff the plugin watches the file and reloads its buffer the moment the
// CLI writes it, which is before the CLI asks for diagnostics a few milliseconds later. That
// answer must still wait for the linter, as it does when getDiagnostics reloads the buffer.
func TestGetDiagnosticsAfterTheWatcherReloadedAnAcceptedEditWaitsForTheLinter(t *testing.T) {
	d := newLintedDiffEnv(t)
	p := d.openDiff(d.path, proposed, tab)
	d.nv.Keys(`\aa`)
	if got := answer(t, p); got[0] != "FILE_SAVED" {
		t.Fatalf("openDiff answered %q, want FILE_SAVED", got)
	}
	writeAsTheCLI(t, d.path, proposed)
	waitLine(t, d.nv, d.path, 2, "TWO", "the watcher to reload the buffer")
	wantShoutOnLine2(t, d)
}

// The CLI writes the file as soon as it has the answer, while Neovim may still be closing
// the diff (a loaded machine): then the BufEnter of the user's window coming back reloads
// the buffer, before the watcher does. That reload too must run the linter (BufReadPost)
// and make getDiagnostics wait for it. Here Neovim is held in the closing until the write.
func TestGetDiagnosticsAfterTheWriteBeatTheClosingOfTheAcceptedDiffWaitsForTheLinter(t *testing.T) {
	d := newLintedDiffEnv(t)
	p := d.openDiff(d.path, proposed, tab)
	d.nv.Lua(nil, `
		local path = ...
		local before = vim.uv.fs_stat(path).mtime.sec
		vim.api.nvim_create_autocmd('WinClosed', { once = true, callback = function()
			vim.g.held_until_written = vim.wait(10000, function()
				local st = vim.uv.fs_stat(path)
				return st ~= nil and st.mtime.sec ~= before
			end, 1)
		end })`, d.path)
	d.nv.Keys(`\aa`)
	if got := answer(t, p); got[0] != "FILE_SAVED" {
		t.Fatalf("openDiff answered %q, want FILE_SAVED", got)
	}
	writeAsTheCLI(t, d.path, proposed)
	waitLine(t, d.nv, d.path, 2, "TWO", "the closing diff to reload the buffer")
	var held bool
	d.nv.Lua(&held, `return vim.g.held_until_written == true`)
	if !held {
		t.Fatal("Neovim was not held in the diff's closing until the CLI's write")
	}
	wantShoutOnLine2(t, d)
}
