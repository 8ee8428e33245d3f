// Package doc_test checks doc/claude.txt against the plugin: Neovim must
// accept it (:helptags), and everything a user can type or configure must
// have a help tag.
package doc_test

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

const helpFile = "claude.txt"

// helptags copies the help file into a fresh directory, runs :helptags on
// it in nv (which fails on duplicate tags, E154) and returns the tags.
func helptags(t *testing.T, nv *nvimtest.Nvim) (dir string, tags map[string]bool) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "site")
	if err := os.MkdirAll(filepath.Join(dir, "doc"), 0o755); err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(helpFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "doc", helpFile), text, 0o644); err != nil {
		t.Fatal(err)
	}
	var errmsg string
	nv.Lua(&errmsg, `
		local ok, err = pcall(vim.cmd.helptags, ...)
		return ok and "" or tostring(err)`, filepath.Join(dir, "doc"))
	if errmsg != "" {
		t.Fatalf(":helptags doc/: %s", errmsg)
	}
	f, err := os.Open(filepath.Join(dir, "doc", "tags"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tags = map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		tag, _, _ := strings.Cut(sc.Text(), "\t")
		tags[tag] = true
	}
	return dir, tags
}

func requireTags(t *testing.T, tags map[string]bool, what string, want []string) {
	t.Helper()
	if len(want) == 0 {
		t.Fatalf("found no %s to check: the test lost track of the code", what)
	}
	for _, tag := range want {
		if !tags[tag] {
			t.Errorf("%s: doc/claude.txt has no *%s* tag", what, tag)
		}
	}
}

func TestHelpTagsAreUniqueAndCoverEveryCommandMapOptionEventAndCheck(t *testing.T) {
	nv := nvimtest.New(t)
	_, tags := helptags(t, nv)

	var commands []string
	nv.Lua(&commands, `
		local names = {}
		for name in pairs(vim.api.nvim_get_commands({ builtin = false })) do
			if name:match("^Claude") then table.insert(names, ":" .. name) end
		end
		table.sort(names)
		return names`)
	requireTags(t, tags, "user command", commands)

	var plugs []string
	nv.Lua(&plugs, `
		local seen, out = {}, {}
		for _, mode in ipairs({ "n", "x", "s", "o", "i", "c", "t" }) do
			for _, m in ipairs(vim.api.nvim_get_keymap(mode)) do
				if m.lhs:match("^<Plug>%(Claude") and not seen[m.lhs] then
					seen[m.lhs] = true
					table.insert(out, m.lhs)
				end
			end
		end
		table.sort(out)
		return out`)
	requireTags(t, tags, "<Plug> map", plugs)

	keys := configKeys(t, nv)
	var walked []string
	nv.Lua(&walked, `
		local out = {}
		local function walk(tbl, prefix)
			for k, v in pairs(tbl) do
				table.insert(out, prefix .. k)
				if type(v) == "table" and next(v) ~= nil and k ~= "env" then
					walk(v, prefix .. k .. ".")
				end
			end
		end
		walk(require("claude.config").defaults, "")
		return out`)
	for _, k := range walked {
		if !slices.Contains(keys, k) {
			t.Errorf("config key %s is in require('claude.config').defaults but not in its keys()", k)
		}
	}
	var configTags []string
	for _, k := range keys {
		configTags = append(configTags, "claude-config-"+k)
	}
	requireTags(t, tags, "config key", configTags)

	requireTags(t, tags, "User event", firedEvents(t))
	requireTags(t, tags, "health check", healthSections(t))

	var api []string
	nv.Lua(&api, `
		local out = {}
		for name, v in pairs(require("claude")) do
			-- A leading underscore marks internals (called by the Go host).
			if name:sub(1, 1) ~= "_" then table.insert(out, "claude." .. name .. (type(v) == "function" and "()" or "")) end
		end
		table.sort(out)
		return out`)
	requireTags(t, tags, "Lua API", api)

	requireTags(t, tags, "topic", []string{
		"claude", "claude-install", "claude-install-lazy", "claude-install-packages",
		"claude-install-manual", "claude-statusline", "claude-events", "claude-health",
		"claude-security", "claude-external", "claude-troubleshooting", "g:claude_nvim_binary",
		"claude-diff", "claude-config",
	})
}

