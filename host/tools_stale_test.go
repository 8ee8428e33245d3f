package host

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Stale answers counted: each round changes the editor through the API (as
// a plugin or a script does, with no autocmd of the user's own) and calls
// the tool at once. The generation cache must never answer from before the
// change. CLAUDE_NVIM_STALE_ROUNDS sets the rounds (the figures are
// per 10,000); the default keeps the test quick.
func staleRounds(t *testing.T) int {
	if s := os.Getenv("CLAUDE_NVIM_STALE_ROUNDS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			t.Fatalf("CLAUDE_NVIM_STALE_ROUNDS=%q: want a positive number", s)
		}
		return n
	}
	return 300
}

func TestNoStaleCheapToolAnswers(t *testing.T) {
	rounds := staleRounds(t)
	for _, tc := range []struct {
		name string
		// keys put the editor in a state first ("" for Normal mode).
		keys string
		// change changes the editor in round i; check says whether an
		// answer is the one after it.
		change func(e *env, i int)
		tool   string
		check  func(t *testing.T, e *env, got string, i int) bool
	}{
		{
			name: "a cursor moved through the API in Normal mode", tool: "getCurrentSelection",
			change: func(e *env, i int) { e.nv.Lua(nil, `vim.api.nvim_win_set_cursor(0, { ..., 0 })`, i%20+1) },
			check:  func(t *testing.T, e *env, got string, i int) bool { return selectionLine(t, got) == i%20 },
		},
		{
			name: "'selection' switched under a visual selection", keys: "2GVj", tool: "getCurrentSelection",
			change: func(e *env, i int) {
				e.nv.Lua(nil, `vim.o.selection = ...`, []string{"inclusive", "exclusive"}[i%2])
				e.nv.Keys("<Esc>gg0vl")
			},
			check: func(t *testing.T, e *env, got string, i int) bool {
				return strings.Contains(got, `"text":"`+[]string{"a ", "a"}[i%2]+`"`)
			},
		},
		{
			name: "a cursor moved through the API while the user is in the command line", keys: ":", tool: "getCurrentSelection",
			change: func(e *env, i int) { e.nv.Lua(nil, `vim.api.nvim_win_set_cursor(0, { ..., 0 })`, i%20+1) },
			check:  func(t *testing.T, e *env, got string, i int) bool { return selectionLine(t, got) == i%20 },
		},
		{
			name: "a buffer renamed with 'eventignore' set to all and back", tool: "getOpenEditors",
			change: func(e *env, i int) {
				e.nv.Cmd("set eventignore=all | file " + filepath.Join(e.nv.Cwd, "renamed"+strconv.Itoa(i)+".txt") + " | set eventignore=")
			},
			check: func(t *testing.T, e *env, got string, i int) bool {
				return strings.Contains(got, `"fileName":"`+filepath.Join(e.nv.Cwd, "renamed"+strconv.Itoa(i)+".txt")+`"`)
			},
		},
		{
			name: "the directory changed with chdir()", tool: "getWorkspaceFolders",
			change: func(e *env, i int) {
				e.nv.Lua(nil, `vim.fn.chdir(...)`, filepath.Join(e.nv.Cwd, []string{"d0", "d1"}[i%2]))
			},
			check: func(t *testing.T, e *env, got string, i int) bool {
				return strings.Contains(got, `"path":"`+filepath.Join(e.nv.Cwd, []string{"d0", "d1"}[i%2])+`"`)
			},
		},
		{
			name: "the process's directory changed with vim.uv.chdir", tool: "getWorkspaceFolders",
			change: func(e *env, i int) {
				e.nv.Lua(nil, `vim.uv.chdir(...)`, filepath.Join(e.nv.Cwd, []string{"d0", "d1"}[i%2]))
			},
			check: func(t *testing.T, e *env, got string, i int) bool {
				return strings.Contains(got, `"path":"`+filepath.Join(e.nv.Cwd, []string{"d0", "d1"}[i%2])+`"`)
			},
		},
		{
			name: "lines set in a buffer made with nvim_create_buf and never shown", tool: "getOpenEditors",
			change: func(e *env, i int) {
				e.nv.Lua(nil, `
					local path, n = ...
					local b = vim.fn.bufnr(path)
					if b == -1 then b = vim.api.nvim_create_buf(true, false); vim.api.nvim_buf_set_name(b, path) end
					local lines = {}
					for k = 1, n do lines[k] = 'line ' .. k end
					vim.api.nvim_buf_set_lines(b, 0, -1, false, lines)`, filepath.Join(e.nv.Cwd, "unshown.txt"), i%7+1)
			},
			check: func(t *testing.T, e *env, got string, i int) bool {
				tabs := decodeJSON[struct {
					Tabs []openTab `json:"tabs"`
				}](t, got).Tabs
				tab, ok := tabOf(tabs, filepath.Join(e.nv.Cwd, "unshown.txt"))
				return ok && tab.LineCount == i%7+1
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			path := e.nv.WriteFile("twenty.txt", strings.Repeat("a line\n", 20))
			e.nv.WriteFile("d0/x", "")
			e.nv.WriteFile("d1/x", "")
			c := e.connect()
			e.nv.Cmd("edit " + path)
			if tc.keys != "" {
				e.nv.Keys(tc.keys)
			}
			callTool(t, c, tc.tool, nil) // the host maps the page: every round may be cached
			stale := 0
			for i := range rounds {
				tc.change(e, i)
				if got := callTool(t, c, tc.tool, nil)[0]; !tc.check(t, e, got, i) {
					stale++
					if stale == 1 {
						t.Logf("round %d: first stale answer %s", i, got)
					}
				}
			}
			t.Logf("%s: %d stale of %d", tc.tool, stale, rounds)
			if stale > 0 {
				t.Errorf("%s after %s: %d stale answers of %d", tc.tool, tc.name, stale, rounds)
			}
		})
	}
}

// selectionLine is the 0-based line where getCurrentSelection's answer
// starts, or -1.
func selectionLine(t *testing.T, got string) int {
	t.Helper()
	sel := decodeJSON[struct {
		Selection *struct {
			Start struct {
				Line int `json:"line"`
			} `json:"start"`
		} `json:"selection"`
	}](t, got)
	if sel.Selection == nil {
		return -1
	}
	return sel.Selection.Start.Line
}
