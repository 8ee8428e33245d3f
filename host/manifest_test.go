package host

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
	"github.com/neovim/go-client/nvim/plugin"
)

var update = flag.Bool("update", false, "rewrite rplugin/claude-nvim.vim and lua/claude/host_calls.lua from the handlers")

// The manifest Neovim loads (rplugin/claude-nvim.vim) must declare exactly
// the handlers Register declares; regenerate with
// `go test ./host -run Manifest -update` (or `make manifest`).
func TestManifestIsUpToDate(t *testing.T) {
	p := plugin.New(nil) // manifest mode: no Neovim
	if err := New(Options{}).Register(p); err != nil {
		t.Fatal(err)
	}
	got := p.Manifest("claude-nvim")
	path := filepath.Join(nvimtest.RepoRoot(), "rplugin", "claude-nvim.vim")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("%s is stale; run `go test ./host -run Manifest -update`\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

// lua/claude/host_calls.lua, the list host.lua makes its wrappers from,
// is calls.go's, as Register declares it; regenerate with
// `go test ./host -run LuaCalls -update` (or `make manifest`).
func TestLuaCallsAreUpToDate(t *testing.T) {
	h := New(Options{})
	if err := h.Register(plugin.New(nil)); err != nil {
		t.Fatal(err)
	}
	got := h.LuaCalls()
	path := filepath.Join(nvimtest.RepoRoot(), "lua", "claude", "host_calls.lua")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s is stale; run `go test ./host -run LuaCalls -update`\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

func TestTheLuaSideExpectsThisVersion(t *testing.T) {
	nv := nvimtest.New(t)
	var lua string
	nv.Lua(&lua, `return require('claude').version`)
	if lua != Version {
		t.Errorf("lua/claude/version.lua expects version %q, the Go host is %q: bump both together", lua, Version)
	}
}

// Loading the plugin must cost nothing until it is used: plugin/claude.lua
// defines commands and maps only.
func TestStartupLoadsNoPluginModules(t *testing.T) {
	nv := nvimtest.New(t)
	var loaded []string
	nv.Lua(&loaded, `
		local out = {}
		for name in pairs(package.loaded) do
			if name == 'claude' or name:match('^claude%.') then table.insert(out, name) end
		end
		return out`)
	if len(loaded) != 0 {
		t.Errorf("modules loaded at startup: %v; want none", loaded)
	}
	var hasCmd bool
	nv.Lua(&hasCmd, `return vim.fn.exists(':Claude') == 2 and vim.fn.exists(':ClaudeOpen') == 2`)
	if !hasCmd {
		t.Errorf(":Claude or :ClaudeOpen is not defined after startup")
	}
}
