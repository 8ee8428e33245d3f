package host

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

func decodeJSON[T any](t *testing.T, text string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		t.Fatalf("decode %q: %v", text, err)
	}
	return v
}

type wireDiag struct {
	Message  string `json:"message"`
	Severity string `json:"severity"`
	Source   string `json:"source"`
	Code     string `json:"code"`
	Range    struct {
		Start pos `json:"start"`
		End   pos `json:"end"`
	} `json:"range"`
}

type wireFileDiags struct {
	URI         string     `json:"uri"`
	Diagnostics []wireDiag `json:"diagnostics"`
}

func TestGetDiagnosticsReportsNeovimDiagnostics(t *testing.T) {
	e := newEnv(t)
	a := e.nv.WriteFile("a.go", "package a\nvar é = x\n")
	b := e.nv.WriteFile("b.go", "package b\n")
	c := e.connect()
	e.nv.Cmd("edit " + a + " | edit " + b)
	e.nv.Lua(nil, `
		local a, b = ...
		local ns = vim.api.nvim_create_namespace('test')
		vim.diagnostic.set(ns, vim.fn.bufnr(a), {
			{ lnum = 1, col = 8, end_lnum = 1, end_col = 9, severity = vim.diagnostic.severity.ERROR,
			  message = 'undefined: x', source = 'gopls', code = 'UndeclaredName' },
			{ lnum = 0, col = 0, severity = vim.diagnostic.severity.HINT, message = 'hint', code = 42 },
		})
		vim.diagnostic.set(ns, vim.fn.bufnr(b), {
			{ lnum = 0, col = 0, end_col = 7, severity = vim.diagnostic.severity.WARN, message = 'warn' },
		})`, a, b)

	all := decodeJSON[[]wireFileDiags](t, callTool(t, c, "getDiagnostics", nil)[0])
	byURI := map[string]wireFileDiags{}
	for _, f := range all {
		byURI[f.URI] = f
	}
	fa, fb := byURI["file://"+a], byURI["file://"+b]
	if len(all) != 2 || len(fa.Diagnostics) != 2 || len(fb.Diagnostics) != 1 {
		t.Fatalf("getDiagnostics {} = %+v, want a.go with 2 and b.go with 1", all)
	}
	var errDiag wireDiag
	for _, d := range fa.Diagnostics {
		if d.Severity == "Error" {
			errDiag = d
		}
	}
	// "var é = x": byte column 8 is character 7 (é is two bytes, one unit).
	if errDiag.Message != "undefined: x" || errDiag.Source != "gopls" || errDiag.Code != "UndeclaredName" ||
		errDiag.Range.Start != (pos{1, 7}) || errDiag.Range.End != (pos{1, 8}) {
		t.Errorf("error diagnostic = %+v, want undefined: x at 1:7-1:8 from gopls", errDiag)
	}
	if fb.Diagnostics[0].Severity != "Warning" {
		t.Errorf("b.go severity = %q, want Warning", fb.Diagnostics[0].Severity)
	}
	for _, d := range fa.Diagnostics {
		if d.Severity == "Hint" && d.Code != "42" {
			t.Errorf("a numeric code became %q, want \"42\"", d.Code)
		}
	}

	one := decodeJSON[[]wireFileDiags](t, callTool(t, c, "getDiagnostics", map[string]string{"uri": "file://" + b})[0])
	if len(one) != 1 || one[0].URI != "file://"+b || len(one[0].Diagnostics) != 1 {
		t.Errorf("getDiagnostics {uri: b.go} = %+v, want exactly b.go's", one)
	}
	closed := filepath.Join(e.nv.Cwd, "never opened.go")
	none := decodeJSON[[]wireFileDiags](t, callTool(t, c, "getDiagnostics", map[string]string{"uri": "file://" + strings.ReplaceAll(closed, " ", "%20")})[0])
	if len(none) != 1 || len(none[0].Diagnostics) != 0 || !strings.HasSuffix(none[0].URI, "never%20opened.go") {
		t.Errorf("getDiagnostics of a file not open = %+v, want one entry for it with no diagnostics", none)
	}
}

