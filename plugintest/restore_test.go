package plugintest

import (
	"strings"
	"testing"
)

// :Claude sessions restore can bring back the sessions of another folder (issue 36): with none
// remembered under the working directory it offers the folders that have some, and the one
// picked goes through restore as the working directory's would (here its trust gate: the CLI
// was never trusted there, so it is skipped, with the reason).
func TestRestoreOffersTheSessionsOfOtherFolders(t *testing.T) {
	nv := newNvim(t)
	here, other := t.TempDir(), t.TempDir()
	nv.Lua(nil, `
		local here, other = ...
		vim.cmd.cd(vim.fn.fnameescape(here))
		local file = require("claude.attention").state_file()
		vim.fn.mkdir(vim.fs.dirname(file), "p")
		vim.fn.writefile({ vim.json.encode({ [other] = { terminals = { ["terminal:1"] = "conv-1" } } }) }, file)
		_G.offered = {}
		vim.ui.select = function(items, opts, on_choice)
			for _, it in ipairs(items) do table.insert(_G.offered, opts.format_item(it)) end
			on_choice(items[1], 1)
		end`, here, other)
	before := nv.Messages()
	nv.Cmd("ClaudeSessions restore")
	var offered []string
	nv.Lua(&offered, `return _G.offered`)
	if len(offered) != 1 || !strings.HasSuffix(other, strings.TrimPrefix(offered[0], "~")) {
		t.Errorf(":Claude sessions restore with nothing remembered here offered %q, want the other folder %s", offered, other)
	}
	msgs := strings.TrimPrefix(nv.Messages(), before)
	if !strings.Contains(msgs, "0 sessions restored; skipped: "+other+" (not trusted") {
		t.Errorf("after picking %s :Claude sessions restore said %q, want its sessions tried (and skipped: not trusted)", other, msgs)
	}
}