// configKeys lists the options lua/claude/config.lua's schema declares,
// nested ones dotted ("terminal.position"), those whose default is nil too.
func configKeys(t *testing.T, nv *nvimtest.Nvim) []string {
	t.Helper()
	var keys []string
	nv.Lua(&keys, `return require("claude.config").keys()`)
	if len(keys) == 0 {
		t.Fatal("require('claude.config').keys() is empty")
	}
	return keys
}

// firedEvents finds the User events the Lua code fires: string literals
// "Claude…" on lines that call fire(…).
func firedEvents(t *testing.T) []string {
	t.Helper()
	// Every module, those in folders (chat/, terminal/) too.
	var files []string
	err := filepath.WalkDir(filepath.Join(nvimtest.RepoRoot(), "lua", "claude"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".lua") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	name := regexp.MustCompile(`"(Claude[A-Z][A-Za-z]+)"`)
	seen := map[string]bool{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(src), "\n") {
			if !strings.Contains(line, "fire(") {
				continue
			}
			for _, m := range name.FindAllStringSubmatch(line, -1) {
				seen[m[1]] = true
			}
		}
	}
	var out []string
	for e := range seen {
		out = append(out, e)
	}
	sort.Strings(out)
	return out
}

// healthSections maps each health.start("Name") in lua/claude/health.lua
// to its tag, claude-health-name.
func healthSections(t *testing.T) []string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(nvimtest.RepoRoot(), "lua", "claude", "health.lua"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range regexp.MustCompile(`health\.start\("([^"]+)"\)`).FindAllStringSubmatch(string(src), -1) {
		out = append(out, "claude-health-"+strings.ReplaceAll(strings.ToLower(m[1]), " ", "-"))
	}
	return out
}

func TestEveryLinkInTheHelpLeadsSomewhere(t *testing.T) {
	nv := nvimtest.New(t)
	dir, _ := helptags(t, nv)
	nv.Lua(nil, `vim.opt.runtimepath:append(...)`, dir)
	text, err := os.ReadFile(helpFile)
	if err != nil {
		t.Fatal(err)
	}
	links := map[string]bool{}
	inExample := false
	for _, line := range strings.Split(string(text), "\n") {
		if inExample {
			if strings.HasPrefix(line, "<") || (line != "" && line[0] != ' ' && line[0] != '\t') {
				inExample = false
			} else {
				continue
			}
		}
		for _, m := range regexp.MustCompile(`\|([^|\s]+)\|`).FindAllStringSubmatch(line, -1) {
			links[m[1]] = true
		}
		if strings.HasSuffix(line, " >") || line == ">" || regexp.MustCompile(`(^| )>[a-z]+$`).MatchString(line) {
			inExample = true
		}
	}
	if len(links) < 20 {
		t.Fatalf("found only %d links; the test's parsing is off", len(links))
	}
	// Every help tag Neovim knows: its own and ours (exact names; :help
	// itself would also accept a partial match).
	var files []string
	nv.Lua(&files, `return vim.api.nvim_get_runtime_file("doc/tags", true)`)
	known := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			tag, _, _ := strings.Cut(line, "\t")
			known[tag] = true
		}
	}
	for link := range links {
		if !known[link] {
			t.Errorf("|%s| leads nowhere: no such help tag (searched %q)", link, files)
		}
	}
}

