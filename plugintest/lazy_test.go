package plugintest

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/mcp/mcptest"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// lazyInit does at startup what lazy.nvim does for the README's spec
// (`cmd = {…}`, `opts = {…}`): the plugin directory is NOT on 'runtimepath';
// only stub commands exist. Running a stub deletes the stubs, puts the
// plugin on 'runtimepath', sources its plugin/ files, calls
// require("claude").setup(opts), and runs the command again with its range,
// bang, modifiers and arguments.
const lazyInit = `
local root = vim.env.CLAUDE_TEST_ROOT
vim.opt.runtimepath:remove(root)
local opts = { terminal_cmd = { vim.env.CLAUDE_TEST_CLI } }
local commands = {
  "Claude",
  "ClaudeOpen", "ClaudeToggle", "ClaudeFocus", "ClaudeClose", "ClaudeSend", "ClaudeAdd",
  "ClaudeStart", "ClaudeStop", "ClaudeStatus", "ClaudeDiffAccept", "ClaudeDiffReject", "ClaudeDiffDeny",
  "ClaudeDiffFocus", "ClaudeAsk", "ClaudeSendText", "ClaudeSessions",
  "ClaudeDiffTakeBack", "ClaudeDiffKeep",
  "ClaudeLog", "ClaudeChat", "ClaudeChatInterrupt", "ClaudeChatStop", "ClaudeChatMode", "ClaudeModel",
  "ClaudeChatAttach", "ClaudeChatAnswer", "ClaudeChatUnqueue", "ClaudeChatTrust",
  "ClaudeChatStopAgent", "ClaudeChatTasks",
  "ClaudeChatEffort",
  "ClaudeChatRewind", "ClaudeChatRules", "ClaudeChatUsage", "ClaudeChatMcp", "ClaudeChatBackground",
  "ClaudeRemote",
  "ClaudeChanges",
  "ClaudeDictate",
}
_G.lazy_loads = 0

local function load()
  for _, name in ipairs(commands) do
    pcall(vim.api.nvim_del_user_command, name)
  end
  vim.opt.runtimepath:prepend(root)
  for _, file in ipairs(vim.fn.glob(root .. "/plugin/**/*.{lua,vim}", false, true)) do
    vim.cmd.source(vim.fn.fnameescape(file))
  end
  require("claude").setup(opts)
  _G.lazy_loads = _G.lazy_loads + 1
end

for _, name in ipairs(commands) do
  vim.api.nvim_create_user_command(name, function(ev)
    load()
    local cmd = { cmd = name, bang = ev.bang or nil, mods = ev.smods, args = ev.fargs }
    if ev.range == 1 then
      cmd.range = { ev.line1 }
    elseif ev.range == 2 then
      cmd.range = { ev.line1, ev.line2 }
    end
    vim.cmd(cmd)
  end, { bang = true, range = true, nargs = "*", desc = "lazy-load claude.nvim" })
end
`

// newLazyNvim starts a child Neovim configured like lazy.nvim with the
// README's spec, and a stand-in CLI as terminal_cmd.
func newLazyNvim(t *testing.T) (nv *nvimtest.Nvim, record string) {
	t.Helper()
	dir := t.TempDir()
	cli, record := nvimtest.StandInCLI(t, dir)
	init := filepath.Join(dir, "lazy-init.lua")
	if err := os.WriteFile(init, []byte(lazyInit), 0o644); err != nil {
		t.Fatal(err)
	}
	nv = newNvim(t,
		nvimtest.WithEnv("CLAUDE_TEST_ROOT="+nvimtest.RepoRoot(), "CLAUDE_TEST_CLI="+cli),
		nvimtest.WithArgs("--cmd", "luafile "+init))
	return nv, record
}

type loadState struct {
	Modules   []string `msgpack:"modules"`
	OnRTP     bool     `msgpack:"on_rtp"`
	Loaded    bool     `msgpack:"loaded"`
	Commands  []string `msgpack:"commands"`
	Plugs     int      `msgpack:"plugs"`
	Autocmds  int      `msgpack:"autocmds"`
	LazyLoads int      `msgpack:"lazy_loads"`
}