func TestOpenFileShowsAndSelects(t *testing.T) {
	e := newEnv(t)
	path := e.nv.WriteFile("o.txt", "one\nfunc main() {\n\tbody\n}\nend\n")
	c := e.connect()
	e.nv.Lua(nil, idleCLI)
	e.nv.Cmd("Claude focus insert") // tools are called while the user types in Claude's terminal
	nvimtest.Wait(t, "terminal mode", waitTimeout, func() bool {
		var mode map[string]any
		_ = e.nv.Call("nvim_get_mode", &mode)
		return mode["mode"] == "t"
	})

	got := callTool(t, c, "openFile", map[string]any{"filePath": path, "startText": "func main", "endText": "}"})
	if got[0] != `Opened file and selected text from "func main" to "}"` {
		t.Errorf("openFile text = %q", got[0])
	}
	var st struct {
		Name  string `msgpack:"name"`
		Mode  string `msgpack:"mode"`
		Start []int  `msgpack:"start"`
		End   []int  `msgpack:"end"`
	}
	// Neovim leaves terminal mode on its next loop iteration after the
	// window changed, which can come after openFile answered.
	nvimtest.Wait(t, "terminal mode to end", waitTimeout, func() bool {
		e.nv.Lua(&st, `return { name = vim.api.nvim_buf_get_name(0), mode = vim.fn.mode(),
			start = vim.fn.getpos('v'), ['end'] = vim.fn.getpos('.') }`)
		return st.Mode != "t"
	})
	if st.Name != path || st.Mode != "v" || st.Start[1] != 2 || st.Start[2] != 1 || st.End[1] != 4 || st.End[2] != 1 {
		t.Errorf("after openFile: %+v, want %s in visual mode from 2:1 to 4:1", st, path)
	}

	bg := callTool(t, c, "openFile", map[string]any{"filePath": path, "startLine": 5, "endLine": 5, "makeFrontmost": false})
	info := decodeJSON[map[string]any](t, bg[0])
	if info["success"] != true || info["filePath"] != path || info["lineCount"] != float64(5) || info["languageId"] != "plaintext" {
		t.Errorf("openFile makeFrontmost=false = %v", info)
	}

	missing := filepath.Join(e.nv.Cwd, "missing.txt")
	res, err := c.CallTool("openFile", map[string]any{"filePath": missing})
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].Text, "File not found") {
		t.Errorf("openFile of a missing file = %+v, %v; want an error result", res, err)
	}
	if err == nil && len(res.Content) == 1 && strings.Count(res.Content[0].Text, missing) != 1 {
		t.Errorf("openFile of a missing file says %q; want the path named once", res.Content[0].Text)
	}
}

func TestEditorStateTools(t *testing.T) {
	e := newEnv(t)
	a := e.nv.WriteFile("a.lua", "return 1\n")
	b := e.nv.WriteFile("b.txt", "b\n")
	c := e.connect()
	e.nv.Cmd("edit " + b + " | edit " + a)

	tabs := decodeJSON[struct {
		Tabs []map[string]any `json:"tabs"`
	}](t, callTool(t, c, "getOpenEditors", nil)[0]).Tabs
	if len(tabs) != 2 {
		t.Fatalf("getOpenEditors = %v, want 2 tabs", tabs)
	}
	for _, tab := range tabs {
		active := tab["fileName"] == a
		if tab["isActive"] != active || tab["uri"] != "file://"+tab["fileName"].(string) {
			t.Errorf("tab %v: isActive %v, want %v", tab["fileName"], tab["isActive"], active)
		}
		if active && tab["languageId"] != "lua" {
			t.Errorf("a.lua languageId = %v, want lua", tab["languageId"])
		}
	}

	folders := decodeJSON[map[string]any](t, callTool(t, c, "getWorkspaceFolders", nil)[0])
	if folders["rootPath"] != e.nv.Cwd || folders["success"] != true {
		t.Errorf("getWorkspaceFolders = %v, want rootPath %s", folders, e.nv.Cwd)
	}

	dirty := func(path string) map[string]any {
		return decodeJSON[map[string]any](t, callTool(t, c, "checkDocumentDirty", map[string]string{"filePath": path})[0])
	}
	if d := dirty(a); d["success"] != true || d["isDirty"] != false {
		t.Errorf("checkDocumentDirty of a clean buffer = %v", d)
	}
	e.nv.Cmd("call setline(1, 'return 2')")
	if d := dirty(a); d["isDirty"] != true {
		t.Errorf("checkDocumentDirty after an edit = %v, want isDirty true", d)
	}
	if d := dirty(filepath.Join(e.nv.Cwd, "nope")); d["success"] != false || !strings.Contains(d["message"].(string), "Document not open") {
		t.Errorf("checkDocumentDirty of a file not open = %v", d)
	}

	saved := decodeJSON[map[string]any](t, callTool(t, c, "saveDocument", map[string]string{"filePath": a})[0])
	if saved["success"] != true || readFile(t, a) != "return 2\n" {
		t.Errorf("saveDocument = %v, file now %q", saved, readFile(t, a))
	}
}

