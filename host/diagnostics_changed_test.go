package host

import (
	"testing"

	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
)

// A connected client hears about a file's new diagnostics as they change
// (diagnostics.go), without asking.
func TestDiagnosticsChangedIsSentForTheFile(t *testing.T) {
	e := newEnv(t)
	c := e.connect()
	path := e.nv.WriteFile("d.txt", "x\n")
	e.nv.Cmd("edit " + path)
	e.nv.Lua(nil, `vim.diagnostic.set(vim.api.nvim_create_namespace('t'), 0,
		{ { lnum = 0, col = 0, message = 'bad x', severity = vim.diagnostic.severity.WARN } })`)
	got := mcptest.Next[wireFileDiags](t, c, "diagnostics_changed")
	if got.URI != "file://"+path || len(got.Diagnostics) != 1 || got.Diagnostics[0].Message != "bad x" || got.Diagnostics[0].Severity != "Warning" {
		t.Errorf("diagnostics_changed = %+v", got)
	}
}