func loaded(t *testing.T, nv *nvimtest.Nvim) loadState {
	t.Helper()
	var s loadState
	nv.Lua(&s, `
		local s = { modules = {}, commands = {}, plugs = 0, lazy_loads = _G.lazy_loads or 0 }
		for name in pairs(package.loaded) do
			if name == "claude" or name:match("^claude%.") then table.insert(s.modules, name) end
		end
		table.sort(s.modules)
		for _, dir in ipairs(vim.api.nvim_list_runtime_paths()) do
			if dir == ... then s.on_rtp = true end
		end
		s.loaded = vim.g.loaded_claude == true
		for name in pairs(vim.api.nvim_get_commands({ builtin = false })) do
			if name:match("^Claude") then table.insert(s.commands, name) end
		end
		table.sort(s.commands)
		for _, m in ipairs(vim.api.nvim_get_keymap("n")) do
			if m.lhs:match("^<Plug>%(Claude") then s.plugs = s.plugs + 1 end
		end
		-- The Go host's manifest defines these; it must not be loaded yet.
		s.autocmds = 0
		for _, au in ipairs(vim.api.nvim_get_autocmds({ event = "CursorMoved" })) do
			local text = ((au.command or "") .. (au.group_name or "") .. (au.desc or "")):lower()
			if text:find("claude", 1, true) then s.autocmds = s.autocmds + 1 end
		end
		return s`, nvimtest.RepoRoot())
	return s
}

// pluginCommands lists, sorted, the commands plugin/claude.lua defines.
func pluginCommands(t *testing.T) []string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(nvimtest.RepoRoot(), "plugin", "claude.lua"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range regexp.MustCompile(`(?m)^(?:command|alias)\("(Claude\w*)"`).FindAllStringSubmatch(string(src), -1) {
		names = append(names, m[1])
	}
	sort.Strings(names)
	if len(names) == 0 {
		t.Fatal("found no command(...) in plugin/claude.lua")
	}
	return names
}

func TestLazyLoadingLoadsNothingUntilTheFirstCommandAndThatCommandWorks(t *testing.T) {
	nv, record := newLazyNvim(t)

	before := loaded(t, nv)
	if before.OnRTP || before.Loaded || len(before.Modules) > 0 || before.Plugs > 0 || before.Autocmds > 0 {
		t.Fatalf("at startup: on 'runtimepath' %v, plugin/ sourced %v, modules %q, <Plug> maps %d, CursorMoved autocmds %d; want nothing of ours",
			before.OnRTP, before.Loaded, before.Modules, before.Plugs, before.Autocmds)
	}
	if want := pluginCommands(t); strings.Join(before.Commands, " ") != strings.Join(want, " ") {
		t.Fatalf("at startup the stubs are %q, want one for each command: %q", before.Commands, want)
	}

	nv.Cmd("ClaudeOpen --resume")
	got := strings.Join(nvimtest.ReadRecord(t, record), "\n")
	s := status(t, nv)
	for _, want := range []string{
		"args [--resume] [--permission-mode] [default] [--settings] [",
		"lock present",
		"env CLAUDE_CODE_SSE_PORT=" + strconv.Itoa(s.Port),
	} {
		// Each item ends its line, but the args, which end with the hooks' settings file.
		if !strings.Contains(got, want+"\n") && !(strings.HasSuffix(want, "[") && strings.Contains(got, want)) {
			t.Errorf("the first :Claude open (through the stub) started a CLI whose record lacks %q:\n%s", want, got)
		}
	}
	var focused bool
	nv.Lua(&focused, `return vim.b.claude_terminal == true`)
	if !focused {
		t.Errorf("after the first :Claude open the Claude terminal is not the current buffer; messages:\n%s", nv.Messages())
	}

	after := loaded(t, nv)
	if !after.OnRTP || !after.Loaded || after.LazyLoads != 1 || after.Plugs == 0 || after.Autocmds == 0 {
		t.Errorf("after the first command: on 'runtimepath' %v, plugin/ sourced %v, loads %d, <Plug> maps %d, host autocmds %d; want loaded once, host running",
			after.OnRTP, after.Loaded, after.LazyLoads, after.Plugs, after.Autocmds)
	}
	var setupCalled bool
	nv.Lua(&setupCalled, `return require('claude').setup_called()`)
	if !setupCalled {
		t.Errorf("opts did not reach setup()")
	}

	// The real commands replaced the stubs: running one again does not reload.
	nv.Cmd("ClaudeToggle")
	nv.Cmd("ClaudeToggle")
	if again := loaded(t, nv); again.LazyLoads != 1 {
		t.Errorf("later commands reloaded the plugin (%d loads)", again.LazyLoads)
	}
}

