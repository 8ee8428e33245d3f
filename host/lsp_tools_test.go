package host

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The language-server tools, end to end but for the model: a real Neovim
// running a real gopls (vim.lsp.start, as a user's config does), this
// host registered in it, and the tools called over the chat's MCP endpoint
// with its token, as the CLI calls them.

// goplsWarmup bounds gopls's first load of the test module (go list of it
// and of fmt); a loaded 2-core machine has seen seconds.
const goplsWarmup = 120000

// lspEnv is an env whose Neovim runs gopls on nvimtest.GoModule.
type lspEnv struct {
	*env
	files map[string]string // the module's files by name
	mcp   *chatMCP
}

func newLSPEnv(t testing.TB) *lspEnv {
	t.Helper()
	e := newEnv(t, nvimtest.WithEnv(nvimtest.GoplsEnv(t)...))
	l := &lspEnv{env: e}
	l.files = e.nv.StartGopls(t, e.nv.Cwd)
	e.nv.WaitGopls(t, l.files["main.go"], goplsWarmup)
	m, err := e.host.chatMCPEndpoint(chatTools)
	if err != nil {
		t.Fatal(err)
	}
	l.mcp = m
	return l
}

// call calls tool with args over the endpoint and returns its text and
// whether it was an error result (a JSON-RPC error fails the test unless
// allowed: then its message is the text).
func (l *lspEnv) call(tool string, args map[string]any) (string, bool) {
	l.t.Helper()
	return callEndpoint(l.t, l.mcp, tool, args)
}

