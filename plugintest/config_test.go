package plugintest

import (
	"strings"
	"testing"
)

// setup() with each kind of input: what it raises, what it warns about,
// and what configuration it leaves.
func TestSetupChecksAndMergesOptions(t *testing.T) {
	nv := newNvim(t)
	for _, tt := range []struct {
		name, opts string
		wantErr    string // the error setup() raises, or "" for none
		wantWarn   string // the unknown-option warning, or ""
		check      string // Lua returning true when the resolved config is right
	}{
		{name: "{} gives the defaults", opts: `{}`,
			check: `c.terminal.position == "right" and c.terminal.size == 0.4 and c.terminal_cmd == "claude" and c.port_range == nil and c.diff.keymaps.accept == "<leader>aa"`},
		{name: "nil gives the defaults", opts: `nil`, check: `c.auto_start == false and c.log.level == "info"`},
		{name: "nested options merge over the defaults", opts: `{ terminal = { size = 80 }, diff = { keymaps = { reject = false } } }`,
			check: `c.terminal.size == 80 and c.terminal.position == "right" and c.diff.keymaps.reject == false and c.diff.keymaps.accept == "<leader>aa"`},
		{name: "a list replaces the default", opts: `{ terminal_cmd = { "npx", "claude" }, port_range = { 9000, 9010 } }`,
			check: `#c.terminal_cmd == 2 and c.terminal_cmd[2] == "claude" and c.port_range[2] == 9010`},
		{name: "a bad type", opts: `{ auto_start = "yes" }`, wantErr: "claude.nvim: option auto_start must be a boolean, got string"},
		{name: "a bad type nested", opts: `{ terminal = { float = { width = "wide" } } }`, wantErr: "claude.nvim: option terminal.float.width must be a number, got string"},
		{name: "a group that is no table", opts: `{ diff = true }`, wantErr: "claude.nvim: option diff must be a table, got boolean"},
		{name: "a bad choice", opts: `{ terminal = { position = "top" } }`, wantErr: `claude.nvim: option terminal.position must be one of right, left, above, below, tab, float, got "top"`},
		{name: "the snacks provider", opts: `{ terminal = { provider = "snacks" } }`, check: `c.terminal.provider == "snacks"`},
		{name: "an unknown provider", opts: `{ terminal = { provider = "tmux" } }`,
			wantErr: `claude.nvim: option terminal.provider must be "native", "snacks", "external" or a function`},
		{name: "a bad value", opts: `{ terminal = { size = 0 } }`, wantErr: "claude.nvim: option terminal.size must be > 0"},
		{name: "a bad port range", opts: `{ port_range = { 9010, 9000 } }`, wantErr: "claude.nvim: option port_range must be { min, max } with 1 <= min <= max <= 65535"},
		{name: "an empty command", opts: `{ terminal_cmd = "  " }`, wantErr: "claude.nvim: option terminal_cmd must name a command"},
		{name: "an environment that is no map of strings", opts: `{ env = { FOO = true } }`, wantErr: "claude.nvim: option env must map names to strings"},
		{name: "not a table", opts: `"right"`, wantErr: "claude.nvim: setup() takes a table of options, got string"},
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
			if tt.wantErr == "" && got.Err != "" || tt.wantErr != "" && !strings.HasPrefix(got.Err, tt.wantErr) {
				t.Errorf("setup(%s) raised %q, want %q", tt.opts, got.Err, tt.wantErr)
			}
			if got.Warn != tt.wantWarn {
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
