package host

import (
	"os"
	"path/filepath"
	"testing"
	"time"

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
// alone (nvimtest.Serial), not beside the parallel tests: they
// pass only if the linter answers within the 400 ms getDiagnostics waits,
// and getDiagnostics comes within the 2 s a reload counts as fresh
// (nvimapi/settle.go), real times no test can stretch. With eight tests at
// once beside it, the watcher's test failed (no diagnostic) after 2.05 s.

// A linter that reports shouting 100 ms after a buffer is (re)loaded, as real ones do.
const shoutLinter = `
	local ns = vim.api.nvim_create_namespace('shoutlint')
	vim.api.nvim_create_autocmd('BufReadPost', { callback = function(ev)
		vim.defer_fn(function()
			local found = {}
			for i, l in ipairs(vim.api.nvim_buf_get_lines(ev.buf, 0, -1, false)) do
				if l:find('TWO', 1, true) then
					table.insert(found, { lnum = i - 1, col = 0, message = 'shouting', severity = 1 })
				end
			end
			vim.diagnostic.set(ns, ev.buf, found)
		end, 100)
	end })`

// After an accepted diff the plugin watches the file and reloads its buffer the moment the
// CLI writes it, which is before the CLI asks for diagnostics a few milliseconds later. That
// answer must still wait for the linter, as it does when getDiagnostics reloads the buffer.
func TestGetDiagnosticsAfterTheWatcherReloadedAnAcceptedEditWaitsForTheLinter(t *testing.T) {
	d := newDiffEnv(t, shoutLinter, nvimtest.Serial()) // see linterTiming
	p := d.openDiff(d.path, proposed, tab)
	d.nv.Keys(`\aa`)
	if got := answer(t, p); got[0] != "FILE_SAVED" {
		t.Fatalf("openDiff answered %q, want FILE_SAVED", got)
	}

	// The CLI's write, with a later mtime so Neovim sees the change however coarse its clock.
	tmp := filepath.Join(filepath.Dir(d.path), ".greet.txt.tmp")
	if err := os.WriteFile(tmp, []byte(proposed), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(5 * time.Second)
	if err := os.Chtimes(tmp, later, later); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, d.path); err != nil {
		t.Fatal(err)
	}
	waitLine(t, d.nv, d.path, 2, "TWO", "the watcher to reload the buffer")

	all := decodeJSON[[]wireFileDiags](t, callTool(t, d.c, "getDiagnostics", nil)[0])
	if len(all) != 1 || len(all[0].Diagnostics) != 1 || all[0].Diagnostics[0].Range.Start.Line != 1 {
		t.Errorf("getDiagnostics right after the reload = %+v, want the linter's diagnostic on line 2", all)
	}
}
