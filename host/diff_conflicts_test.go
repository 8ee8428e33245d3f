package host

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// A proposal buffer carries the file's name plus " (Claude proposal)". A
// client naming it is not naming a document: saving it would accept the
// diff behind the user's back.
func TestAProposalIsNoDocumentForSaveOrDirtyChecks(t *testing.T) {
	d := newDiffEnv(t, "")
	p := d.openDiff(d.path, proposed, tab)
	d.nv.Keys("Goan edit of my own<Esc>")
	name := d.path + " (Claude proposal)"

	saved := decodeJSON[map[string]any](t, callTool(t, d.c, "saveDocument", map[string]string{"filePath": name})[0])
	if saved["success"] != false {
		t.Errorf("saveDocument of the proposal = %v, want a refusal", saved)
	}
	if dirty := decodeJSON[map[string]any](t, callTool(t, d.c, "checkDocumentDirty", map[string]string{"filePath": name})[0]); dirty["success"] != false {
		t.Errorf("checkDocumentDirty of the proposal = %v, want it not open as a document", dirty)
	}
	if views, _, _ := d.viewState(); views != 1 {
		t.Errorf("after saveDocument of the proposal %d views are open, want the diff still pending", views)
	}
	d.assertUntouched(d.path, original)
	d.nv.Cmd("ClaudeDiffDeny")
	if got := answer(t, p); got[0] != "DIFF_REJECTED" {
		t.Errorf("answer %q, want the user's own rejection", got)
	}
}

// Two proposals for one file: each gets its own view (its own tab page),
// and deciding one leaves the other as it was.
func TestTwoDiffsOfTheSameFileDoNotDisturbEachOther(t *testing.T) {
	d := newDiffEnv(t, "")
	const tab2 = "✻ [Claude Code] greet.txt (second) ⧉"
	first := d.openDiff(d.path, proposed, tab)
	second := d.openDiff(d.path, "one\ntwo\nTHREE\n", tab2)

	type tabState struct {
		DiffWins int `msgpack:"diff_wins"`
		Wins     int `msgpack:"wins"`
	}
	tabs := func() []tabState {
		var out []tabState
		d.nv.Lua(&out, `
			local out = {}
			for _, tp in ipairs(vim.api.nvim_list_tabpages()) do
				local n, wins = 0, vim.api.nvim_tabpage_list_wins(tp)
				for _, w in ipairs(wins) do if vim.wo[w].diff then n = n + 1 end end
				table.insert(out, { diff_wins = n, wins = #wins })
			end
			return out`)
		return out
	}
	if got := tabs(); len(got) != 2 || got[0].DiffWins != 2 || got[1].DiffWins != 2 {
		t.Fatalf("two diffs of one file: tab pages %+v; want two, each with its own two diff windows", got)
	}
	// The user's file buffer shows in both; its accept key acts on the
	// view of the window it is typed in.
	toTheFile := func() {
		d.nv.Lua(nil, `
			for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
				if vim.wo[w].diff and not vim.b[vim.api.nvim_win_get_buf(w)].claude_diff then vim.api.nvim_set_current_win(w) end
			end`)
	}
	toTheFile()
	d.nv.Keys(`\ad`)
	if got := answer(t, second); got[0] != "DIFF_REJECTED" || got[1] != tab2 {
		t.Errorf("the second diff answered %q, want its rejection", got)
	}
	nvimtest.Next(t, d.closed, "the second view to close", waitTimeout)
	if got := tabs(); len(got) != 1 || got[0].DiffWins != 2 {
		t.Errorf("after deciding the second diff: tab pages %+v; want the first view alone, still in diff mode", got)
	}
	toTheFile()
	d.nv.Keys(`\aa`)
	if got := answer(t, first); got[0] != "FILE_SAVED" || got[1] != proposed {
		t.Errorf("the first diff answered %q, want its proposal accepted", got)
	}
	d.assertClosed("after both")
}

// openDiff of a directory: a clear error, and nothing left behind.
func TestOpenDiffOfADirectoryIsRefusedCleanly(t *testing.T) {
	d := newDiffEnv(t, "")
	var before int
	d.nv.Lua(&before, `return #vim.api.nvim_list_bufs()`)
	res, err := d.c.CallTool("openDiff", map[string]any{
		"old_file_path": d.nv.Cwd, "new_file_path": d.nv.Cwd, "new_file_contents": "x\n", "tab_name": tab,
	})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(res)
	if !res.IsError || len(res.Content) != 1 || res.Content[0].Text != "open diff "+d.nv.Cwd+": is a directory, not a file" {
		t.Errorf("openDiff of a directory = %s; want one error saying it is a directory", raw)
	}
	var after int
	d.nv.Lua(&after, `return #vim.api.nvim_list_bufs()`)
	if after != before || strings.Contains(d.nv.Messages(), "Invalid buffer id") {
		t.Errorf("%d buffers before, %d after; messages %q: want nothing left behind", before, after, d.nv.Messages())
	}
	d.assertClosed("after refusing a directory")
}
