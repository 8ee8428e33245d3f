package plugintest

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The Lua modules' floors are written once, in lua/claude/init.lua's
// header ("-- 2 views: claude.diff claude.terminal ..."); this test reads
// them there so the doc and the rule cannot drift apart.
var floorLine = regexp.MustCompile(`^-- (\d) [a-z]+: (claude[\w. ]*)$`)

// A require of one of our modules, with parentheses or without, in Lua
// or in a v:lua expression: require("claude.x"), require 'claude.x',
// require'claude.x'.
var requireCall = regexp.MustCompile(`require\s*\(?\s*["'](claude(?:\.\w+)*)["']`)

// luaModules maps each module name under lua/claude to its source.
func luaModules(t *testing.T) map[string]string {
	t.Helper()
	root := filepath.Join(nvimtest.RepoRoot(), "lua")
	mods := map[string]string{}
	err := filepath.WalkDir(filepath.Join(root, "claude"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".lua") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, strings.TrimSuffix(path, ".lua"))
		name := strings.ReplaceAll(strings.TrimSuffix(rel, string(filepath.Separator)+"init"), string(filepath.Separator), ".")
		mods[name] = string(src)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return mods
}

// floors reads the floor of every module from init.lua's header.
func floors(t *testing.T, initSrc string) map[string]int {
	t.Helper()
	out := map[string]int{}
	for _, line := range strings.Split(initSrc, "\n") {
		m := floorLine.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		for _, name := range strings.Fields(m[2]) {
			out[name] = n
		}
	}
	if len(out) == 0 {
		t.Fatal("lua/claude/init.lua's header lists no floors (lines like `-- 0 base: claude.config`)")
	}
	return out
}

type requireEdge struct {
	to       string
	line     int
	topLevel bool
}

// requires lists the modules src requires, outside comments. A require on
// a line that starts at column 0 runs when the module loads (top level);
// an indented one runs when a function is called (lazy). Our modules keep
// their top-level requires unindented, so the column tells them apart.
func requires(src string) []requireEdge {
	var out []requireEdge
	for i, line := range strings.Split(src, "\n") {
		code := line
		if strings.HasPrefix(strings.TrimSpace(code), "--") {
			continue
		}
		for _, m := range requireCall.FindAllStringSubmatch(code, -1) {
			out = append(out, requireEdge{to: m[1], line: i + 1, topLevel: !strings.HasPrefix(line, " ") && !strings.HasPrefix(line, "\t")})
		}
	}
	return out
}

func TestEveryLuaModuleRequiresOnlyItsFloorOrBelow(t *testing.T) {
	mods := luaModules(t)
	floor := floors(t, mods["claude"])
	var names []string
	for name := range mods {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		own, ok := floor[name]
		if !ok {
			t.Errorf("%s has no floor: add it to a floor line in lua/claude/init.lua's header", name)
			continue
		}
		for _, r := range requires(mods[name]) {
			to, ok := floor[r.to]
			switch {
			case !ok:
				t.Errorf("%s:%d requires %s, which is no module with a floor", name, r.line, r.to)
			case to > own:
				t.Errorf("%s (floor %d) line %d requires %s (floor %d): a call up; fire a User event instead, or move the code down", name, own, r.line, r.to, to)
			}
		}
	}
	for name := range floor {
		if _, ok := mods[name]; !ok {
			t.Errorf("lua/claude/init.lua's header gives %s a floor, but there is no such module", name)
		}
	}
}

func TestTheLuaModulesFormNoRequireCycle(t *testing.T) {
	mods := luaModules(t)
	topLevel, any := map[string][]string{}, map[string][]string{}
	for name, src := range mods {
		for _, r := range requires(src) {
			if r.topLevel {
				topLevel[name] = append(topLevel[name], r.to)
			}
			if r.to != name { // a v:lua expression naming the module itself
				any[name] = append(any[name], r.to)
			}
		}
	}
	if cycle := findCycle(topLevel); cycle != nil {
		t.Errorf("the Lua modules' top-level requires form a cycle: %s", strings.Join(cycle, " -> "))
	}
	if cycle := findCycle(any); cycle != nil {
		t.Errorf("the Lua modules' requires (those inside functions too) form a cycle: %s", strings.Join(cycle, " -> "))
	}
}

// findCycle returns one cycle of graph (its first node repeated at the
// end), or nil.
func findCycle(graph map[string][]string) []string {
	const (
		unseen = iota
		onPath
		done
	)
	state := map[string]int{}
	var path []string
	var visit func(n string) []string
	visit = func(n string) []string {
		state[n] = onPath
		path = append(path, n)
		for _, next := range graph[n] {
			switch state[next] {
			case onPath:
				for i, p := range path {
					if p == next {
						return append(append([]string{}, path[i:]...), next)
					}
				}
			case unseen:
				if c := visit(next); c != nil {
					return c
				}
			}
		}
		path = path[:len(path)-1]
		state[n] = done
		return nil
	}
	var nodes []string
	for n := range graph {
		nodes = append(nodes, n)
	}
	sort.Strings(nodes)
	for _, n := range nodes {
		if state[n] == unseen {
			if c := visit(n); c != nil {
				return c
			}
		}
	}
	return nil
}