// A range given to the stub reaches the real command.
func TestALazyLoadedClaudeSendKeepsItsRange(t *testing.T) {
	nv, _ := newLazyNvim(t)
	path := nv.WriteFile("notes.txt", "one\ntwo\nthree\nfour\n")
	nv.Cmd("edit " + path)
	nv.Cmd("2,3ClaudeSend")
	c := connect(t, nv)
	m := mcptest.Next[mention](t, c, "at_mentioned")
	if m.FilePath != path || m.LineStart == nil || m.LineEnd == nil || *m.LineStart != 1 || *m.LineEnd != 2 {
		t.Errorf(":2,3ClaudeSend through the stub sent %v, want %s 1..2 (0-based)", m, path)
	}
}

// With the plugin on 'runtimepath' from the start (packages, manual
// install), plugin/claude.lua defines commands and maps and nothing else.
func TestPluginFileRequiresNoModuleAtStartup(t *testing.T) {
	nv := newNvim(t)
	s := loaded(t, nv)
	if want := pluginCommands(t); !s.Loaded || strings.Join(s.Commands, " ") != strings.Join(want, " ") || s.Plugs == 0 {
		t.Errorf("plugin/claude.lua: loaded %v, commands %q, <Plug> maps %d; want the commands %q and the maps", s.Loaded, s.Commands, s.Plugs, want)
	}
	if len(s.Modules) > 0 {
		t.Errorf("at startup these modules were required: %q; plugin/claude.lua must require nothing", s.Modules)
	}
	if s.Autocmds > 0 {
		t.Errorf("at startup %d CursorMoved autocmds exist; the host must not be set up before a command runs", s.Autocmds)
	}
}

// An optional package (pack/*/opt) is loaded by :packadd, then set up.
func TestPackaddLoadsThePlugin(t *testing.T) {
	pack := filepath.Join(t.TempDir(), "site")
	opt := filepath.Join(pack, "pack", "claude", "opt")
	if err := os.MkdirAll(opt, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(nvimtest.RepoRoot(), filepath.Join(opt, "claude.nvim")); err != nil {
		t.Fatal(err)
	}
	nv := newNvim(t,
		nvimtest.WithEnv("CLAUDE_TEST_ROOT="+nvimtest.RepoRoot(), "CLAUDE_TEST_PACK="+pack),
		nvimtest.WithArgs("--cmd", "lua vim.opt.runtimepath:remove(vim.env.CLAUDE_TEST_ROOT); vim.opt.packpath:prepend(vim.env.CLAUDE_TEST_PACK)"))
	if s := loaded(t, nv); s.Loaded || len(s.Commands) > 0 {
		t.Fatalf("before :packadd: plugin/ sourced %v, commands %q; want nothing", s.Loaded, s.Commands)
	}
	nv.Cmd("packadd claude.nvim")
	nv.Lua(nil, `require('claude').setup({})`)
	if want := pluginCommands(t); !loaded(t, nv).Loaded || strings.Join(loaded(t, nv).Commands, " ") != strings.Join(want, " ") {
		t.Fatalf("after :packadd: plugin/ sourced %v, commands %q; want %q", loaded(t, nv).Loaded, loaded(t, nv).Commands, want)
	}
	nv.Cmd("ClaudeStart")
	if s := status(t, nv); !s.Running {
		t.Errorf(":Claude server start after :packadd did not start the server; messages:\n%s", nv.Messages())
	}
}

// The first command runs through lazy.nvim's stub, which runs ours with vim.cmd: an error
// raised there would come out with a Lua stack trace. A user error is a message instead.
func TestAUserErrorThroughLazysStubIsOneMessageWithoutAStackTrace(t *testing.T) {
	nv, _ := newLazyNvim(t)
	nv.Lua(nil, `vim.g.claude_nvim_binary = "/nonexistent/claude-nvim"`)
	before := nv.Messages()
	if err := nv.Command("ClaudeStart"); err != nil {
		t.Errorf(":Claude server start through the stub raised %v; want a message", err)
	}
	said := strings.TrimPrefix(nv.Messages(), before)
	if !strings.Contains(said, "claude.nvim: the Go binary /nonexistent/claude-nvim is missing") || strings.Contains(said, "stack traceback") {
		t.Errorf(":Claude server start through the stub said %q; want the one-line message, no stack trace", said)
	}
}