// The layout rules of :help help-writing that Neovim itself does not check.
func TestTheHelpFileFollowsHelpWriting(t *testing.T) {
	text, err := os.ReadFile(helpFile)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(text), "\n"), "\n")
	if !regexp.MustCompile(`^\*claude\.txt\*\t\S`).MatchString(lines[0]) {
		t.Errorf("first line %q: want *claude.txt*, a tab and a summary", lines[0])
	}
	if last := lines[len(lines)-1]; !regexp.MustCompile(`^ vim:.*\bft=help\b.*:$`).MatchString(last) {
		t.Errorf("last line %q: want the help modeline", last)
	}
	rule := strings.Repeat("=", 78)
	sections := 0
	for i, line := range lines {
		if w := displayWidth(line); w > 78 {
			t.Errorf("line %d is %d columns wide (max 78): %q", i+1, w, line)
		}
		if line != rule {
			continue
		}
		sections++
		heading := lines[i+1]
		if !regexp.MustCompile(`^\S.*\s\*claude-[a-z-]+\*$`).MatchString(heading) && !strings.Contains(heading, "*claude*") {
			t.Errorf("line %d: the heading after a ==== rule should end in a *claude-…* tag: %q", i+2, heading)
		} else if displayWidth(heading) != 78 {
			t.Errorf("line %d: the heading's tag should end at column 78: %q", i+2, heading)
		}
	}
	if sections < 10 {
		t.Errorf("found %d sections separated by ==== rules; want the help split into sections", sections)
	}
}

// displayWidth counts columns with tabs at 8 (help files use ts=8); the
// text is ASCII apart from a few one-column symbols.
func displayWidth(s string) int {
	col := 0
	for _, r := range s {
		if r == '\t' {
			col += 8 - col%8
			continue
		}
		col++
	}
	return col
}

