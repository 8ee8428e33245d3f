package plugintest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// readmeLazySpec returns the lazy.nvim spec the README shows, as Lua.
func readmeLazySpec(t *testing.T) string {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join(nvimtest.RepoRoot(), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)### lazy\\.nvim\\s*```lua\\n(.*?)```").FindSubmatch(readme)
	if m == nil {
		t.Fatal("README.md has no ```lua block under ### lazy.nvim")
	}
	return string(m[1])
}

// readmeSpecInit does at startup what lazy.nvim does with the README's spec: a spec that
// lazy-loads (lazy = true, or cmd, keys, event or ft without lazy = false) only gets stub commands and stays off
// 'runtimepath'; any other is put on 'runtimepath', its plugin/ files sourced and, with
// opts, require("claude").setup(opts) called. `build` does not run (the test binary is set).
const readmeSpecInit = `
local root = vim.env.CLAUDE_TEST_ROOT
vim.opt.runtimepath:remove(root)
local spec = assert(loadstring("return " .. vim.env.CLAUDE_TEST_SPEC))()
_G.spec_lazy = spec.lazy == true
  or (spec.lazy == nil and (spec.cmd ~= nil or spec.keys ~= nil or spec.event ~= nil or spec.ft ~= nil))
if not _G.spec_lazy then
  vim.opt.runtimepath:prepend(root)
  for _, file in ipairs(vim.fn.glob(root .. "/plugin/**/*.{lua,vim}", false, true)) do
    vim.cmd.source(vim.fn.fnameescape(file))
  end
  if spec.opts then
    require("claude").setup(spec.opts)
  end
end
`

// :checkhealth claude must answer before any :Claude command ran (lazy.nvim keeps a
// plugin it lazy-loads off 'runtimepath', where Neovim looks for health checks), and the
// README's spec must not make startup load more than the plugin file and setup().
func TestTheREADMEsLazySpecHasAHealthCheckBeforeAnyCommand(t *testing.T) {
	init := filepath.Join(t.TempDir(), "spec-init.lua")
	if err := os.WriteFile(init, []byte(readmeSpecInit), 0o644); err != nil {
		t.Fatal(err)
	}
	nv := newNvim(t,
		nvimtest.WithEnv("CLAUDE_TEST_ROOT="+nvimtest.RepoRoot(), "CLAUDE_TEST_SPEC="+readmeLazySpec(t)),
		nvimtest.WithArgs("--cmd", "luafile "+init))
	before := loaded(t, nv)
	for _, m := range before.Modules {
		if m != "claude" && m != "claude.config" {
			t.Errorf("at startup the README's spec loaded %s; want no more than claude and claude.config (setup)", m)
		}
	}
	if before.Autocmds > 0 {
		t.Errorf("at startup the README's spec set up %d CursorMoved autocmds; the host must wait for a command", before.Autocmds)
	}
	reports, text := checkhealth(t, nv)
	if strings.Contains(text, "No healthcheck found") {
		t.Fatalf(":checkhealth claude before any command:\n%s", text)
	}
	expect(t, reports, text, "OK", "setup() was called")
}
