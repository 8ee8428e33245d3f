package plugintest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// sourceLines calls fn with each line (1-based) of the files under dir
// whose names end in suffix, tests excluded.
func sourceLines(t *testing.T, dir, suffix string, fn func(path string, n int, line string)) {
	t.Helper()
	root := nvimtest.RepoRoot()
	err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, suffix) || strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		for i, line := range strings.Split(string(src), "\n") {
			fn(rel, i+1, line)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The functions the Go host defines, as the manifest lists them.
var manifestFunction = regexp.MustCompile(`'type': 'function', 'name': '(\w+)'`)

// One way out to Go: only lua/claude/host.lua names the Go host's
// functions (a comment elsewhere may).
func TestOnlyHostLuaCallsTheGoHost(t *testing.T) {
	manifest, err := os.ReadFile(filepath.Join(nvimtest.RepoRoot(), "rplugin", "claude-nvim.vim"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range manifestFunction.FindAllStringSubmatch(string(manifest), -1) {
		names = append(names, m[1])
	}
	if len(names) == 0 {
		t.Fatal("the manifest lists no functions; the pattern no longer matches it")
	}
	goFunction := regexp.MustCompile(`\b(` + strings.Join(names, "|") + `)\b`)
	for _, dir := range []string{"lua", "plugin"} {
		sourceLines(t, dir, ".lua", func(path string, n int, line string) {
			code, _, _ := strings.Cut(line, "--")
			if path != filepath.Join("lua", "claude", "host.lua") && path != filepath.Join("lua", "claude", "host_calls.lua") && goFunction.MatchString(code) {
				t.Errorf("%s:%d calls %s; go through a wrapper in lua/claude/host.lua", path, n, goFunction.FindString(code))
			}
		})
	}
}

var (
	luaRequire   = regexp.MustCompile(`require\s*\(?\s*['"](claude(?:\.\w+)*)['"]\s*\)?\s*\.\s*(\w+)`)
	handlerNames = regexp.MustCompile(`(?m)^function M\.(\w+)\(`)
)

// One way in from Go: the Lua that Go code runs (nvimapi's ExecLua strings
// and eval expressions) calls lua/claude/handlers.lua only, and only
// functions it has.
func TestGoCallsLuaOnlyThroughHandlers(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(nvimtest.RepoRoot(), "lua", "claude", "handlers.lua"))
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, m := range handlerNames.FindAllStringSubmatch(string(src), -1) {
		have[m[1]] = true
	}
	calls := 0
	for _, dir := range []string{"nvimapi", "host", "chat", "mcp", "lockfile"} {
		sourceLines(t, dir, ".go", func(path string, n int, line string) {
			if strings.HasPrefix(strings.TrimSpace(line), "//") {
				return
			}
			for _, m := range luaRequire.FindAllStringSubmatch(line, -1) {
				calls++
				if m[1] != "claude.handlers" {
					t.Errorf("%s:%d calls %s.%s; Go calls Lua through lua/claude/handlers.lua only", path, n, m[1], m[2])
				} else if !have[m[2]] {
					t.Errorf("%s:%d calls handlers.%s, which lua/claude/handlers.lua does not define", path, n, m[2])
				}
			}
		})
	}
	if calls == 0 {
		t.Error("found no Lua call in the Go sources; the pattern no longer matches how they call Lua")
	}
}

// hostHelpers are host.lua's functions that are not a call of the Go host:
// where the binary is, starting it, the generic call.
var hostHelpers = map[string]bool{
	"root": true, "binary": true, "manifest": true, "log_file": true, "origin": true,
	"install_command": true, "describe_exit": true, "ensure": true, "finish_start": true,
	"call": true, "channel": true, "running": true,
}

var hostUse = regexp.MustCompile(`require\(?\s*["']claude\.host["']\s*\)?\s*\.\s*(\w+)|\bhost\.(\w+)\(`)

// The Lua–Go boundary is one declared list (host/calls.go, written to
// lua/claude/host_calls.lua): host.lua has a wrapper for each entry and
// none besides its helpers, and every call Lua makes through host.lua is
// one of them. A call not in the list fails here.
func TestEveryCallOfTheGoHostIsInTheDeclaredList(t *testing.T) {
	nv := newNvim(t)
	var declared map[string]string
	nv.Lua(&declared, `
		local out = {}
		for name, c in pairs(require("claude.host_calls")) do out[name] = c.go end
		return out`)
	var exported []string
	nv.Lua(&exported, `
		local out = {}
		for name, v in pairs(require("claude.host")) do
			if type(v) == "function" then table.insert(out, name) end
		end
		return out`)
	if len(declared) < 30 {
		t.Fatalf("lua/claude/host_calls.lua declares %d calls; the list went missing", len(declared))
	}
	have := map[string]bool{}
	for _, name := range exported {
		have[name] = true
		if _, ok := declared[name]; !ok && !hostHelpers[name] {
			t.Errorf("lua/claude/host.lua has M.%s, which host/calls.go does not declare", name)
		}
	}
	for name, goName := range declared {
		// start_async, version and configure_changes are used inside host.lua only.
		if !have[name] && name != "version" && name != "configure_changes" {
			t.Errorf("host/calls.go declares %s (%s) but lua/claude/host.lua has no wrapper for it", name, goName)
		}
	}
	uses := 0
	sourceLines(t, "lua", ".lua", func(path string, n int, line string) {
		code, _, _ := strings.Cut(line, "--")
		for _, m := range hostUse.FindAllStringSubmatch(code, -1) {
			name := m[1] + m[2]
			uses++
			if path == filepath.Join("lua", "claude", "host.lua") {
				continue
			}
			if _, ok := declared[name]; !ok && !hostHelpers[name] {
				t.Errorf("%s:%d calls host.%s, which is neither in host/calls.go's list nor a helper of host.lua", path, n, name)
			}
		}
	})
	if uses == 0 {
		t.Error("found no call through claude.host; the pattern lost track of the sources")
	}
}