func callEndpoint(t testing.TB, m *chatMCP, tool string, args map[string]any) (string, bool) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": tool, "arguments": args},
	})
	req, _ := http.NewRequest("POST", m.url, strings.NewReader(string(body)))
	req.Header.Set("Authorization", "Bearer "+m.token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var r struct {
		Result *struct {
			Content []struct{ Text string } `json:"content"`
			IsError bool                    `json:"isError"`
		} `json:"result"`
		Error *struct{ Message string } `json:"error"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("%s: answer %s: %v", tool, raw, err)
	}
	if r.Error != nil {
		return r.Error.Message, true
	}
	var texts []string
	for _, c := range r.Result.Content {
		texts = append(texts, c.Text)
	}
	return strings.Join(texts, "\n"), r.Result.IsError
}

func (l *lspEnv) want(tool string, args map[string]any, wants ...string) string {
	l.t.Helper()
	got, isErr := l.call(tool, args)
	l.t.Logf("%s answered:\n%s", tool, got)
	if isErr {
		l.t.Fatalf("%s %v: error %q", tool, args, got)
	}
	for _, w := range wants {
		if !strings.Contains(got, w) {
			l.t.Errorf("%s %v answered\n%s\nwant it to hold %q", tool, args, got, w)
		}
	}
	return got
}

func TestReferencesListTheThreeCallSitesWithTheirLines(t *testing.T) {
	l := newLSPEnv(t)
	got := l.want("lsp_references", map[string]any{"path": l.files["greet.go"], "line": 4, "symbol": "Greet"},
		"References of `Greet` at "+l.files["greet.go"]+":4:6, from gopls (3):",
		l.files["main.go"]+":6:14: \tfmt.Println(Greet(\"world\"))",
		l.files["main.go"]+":7:14: \tfmt.Println(Greet(\"gopher\"))",
		l.files["main.go"]+":12:6: \t_ = Greet(\"again\")")
	if strings.Contains(got, "greet.go:4") && !strings.Contains(got, "at "+l.files["greet.go"]+":4:6") {
		t.Errorf("the declaration is listed without include_declaration:\n%s", got)
	}
	// A cap, with the rest counted.
	l.want("lsp_references", map[string]any{"path": l.files["greet.go"], "line": 4, "column": 6, "max_results": 2},
		"(3):", "… and 1 more places")
}

func TestDefinitionFindsTheFunctionInAnotherFileWithoutItBeingOpen(t *testing.T) {
	l := newLSPEnv(t)
	l.want("lsp_definition", map[string]any{"path": "main.go", "line": 12, "symbol": "Greet"},
		"Definition of `Greet` at "+l.files["main.go"]+":12:6, from gopls (1):\n"+l.files["greet.go"]+":4:6: func Greet(name string) string {")
	l.want("lsp_hover", map[string]any{"path": l.files["main.go"], "line": 6, "symbol": "Greet"},
		"func Greet(name string) string", "Greet says hello to name.")
}

func TestTheOutlineSymbolsAndCallersComeFromTheServer(t *testing.T) {
	l := newLSPEnv(t)
	l.want("lsp_document_symbols", map[string]any{"path": l.files["main.go"]},
		"Symbols of "+l.files["main.go"]+", from gopls", "Function main", "Function helper")
	l.want("lsp_workspace_symbols", map[string]any{"query": "Greet", "path": l.files["main.go"]},
		`Symbols matching "Greet"`, "Function Greet", l.files["greet.go"]+":4:6")
	l.want("lsp_call_hierarchy", map[string]any{"path": l.files["greet.go"], "line": 4, "symbol": "Greet"},
		"Callers of `Greet`", "Function main", "Function helper",
		"calls it at "+l.files["main.go"]+":6:14", "calls it at "+l.files["main.go"]+":12:6")
	l.want("lsp_call_hierarchy", map[string]any{"path": l.files["main.go"], "line": 11, "symbol": "helper", "direction": "outgoing"},
		"Functions called by `helper`", "Function Greet", "called at "+l.files["main.go"]+":12:6")
	l.want("lsp_code_actions", map[string]any{"path": l.files["main.go"], "line": 6},
		"from gopls")
}

// Neovim's truth: a call typed and not saved is a reference.
func TestUnsavedTextIsWhatTheServerAnswersAbout(t *testing.T) {
	l := newLSPEnv(t)
	l.nv.Lua(nil, `
		local buf = vim.fn.bufnr(...)
		vim.api.nvim_buf_set_lines(buf, 11, 11, false, { '\t_ = Greet("unsaved")' })`, l.files["main.go"])
	l.want("lsp_references", map[string]any{"path": l.files["greet.go"], "line": 4, "symbol": "Greet"},
		"(4):", l.files["main.go"]+":12:6: \t_ = Greet(\"unsaved\")")
}

func TestBadQuestionsGetOneClearLine(t *testing.T) {
	l := newLSPEnv(t)
	outside := t.TempDir() + "/elsewhere.go"
	if err := os.WriteFile(outside, []byte("package x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	binary := l.nv.WriteFile("blob.go", "package main\x00\x01\x02")
	text := l.nv.WriteFile("notes.txt", "Greet\n")
	py := l.nv.WriteFile("tool.py", "def greet():\n    pass\n")
	for _, tc := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"a line past the end", map[string]any{"path": l.files["greet.go"], "line": 40, "column": 1},
			"Line 40 is past the end of " + l.files["greet.go"] + ", which has 6 lines."},
		{"a column past the end", map[string]any{"path": l.files["greet.go"], "line": 1, "column": 30},
			"Column 30 is past the end of line 1 of " + l.files["greet.go"] + ", which has 12 characters: package main"},
		{"a symbol not on the line", map[string]any{"path": l.files["greet.go"], "line": 1, "symbol": "Greet"},
			"`Greet` is not on line 1 of " + l.files["greet.go"] + ", which reads: package main"},
		{"a file outside the workspace", map[string]any{"path": outside, "line": 1, "column": 1},
			outside + " is outside the workspace"},
		{"a binary file", map[string]any{"path": binary, "line": 1, "column": 1},
			binary + " is a binary file; no language server reads it."},
		{"a file that is not there", map[string]any{"path": "nope.go", "line": 1, "column": 1},
			l.nv.Cwd + "/nope.go does not exist"},
		{"a file no server knows", map[string]any{"path": text, "line": 1, "column": 1},
			"No language server is attached to " + text},
		{"a language without a server", map[string]any{"path": py, "line": 1, "symbol": "greet"},
			"No language server is attached to " + py + " (filetype python): a python server such as pyright, basedpyright or pylsp would answer for it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, isErr := l.call("lsp_references", tc.args)
			if isErr || !strings.Contains(got, tc.want) {
				t.Errorf("answered %q (error %v), want %q", got, isErr, tc.want)
			}
		})
	}
	if got, isErr := l.call("lsp_references", map[string]any{"path": l.files["greet.go"], "line": 0, "column": 1}); !isErr || !strings.Contains(got, "line must be 1 or more") {
		t.Errorf("line 0: %q (error %v), want an invalid-params error", got, isErr)
	}
}

// A rename is a proposal: its files open in the diff review one after the other, nothing is
// written before the last is accepted, and a hunk taken back stays as it was.
func TestARenameIsReviewedFileByFileAndAHunkTakenBackIsNotWritten(t *testing.T) {
	l := newLSPEnv(t)
	opened, closed := l.nv.UserEvents("ClaudeDiffOpened"), l.nv.UserEvents("ClaudeDiffClosed")
	l.want("lsp_rename", map[string]any{"path": l.files["greet.go"], "line": 4, "symbol": "Greet", "new_name": "Hello"},
		"The rename to Hello (5 edits in 2 files: ", "is open in the user's diff review")
	greet, main := nvimtest.GoModule["greet.go"], nvimtest.GoModule["main.go"]
	for i := range 2 {
		ev := nvimtest.Next(t, opened, "a file of the rename opened for review", waitTimeout)
		if i == 0 {
			l.assertFiles("before the review ends", greet, main)
		}
		if ev["path"] == l.files["main.go"] {
			// The proposal has the focus (the user idles): take back the call in helper.
			l.nv.Cmd("12")
			l.nv.Cmd("ClaudeDiffTakeBack")
		}
		l.nv.Cmd("ClaudeDiffAccept")
		nvimtest.Next(t, closed, "the reviewed file's diff closed", waitTimeout)
	}
	wantGreet := strings.ReplaceAll(greet, "Greet", "Hello") // its doc comment too
	wantMain := strings.Replace(strings.Replace(main, `Greet("world")`, `Hello("world")`, 1), `Greet("gopher")`, `Hello("gopher")`, 1)
	for deadline := time.Now().Add(waitTimeout); !l.filesAre(wantGreet, wantMain) && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond) // the files are written by Neovim, which tells nothing
	}
	l.assertFiles("after the review", wantGreet, wantMain)
}

func TestARenameRejectedInOneFileWritesNone(t *testing.T) {
	l := newLSPEnv(t)
	opened, closed := l.nv.UserEvents("ClaudeDiffOpened"), l.nv.UserEvents("ClaudeDiffClosed")
	l.want("lsp_rename", map[string]any{"path": l.files["main.go"], "line": 6, "symbol": "Greet", "new_name": "Hello"}, "in 2 files")
	nvimtest.Next(t, opened, "the first file of the rename opened", waitTimeout)
	l.nv.Cmd("ClaudeDiffAccept")
	nvimtest.Next(t, closed, "its diff closed", waitTimeout)
	nvimtest.Next(t, opened, "the second file opened", waitTimeout)
	l.nv.Cmd("ClaudeDiffReject")
	nvimtest.Next(t, closed, "its diff closed", waitTimeout)
	nvimtest.Wait(t, "the user told that nothing was written", waitTimeout, func() bool {
		m := l.nv.Messages()
		return strings.Contains(m, "rename to Hello: nothing written (") && strings.Contains(m, ".go was rejected)")
	})
	l.assertFiles("after one file was rejected", nvimtest.GoModule["greet.go"], nvimtest.GoModule["main.go"])
}

func (l *lspEnv) filesAre(greet, main string) bool {
	g, _ := os.ReadFile(l.files["greet.go"])
	m, _ := os.ReadFile(l.files["main.go"])
	return string(g) == greet && string(m) == main
}

func (l *lspEnv) assertFiles(when, greet, main string) {
	l.t.Helper()
	for name, want := range map[string]string{"greet.go": greet, "main.go": main} {
		if got, _ := os.ReadFile(l.files[name]); string(got) != want {
			l.t.Errorf("%s, %s holds\n%s\nwant\n%s", when, name, got, want)
		}
	}
}

// A place the server names outside the workspace is shown without its text, even when the
// user has that file open: the tools read the workspace's files only.
func TestAPlaceOutsideTheWorkspaceIsShownWithoutItsText(t *testing.T) {
	l := newLSPEnv(t)
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	printGo := filepath.Join(strings.TrimSpace(string(out)), "src", "fmt", "print.go")
	l.nv.Lua(nil, `local b = vim.fn.bufadd(...) vim.fn.bufload(b)`, printGo)
	got := l.want("lsp_definition", map[string]any{"path": l.files["main.go"], "line": 6, "symbol": "Println"}, printGo+":")
	for _, line := range strings.Split(got, "\n") {
		if strings.HasPrefix(line, printGo) && strings.Contains(line, "func") {
			t.Errorf("the answer quotes a file outside the workspace: %q", line)
		}
	}
}