// Guard against the file going missing from the package directory.
func TestMain(m *testing.M) {
	if _, err := os.Stat(helpFile); err != nil {
		fmt.Fprintln(os.Stderr, "doc tests must run in doc/:", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// The packages and manual installs must say to run :helptags once, or :help claude fails
// (lazy.nvim generates the tags itself).
func TestTheManualInstallsSayToGenerateTheHelpTags(t *testing.T) {
	for _, tt := range []struct{ file, heading, next string }{
		{"README.md", "### Native packages", "\n#"},
		{"README.md", "### Manually", "\n#"},
		{"doc/claude.txt", "Native packages ~", " ~\n"},
		{"doc/claude.txt", "Manually ~", "\n===="},
	} {
		b, err := os.ReadFile(filepath.Join(nvimtest.RepoRoot(), tt.file))
		if err != nil {
			t.Fatal(err)
		}
		_, section, ok := strings.Cut(string(b), tt.heading)
		if !ok {
			t.Errorf("%s has no section %q", tt.file, tt.heading)
			continue
		}
		if end := strings.Index(section, tt.next); end >= 0 {
			section = section[:end]
		}
		if !strings.Contains(section, ":helptags") {
			t.Errorf("%s, section %q: no word of :helptags", tt.file, tt.heading)
		}
	}
}

// commandPaths walks the command tree (lua/claude/cmdtree.lua): every
// subcommand, as the words after :Claude ("chat mode"), and whether it
// runs something (a leaf or a node that runs bare).
func commandPaths(t *testing.T, nv *nvimtest.Nvim) (all, runnable []string) {
	t.Helper()
	var paths [][]any
	nv.Lua(&paths, `
		local out = {}
		local function walk(node, path)
			for _, s in ipairs(node.subs or {}) do
				local p = path == "" and s[1] or (path .. " " .. s[1])
				table.insert(out, { p, s[2].run ~= nil })
				walk(s[2], p)
			end
		end
		walk(require("claude.cmdtree").root, "")
		return out`)
	for _, p := range paths {
		all = append(all, p[0].(string))
		if p[1].(bool) {
			runnable = append(runnable, p[0].(string))
		}
	}
	if len(all) < 20 {
		t.Fatalf("the command tree has %d subcommands (%q); the walk lost track of it", len(all), all)
	}
	return all, runnable
}

// Every subcommand of :Claude has its help tag, :Claude-{words joined by -}.
func TestEverySubcommandHasAHelpTag(t *testing.T) {
	nv := nvimtest.New(t)
	_, tags := helptags(t, nv)
	all, _ := commandPaths(t, nv)
	var want []string
	for _, p := range all {
		want = append(want, ":Claude-"+strings.ReplaceAll(p, " ", "-"))
	}
	requireTags(t, tags, "subcommand", append(want, ":Claude", "claude-commands-old"))
}

// README's command section is one table of :Claude {sub}, a row for every
// subcommand that runs something, and no old name in it.
func TestTheREADMEsCommandsAreOneTableOfClaudeSub(t *testing.T) {
	nv := nvimtest.New(t)
	_, runnable := commandPaths(t, nv)
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n## Commands\n")
	if !ok {
		t.Fatal("README.md has no ## Commands section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var rows []string
	tables := 0
	inTable := false
	for _, line := range strings.Split(section, "\n") {
		isRow := strings.HasPrefix(line, "|")
		if isRow && !inTable {
			tables++
		}
		inTable = isRow
		if isRow && !strings.HasPrefix(line, "|---") && !strings.HasPrefix(line, "| Command") {
			rows = append(rows, line)
		}
	}
	if tables != 1 {
		t.Errorf("README's ## Commands has %d tables; want one", tables)
	}
	row := regexp.MustCompile("^\\| `:(?:\\[range\\])?Claude ([a-z -]+?)(?: [\\[{@].*)?`")
	listed := map[string]bool{}
	for _, r := range rows {
		m := row.FindStringSubmatch(r)
		if m == nil {
			t.Errorf("README command row does not start with `:Claude {sub}`: %s", r)
			continue
		}
		listed[m[1]] = true
	}
	for _, p := range runnable {
		if !listed[p] && !listed[strings.TrimPrefix(p, "chat ")] {
			t.Errorf("README's command table has no row for :Claude %s", p)
		}
	}
}

// :help claude-keys lists every default key of lua/claude/keys.lua, with
// its <Plug> map: every default has one, to bind elsewhere with keys = false.
func TestTheKeyTableInTheHelpListsEveryDefault(t *testing.T) {
	nv := nvimtest.New(t)
	var defaults [][]string
	nv.Lua(&defaults, `
		local out = {}
		for name, d in pairs(require("claude.keys").defaults) do
			table.insert(out, { name, d[1], d[2], require("claude.keys").plug(name) })
		end
		return out`)
	if len(defaults) < 30 {
		t.Fatalf("lua/claude/keys.lua declares %d keys; the table went missing", len(defaults))
	}
	text, err := os.ReadFile(helpFile)
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(text), "*claude-keys*")
	if !ok {
		t.Fatal("doc/claude.txt has no *claude-keys* section")
	}
	section, _, _ = strings.Cut(section, "\n====")
	for _, d := range defaults {
		name, area, lhs, plug := d[0], d[1], d[2], d[3]
		heading := "(`" + area + "`) ~\n"
		_, block, ok := strings.Cut(section, heading)
		if !ok {
			t.Errorf("the key table has no heading for area %s", area)
			continue
		}
		// Each area's block follows a heading ending in (`area`) ~.
		block, _, _ = strings.Cut(block, " ~\n")
		block = "\n" + block
		if !strings.Contains(block, "\n  "+lhs+" ") && !strings.Contains(block, "\n  "+lhs+"\n") {
			t.Errorf("the key table lists no %s under %s (%s)", lhs, area, name)
		}
		if plug == "" {
			t.Errorf("%s has no <Plug> map", name)
		}
		if !strings.Contains(block, "|<Plug>("+plug+")|") && !strings.Contains(block, "*<Plug>("+plug+")*") {
			t.Errorf("the key table names no <Plug>(%s) under %s (%s)", plug, area, name)
		}
	}
}
