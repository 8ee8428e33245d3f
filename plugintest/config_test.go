package plugintest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// setup() with each kind of input: what it reports and what configuration
// it leaves. It never raises: a bad value is reported in one line and the
// option keeps its default.
func TestSetupChecksAndMergesOptions(t *testing.T) {
	nv := newNvim(t)
	for _, tt := range []struct {
		name, opts string
		wantWarn   string // what setup() reports (the start of it), or ""
		check      string // Lua returning true when the resolved config is right
	}{
		{name: "{} gives the defaults", opts: `{}`,
			check: `c.terminal.position == "right" and c.terminal.size == 0.4 and c.terminal_cmd == "claude" and c.port_range == nil and c.diff.keymaps.accept == "<leader>aa"`},
		{name: "nil gives the defaults", opts: `nil`, check: `c.auto_start == false and c.log.level == "info"`},
		{name: "nested options merge over the defaults", opts: `{ terminal = { size = 80 }, diff = { keymaps = { reject = false } } }`,
			check: `c.terminal.size == 80 and c.terminal.position == "right" and c.diff.keymaps.reject == false and c.diff.keymaps.accept == "<leader>aa"`},
		{name: "a list replaces the default", opts: `{ terminal_cmd = { "npx", "claude" }, port_range = { 9000, 9010 } }`,
			check: `#c.terminal_cmd == 2 and c.terminal_cmd[2] == "claude" and c.port_range[2] == 9010`},
		{name: "a bad type", opts: `{ auto_start = "yes", terminal = { size = 70 } }`, wantWarn: "claude.nvim: option auto_start must be a boolean, got string; using the default false",
			check: `c.auto_start == false and c.terminal.size == 70`},
		{name: "a bad type nested", opts: `{ terminal = { float = { width = "wide" } } }`, wantWarn: "claude.nvim: option terminal.float.width must be a number, got string; using the default 0.8",
			check: `c.terminal.float.width == 0.8`},
		{name: "a group that is no table", opts: `{ diff = true }`, wantWarn: "claude.nvim: option diff must be a table, got boolean; using its defaults",
			check: `c.diff.layout == "vertical"`},
		{name: "a remote's command lists are lists of strings", opts: `{ remotes = { dev = { exec = { "ssh", "-T", "box" }, terminal = { "ssh", 3 }, map = { ["/r"] = "/tmp" } } } }`,
			wantWarn: "claude.nvim: option remotes dev: terminal must be a list of strings; using the default {}", check: `next(c.remotes) == nil`},
		{name: "a remote's empty list", opts: `{ remotes = { dev = { command = {}, map = { ["/r"] = "/tmp" } } } }`,
			wantWarn: "claude.nvim: option remotes dev: command must be a list of strings; using the default {}", check: `next(c.remotes) == nil`},
		{name: "a bad choice", opts: `{ terminal = { position = "top" } }`, wantWarn: `claude.nvim: option terminal.position must be one of right, left, above, below, tab, float, got "top"; using the default "right"`,
			check: `c.terminal.position == "right"`},
		{name: "the snacks provider", opts: `{ terminal = { provider = "snacks" } }`, check: `c.terminal.provider == "snacks"`},
		{name: "an unknown provider", opts: `{ terminal = { provider = "tmux" } }`,
			wantWarn: `claude.nvim: option terminal.provider must be "native", "snacks", "external" or a function; using the default "native"`,
			check:    `c.terminal.provider == "native"`},
		{name: "a bad value", opts: `{ terminal = { size = 0 } }`, wantWarn: "claude.nvim: option terminal.size must be > 0", check: `c.terminal.size == 0.4`},
		{name: "a bad port range", opts: `{ port_range = { 9010, 9000 } }`, wantWarn: "claude.nvim: option port_range must be { min, max } with 1 <= min <= max <= 65535; using the default nil",
			check: `c.port_range == nil`},
		{name: "an empty command", opts: `{ terminal_cmd = "  " }`, wantWarn: `claude.nvim: option terminal_cmd must name a command; using the default "claude"`,
			check: `c.terminal_cmd == "claude"`},
		{name: "an environment that is no map of strings", opts: `{ env = { FOO = true } }`, wantWarn: "claude.nvim: option env must map names to strings; using the default {}",
			check: `next(c.env) == nil`},
		{name: "not a table", opts: `"right"`, wantWarn: "claude.nvim: setup() takes a table of options, got string; using the defaults",
			check: `c.terminal.position == "right"`},
		{name: "the cli flags", opts: `{ cli = { append_system_prompt = "Be brief.", allowed_tools = { "Read", "Bash(git *)" }, setting_sources = { "user" }, max_turns = 3, max_budget_usd = 0.5, args = { "--add-dir", "../lib", "--model=opus" } } }`,
			check: `c.cli.max_turns == 3 and c.cli.allowed_tools[2] == "Bash(git *)" and c.cli.args[2] == "../lib" and c.cli.fork_session == false`},
		{name: "a flag the CLI no longer takes", opts: `{ cli = { args = { "--mcp-debug" }, max_turns = 2 } }`,
			wantWarn: "claude.nvim: option cli.args refuses the CLI no longer takes --mcp-debug (last taken by 1.0.0 of the versions checked: 1.0.0, 2.1.197, 2.1.332); use --debug; using the default {}",
			check:    `#c.cli.args == 0 and c.cli.max_turns == 2`},
		{name: "a flag claude.nvim does not know", opts: `{ cli = { args = { "--max-turn", "3" } } }`,
			wantWarn: "claude.nvim: option cli.args refuses --max-turn is not a flag claude.nvim knows the CLI takes (checked: 2.1.197, 2.1.332); if yours takes it, put it in terminal_cmd",
			check:    `#c.cli.args == 0`},
		{name: "a flag the plugin passes itself", opts: `{ cli = { args = { "--output-format", "json" } } }`,
			wantWarn: "claude.nvim: option cli.args refuses --output-format: claude.nvim passes it itself to the chat",
			check:    `#c.cli.args == 0`},
		{name: "a flag that has its own option", opts: `{ cli = { args = { "--max-turns", "3" } } }`,
			wantWarn: "claude.nvim: option cli.args refuses --max-turns is set with cli.max_turns", check: `#c.cli.args == 0`},
		{name: "a flag without its value", opts: `{ cli = { args = { "--add-dir" } } }`,
			wantWarn: "claude.nvim: option cli.args gives --add-dir no value", check: `#c.cli.args == 0`},
		{name: "a prompt among the flags", opts: `{ cli = { args = { "--verbose", "fix it" } } }`,
			wantWarn: `claude.nvim: option cli.args takes flags and their values only: "fix it" is neither`, check: `#c.cli.args == 0`},
		{name: "a turn count that is no whole number", opts: `{ cli = { max_turns = 1.5 } }`,
			wantWarn: "claude.nvim: option cli.max_turns must be a whole number >= 1; using the default nil", check: `c.cli.max_turns == nil`},
		{name: "an unknown settings source", opts: `{ cli = { setting_sources = { "user", "global" } } }`,
			wantWarn: `claude.nvim: option cli.setting_sources must be a list of "user", "project" and "local"`, check: `c.cli.setting_sources == nil`},
		{name: "dictation commands", opts: `{ dictation = { record = { "sox", "-d", "{file}" }, transcribe = { "whisper-cli", "-f={file}" } } }`,
			check: `c.dictation.record[3] == "{file}" and c.dictation.transcribe[2] == "-f={file}"`},
		{name: "a dictation command without {file}", opts: `{ dictation = { record = { "arecord" } } }`,
			wantWarn: "claude.nvim: option dictation.record must name the audio file as {file} in one of its arguments; using the default nil",
			check:    `c.dictation.record == nil`},
		{name: "unknown keys warn and are ignored", opts: `{ auto_strat = true, terminal = { positon = "left" }, env = { ANY_NAME = "ok" } }`,
			wantWarn: "claude.nvim: unknown option(s) ignored: auto_strat, terminal.positon",
			check:    `c.auto_start == false and c.terminal.position == "right" and c.env.ANY_NAME == "ok"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got struct {
				Err  string `msgpack:"err"`
				Warn string `msgpack:"warn"`
				OK   bool   `msgpack:"ok"`
			}
			nv.Lua(&got, `
				local opts_src, check_src = ...
				local warned = ""
				local notify = vim.notify
				vim.notify = function(msg) warned = msg end
				local ok, err = pcall(require("claude").setup, assert(loadstring("return " .. opts_src))())
				vim.notify = notify
				local c = require("claude").config()
				local fine = check_src == "" or assert(loadstring("local c = ... return " .. check_src))(c)
				return { err = ok and "" or tostring(err), warn = warned, ok = fine == true }`, tt.opts, tt.check)
			if got.Err != "" {
				t.Errorf("setup(%s) raised %q, want no error", tt.opts, got.Err)
			}
			if tt.wantWarn == "" && got.Warn != "" || !strings.HasPrefix(got.Warn, tt.wantWarn) {
				t.Errorf("setup(%s) warned %q, want %q", tt.opts, got.Warn, tt.wantWarn)
			}
			if !got.OK {
				t.Errorf("setup(%s) left a config where %s is false", tt.opts, tt.check)
			}
		})
	}
}

// setup() twice starts again from the defaults: the second call's table is
// the whole configuration.
func TestSetupTwiceStartsFromTheDefaults(t *testing.T) {
	nv := newNvim(t)
	var got struct {
		Position string `msgpack:"position"`
		Size     any    `msgpack:"size"`
	}
	nv.Lua(&got, `
		require("claude").setup({ terminal = { position = "left", size = 50 } })
		require("claude").setup({ terminal = { size = 60 } })
		local c = require("claude").config()
		return { position = c.terminal.position, size = c.terminal.size }`)
	if got.Position != "right" || got.Size != int64(60) {
		t.Errorf("after setup() twice: position %q, size %v; want the default right and 60", got.Position, got.Size)
	}
}

// A bad option in the user's init.lua costs that option only: setup()
// reports it in one line (no traceback), the option keeps its default, the
// other options take effect and the rest of init.lua still runs.
func TestABadOptionInInitLuaCostsThatOptionOnly(t *testing.T) {
	init := filepath.Join(t.TempDir(), "init.lua")
	if err := os.WriteFile(init, []byte(`
require("claude").setup({ terminal = { position = "top", size = 70 } })
vim.g.after_claude_setup = true
`), 0o600); err != nil {
		t.Fatal(err)
	}
	nv := newNvim(t, nvimtest.WithArgs("-u", init))
	var got struct {
		After    bool   `msgpack:"after"`
		Position string `msgpack:"position"`
		Size     any    `msgpack:"size"`
	}
	nv.Lua(&got, `
		local c = require("claude").config()
		return { after = vim.g.after_claude_setup == true, position = c.terminal.position, size = c.terminal.size }`)
	messages := nv.Messages()
	if !got.After {
		t.Errorf("the line after setup() in init.lua did not run; messages:\n%s", messages)
	}
	if got.Position != "right" || got.Size != int64(70) {
		t.Errorf("config after setup with a bad position: position %q, size %v; want the default right and the given 70", got.Position, got.Size)
	}
	want := `claude.nvim: option terminal.position must be one of right, left, above, below, tab, float, got "top"; using the default "right"`
	if strings.TrimSpace(messages) != want {
		t.Errorf("messages after setup with a bad position:\n%s\nwant the one line:\n%s", messages, want)
	}
}

// Several bad options in one setup() call: every one is seen, not only the last (the message
// area shows one message; issue 36). They come as one message, which the message window
// shows whole.
func TestEveryBadOptionOfOneSetupIsShown(t *testing.T) {
	nv := newNvim(t)
	withUI(t, nv)
	modeAfter(t, nv, `require("claude").setup({ terminal = { position = "top", size = "big" }, log = { level = "loud" }, auto_strat = true })`)
	shown := messageWindow(t, nv)
	for _, want := range []string{"4 bad options in setup()", "terminal.position", "terminal.size", "log.level", "auto_strat"} {
		if !strings.Contains(shown, want) {
			t.Errorf("after setup() with four bad options the message window shows %q, want %q in it", shown, want)
		}
	}
}