// saveDocument must not write over a change made on disk (by Claude or
// anyone) while the buffer also has unsaved edits: one side would be lost.
func TestSaveDocumentRefusesToOverwriteAChangeOnDisk(t *testing.T) {
	e := newEnv(t)
	a := e.nv.WriteFile("a.txt", "disk v1\n")
	c := e.connect()
	e.nv.Cmd("edit " + a)
	e.nv.Cmd("call setline(1, 'my unsaved edit')")
	writeOnDisk(t, a, "disk v2, from Claude\n")
	res := decodeJSON[map[string]any](t, callTool(t, c, "saveDocument", map[string]string{"filePath": a})[0])
	if res["success"] != false || !strings.Contains(res["message"].(string), "changed on disk") {
		t.Errorf("saveDocument over a changed file = %v, want a refusal", res)
	}
	if got := readFile(t, a); got != "disk v2, from Claude\n" {
		t.Errorf("file on disk = %q, want Claude's version untouched", got)
	}
	var line string
	e.nv.Lua(&line, `return vim.api.nvim_get_current_line()`)
	if line != "my unsaved edit" {
		t.Errorf("buffer = %q, want the user's unsaved edit kept", line)
	}
}

func TestGetCurrentSelectionFromClaudesTerminalIsTheLastFileSelection(t *testing.T) {
	e, c, path := editedEnv(t)
	e.nv.Lua(nil, idleCLI)
	e.nv.Keys("2GVj<Esc>")
	selectionMatching(t, c, "of lines 2-3", func(s selectionChanged) bool { return s.Text == twoLines })
	e.nv.Cmd("ClaudeOpen")
	got := decodeJSON[map[string]any](t, callTool(t, c, "getCurrentSelection", nil)[0])
	if got["success"] != true || got["filePath"] != path || got["text"] != "héllo wörld 😀 end\nthird line" {
		t.Errorf("getCurrentSelection from the terminal = %v", got)
	}
	e.nv.Cmd("wincmd p")
	e.nv.Keys("4G")
	got = decodeJSON[map[string]any](t, callTool(t, c, "getCurrentSelection", nil)[0])
	sel := got["selection"].(map[string]any)
	if got["text"] != "" || sel["isEmpty"] != true {
		t.Errorf("getCurrentSelection in the file after moving = %v, want the cursor only", got)
	}
}

// The CLI asks for diagnostics milliseconds after writing a file. A buffer
// showing that file must be reloaded first, and whatever lints it on load
// (here a linter that answers once the reload's command has returned, as
// real ones answer later) given a moment, or the model never hears about
// the problem it just made. No timer: a 100 ms one was too close to the
// 400 ms getDiagnostics waits on a loaded machine.
func TestGetDiagnosticsRightAfterClaudeWritesWaitsForTheNewDiagnostics(t *testing.T) {
	e := newEnv(t, nvimtest.Serial()) // see linterTiming
	path := e.nv.WriteFile("shout.txt", "quiet\n")
	c := e.connect()
	e.nv.Cmd("edit " + path)
	e.nv.Lua(nil, `
		local ns = vim.api.nvim_create_namespace('e2elint')
		vim.api.nvim_create_autocmd('BufReadPost', { callback = function(ev)
			vim.schedule(function()
				local found = {}
				for i, l in ipairs(vim.api.nvim_buf_get_lines(ev.buf, 0, -1, false)) do
					if l:find('SHOUT') then
						table.insert(found, { lnum = i - 1, col = 0, message = 'shouting is not allowed', severity = 1 })
					end
				end
				vim.diagnostic.set(ns, ev.buf, found)
			end)
		end })`)
	// Claude's write, as the CLI does it: straight to disk.
	writeOnDisk(t, path, "quiet\nSHOUT\n")
	all := decodeJSON[[]wireFileDiags](t, callTool(t, c, "getDiagnostics", nil)[0])
	if len(all) != 1 || len(all[0].Diagnostics) != 1 || all[0].Diagnostics[0].Range.Start.Line != 1 {
		t.Errorf("getDiagnostics right after the write = %+v, want the new diagnostic on line 2", all)
	}
	var line string
	e.nv.Lua(&line, `return vim.fn.getline(2)`)
	if line != "SHOUT" {
		t.Errorf("buffer line 2 = %q, want the reloaded text", line)
	}
}
