package host

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
)

// The cheap tools answer from what the host read last while Neovim's
// generation counters say nothing changed (nvimapi/generation.go). These
// tests change the editor and call the tool at once, with no wait of any
// kind: the answer must already show the change. Each step first calls the
// tool twice so that the answer it checks would come from the cache if the
// change had not invalidated it.

type openTab struct {
	FileName  string `json:"fileName"`
	IsActive  bool   `json:"isActive"`
	IsDirty   bool   `json:"isDirty"`
	LineCount int    `json:"lineCount"`
}

func openTabs(t *testing.T, c *mcptest.Client) []openTab {
	t.Helper()
	return decodeJSON[struct {
		Tabs []openTab `json:"tabs"`
	}](t, callTool(t, c, "getOpenEditors", nil)[0]).Tabs
}

func tabOf(tabs []openTab, path string) (openTab, bool) {
	for _, tab := range tabs {
		if tab.FileName == path {
			return tab, true
		}
	}
	return openTab{}, false
}

func TestOpenEditorsIsNeverStale(t *testing.T) {
	e := newEnv(t)
	a := e.nv.WriteFile("a.txt", "a\n")
	b := e.nv.WriteFile("b.txt", "b\n")
	c := e.connect()
	e.nv.Cmd("edit " + a)
	steps := []struct {
		name   string
		change func()
		check  func(tabs []openTab) bool
	}{
		{"a file opened with :edit is listed and active", func() { e.nv.Cmd("edit " + b) }, func(tabs []openTab) bool {
			tb, ok := tabOf(tabs, b)
			ta, _ := tabOf(tabs, a)
			return ok && tb.IsActive && !ta.IsActive
		}},
		{"lines set through the API count at once", func() {
			e.nv.Lua(nil, `vim.api.nvim_buf_set_lines(vim.fn.bufnr(...), 0, -1, false, { '1', '2', '3', '4', '5' })`, a)
		}, func(tabs []openTab) bool { ta, _ := tabOf(tabs, a); return ta.LineCount == 5 && ta.IsDirty }},
		{"a write clears the dirty flag", func() { e.nv.Cmd("buffer " + a + " | write") }, func(tabs []openTab) bool {
			ta, _ := tabOf(tabs, a)
			return !ta.IsDirty && ta.IsActive
		}},
		{"'modified' reset through the API", func() {
			e.nv.Lua(nil, `vim.api.nvim_buf_set_lines(0, 0, 1, false, { 'x' }); vim.bo.modified = false`)
		}, func(tabs []openTab) bool { ta, _ := tabOf(tabs, a); return !ta.IsDirty }},
		{"an unlisted buffer is gone", func() { e.nv.Lua(nil, `vim.bo[vim.fn.bufnr(...)].buflisted = false`, b) },
			func(tabs []openTab) bool { _, ok := tabOf(tabs, b); return !ok }},
		{"a renamed buffer has its new name", func() { e.nv.Cmd("file " + filepath.Join(e.nv.Cwd, "renamed.txt")) },
			func(tabs []openTab) bool {
				_, old := tabOf(tabs, a)
				_, renamed := tabOf(tabs, filepath.Join(e.nv.Cwd, "renamed.txt"))
				return !old && renamed
			}},
		{"a wiped out buffer is gone", func() { e.nv.Cmd("bwipeout!") }, func(tabs []openTab) bool {
			_, ok := tabOf(tabs, filepath.Join(e.nv.Cwd, "renamed.txt"))
			return !ok
		}},
		{"a buffer loaded without a window is listed", func() {
			e.nv.Lua(nil, `local b = vim.fn.bufadd(...); vim.bo[b].buflisted = true; vim.fn.bufload(b)`, a)
		}, func(tabs []openTab) bool { _, ok := tabOf(tabs, a); return ok }},
	}
	for _, s := range steps {
		openTabs(t, c)
		openTabs(t, c)
		s.change()
		if got := openTabs(t, c); !s.check(got) {
			t.Errorf("%s: getOpenEditors right after = %+v", s.name, got)
		}
	}
}

func TestWorkspaceFoldersAndDirtyAreNeverStale(t *testing.T) {
	e := newEnv(t)
	a := e.nv.WriteFile("a.txt", "a\n")
	sub := filepath.Dir(e.nv.WriteFile("sub/x.txt", "x\n"))
	other := filepath.Dir(e.nv.WriteFile("other/y.txt", "y\n"))
	c := e.connect()
	e.nv.Cmd("edit " + a)
	folders := func() []string {
		got := decodeJSON[struct {
			Folders []struct {
				Path string `json:"path"`
			} `json:"folders"`
		}](t, callTool(t, c, "getWorkspaceFolders", nil)[0])
		var paths []string
		for _, f := range got.Folders {
			paths = append(paths, f.Path)
		}
		return paths
	}
	dirty := func() bool {
		return decodeJSON[map[string]any](t, callTool(t, c, "checkDocumentDirty", map[string]string{"filePath": a})[0])["isDirty"] == true
	}
	for _, s := range []struct {
		name   string
		change string
		want   []string
	}{
		{":cd", "cd " + sub, []string{sub}},
		{":tcd in a new tab page", "tabnew | tcd " + other, []string{other, sub}},
		{"back to the first tab page", "tabprevious", []string{sub, other}},
		{":lcd in a split", "split | lcd " + other, []string{other, sub}},
		{"back to the other window", "wincmd p", []string{sub, other}},
	} {
		folders()
		folders()
		e.nv.Cmd(s.change)
		if got := folders(); !slices.Equal(got, s.want) {
			t.Errorf("%s: getWorkspaceFolders right after = %v, want %v", s.name, got, s.want)
		}
	}
	for _, s := range []struct {
		name   string
		change string
		want   bool
	}{
		{"an edit", "call setbufline(bufnr('" + a + "'), 1, 'edited')", true},
		{"a write", "buffer " + a + " | write", false},
		{"an undo", "undo", true},
	} {
		dirty()
		dirty()
		e.nv.Cmd(s.change)
		if got := dirty(); got != s.want {
			t.Errorf("%s: checkDocumentDirty right after = %v, want %v", s.name, got, s.want)
		}
	}
}

func TestCurrentSelectionIsNeverStale(t *testing.T) {
	e, c, path := editedEnv(t)
	current := func() map[string]any {
		return decodeJSON[map[string]any](t, callTool(t, c, "getCurrentSelection", nil)[0])
	}
	startLine := func(got map[string]any) float64 {
		return got["selection"].(map[string]any)["start"].(map[string]any)["line"].(float64)
	}
	for _, s := range []struct {
		name  string
		keys  string
		check func(map[string]any) bool
	}{
		{"a cursor move", "3G", func(got map[string]any) bool { return startLine(got) == 2 && got["text"] == "" }},
		{"a visual selection", "1GVj", func(got map[string]any) bool { return startLine(got) == 0 && got["text"] != "" }},
		{"leaving visual mode", "<Esc>4G", func(got map[string]any) bool { return startLine(got) == 3 && got["text"] == "" }},
	} {
		current()
		current()
		e.nv.Keys(s.keys)
		if got := current(); got["filePath"] != path || !s.check(got) {
			t.Errorf("%s: getCurrentSelection right after = %v", s.name, got)
		}
	}
	current()
	e.nv.Lua(nil, `vim.api.nvim_buf_set_lines(0, 3, 4, false, { 'a new fourth line' })`)
	e.nv.Keys("4GV")
	if got := current(); got["text"] != "a new fourth line" {
		t.Errorf("getCurrentSelection right after the line changed = %v", got)
	}
}
