package plugintest

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The file explorers :Claude add reads, each the real plugin at the commit
// scripts/install-trees pins. They are not in `make deps`: without them
// these tests skip and say how to get them.

// explorerEnv is a child Neovim with some plugins on 'runtimepath' and a
// directory for a tree to show: tree/{gamma/delta.txt, alpha.txt, beta.txt}.
// :Claude add's sending is replaced by a recorder, so the tests see which
// paths the command would mention without a Claude to mention them to.
type explorerEnv struct {
	nv  *nvimtest.Nvim
	dir string
}

func newExplorerEnv(t *testing.T, plugins ...string) *explorerEnv {
	t.Helper()
	nv := nvimtest.New(t, nvimtest.WithPlugins(t, plugins...))
	nv.WriteFile("tree/alpha.txt", "a\n")
	nv.WriteFile("tree/beta.txt", "b\n")
	nv.WriteFile("tree/gamma/delta.txt", "d\n")
	nv.Lua(nil, `
		_G.claude_sent = {}
		require('claude.mention').send_path = function(path)
			table.insert(_G.claude_sent, (path:gsub('/$', '')))
			return true
		end`)
	return &explorerEnv{nv: nv, dir: filepath.Join(nv.Cwd, "tree")}
}

// lines waits until the current buffer has filetype ft and shows each of
// names, and returns the line each is first on.
func (e *explorerEnv) lines(t *testing.T, ft string, names ...string) map[string]int {
	t.Helper()
	var got map[string]any
	find := func() bool {
		e.nv.Lua(&got, `
			local ft, names = ...
			local buf = vim.api.nvim_get_current_buf()
			if vim.bo[buf].filetype ~= ft then
				return { filetype = vim.bo[buf].filetype }
			end
			local out = vim.empty_dict()
			for i, l in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
				for _, n in ipairs(names) do
					if out[n] == nil and l:find(n, 1, true) then
						out[n] = i
					end
				end
			end
			return out
		`, ft, names)
		for _, n := range names {
			if got[n] == nil {
				return false
			}
		}
		return true
	}
	timeout := waitTimeout
	deadline := time.Now().Add(timeout)
	for !find() {
		if time.Now().After(deadline) {
			t.Fatalf("the %s buffer did not show %q within %v; current buffer: %v\n%s", ft, names, timeout, got, e.nv.Messages())
		}
		time.Sleep(10 * time.Millisecond)
	}
	out := map[string]int{}
	for _, n := range names {
		out[n] = nvimtest.Int(got[n])
	}
	return out
}

// add runs :Claude add with the cursor on line (or, with to > 0, on a Visual
// selection of lines line..to) and returns the paths it sent, in order.
func (e *explorerEnv) add(t *testing.T, line, to int) []string {
	t.Helper()
	e.nv.Lua(nil, `_G.claude_sent = {}; vim.api.nvim_win_set_cursor(0, { ..., 0 })`, line)
	if to > 0 {
		// The cursor moves by API, not by keys: trees map G, j and counts.
		e.nv.Keys("V")
		e.nv.Lua(nil, `vim.api.nvim_win_set_cursor(0, { ..., 0 })`, to)
		e.nv.Keys(":Claude add<CR>")
	} else {
		e.nv.Cmd("ClaudeAdd")
	}
	var sent []string
	e.nv.Lua(&sent, `return _G.claude_sent`)
	return sent
}

func (e *explorerEnv) paths(names ...string) []string {
	var out []string
	for _, n := range names {
		out = append(out, filepath.Join(e.dir, n))
	}
	return out
}

// check runs :Claude add on alpha.txt's line, then on a Visual selection
// from the gamma directory's line to beta.txt's, in the tree the current
// buffer shows.
func (e *explorerEnv) check(t *testing.T, tree string, at map[string]int) {
	t.Helper()
	if got, want := e.add(t, at["alpha.txt"], 0), e.paths("alpha.txt"); !slices.Equal(got, want) {
		t.Errorf(":Claude add on alpha.txt in %s sent %q, want %q\n%s", tree, got, want, e.nv.Messages())
	}
	lo, hi := min(at["gamma"], at["beta.txt"]), max(at["gamma"], at["beta.txt"])
	got := e.add(t, lo, hi)
	slices.Sort(got)
	if want := e.paths("alpha.txt", "beta.txt", "gamma"); !slices.Equal(got, want) {
		t.Errorf("Visual :Claude add on lines %d-%d in %s sent %q, want %q\n%s", lo, hi, tree, got, want, e.nv.Messages())
	}
}

func TestExplorerOilAddsTheEntriesOnTheLines(t *testing.T) {
	e := newExplorerEnv(t, "oil.nvim")
	e.nv.Lua(nil, `require('oil').setup({}); require('oil').open(...)`, e.dir)
	at := e.lines(t, "oil", "alpha.txt", "beta.txt", "gamma")
	e.check(t, "oil", at)

	// A line typed but not saved names nothing on disk yet.
	e.nv.Lua(nil, `vim.api.nvim_buf_set_lines(0, -1, -1, false, { 'new.txt' })`)
	var msg string
	e.nv.Lua(&msg, `
		local paths, err = require('claude.explorer').paths(0, vim.fn.line('$'), vim.fn.line('$'))
		return err or vim.inspect(paths)`)
	if !strings.Contains(msg, "new.txt is not saved yet") {
		t.Errorf(":Claude add on an unsaved oil line said %q, want that it is not saved yet", msg)
	}
}

func TestExplorerMiniFilesAddsTheEntriesOnTheLines(t *testing.T) {
	e := newExplorerEnv(t, "mini.files")
	e.nv.Lua(nil, `require('mini.files').setup({}); MiniFiles.open(...)`, e.dir)
	at := e.lines(t, "minifiles", "alpha.txt", "beta.txt", "gamma")
	e.check(t, "mini.files", at)
}

func TestExplorerNvimTreeAddsTheEntriesOnTheLinesOrTheMarked(t *testing.T) {
	e := newExplorerEnv(t, "nvim-tree.lua")
	e.nv.Lua(nil, `
		require('nvim-tree').setup({})
		require('nvim-tree.api').tree.open({ path = ... })`, e.dir)
	at := e.lines(t, "NvimTree", "alpha.txt", "beta.txt", "gamma")
	e.check(t, "nvim-tree", at)

	// Marked (its m key): the marks, wherever the cursor is.
	for _, n := range []string{"alpha.txt", "gamma"} {
		e.nv.Lua(nil, `vim.api.nvim_win_set_cursor(0, { ..., 0 })`, at[n])
		e.nv.Keys("m")
	}
	got := e.add(t, at["beta.txt"], 0)
	slices.Sort(got)
	if want := e.paths("alpha.txt", "gamma"); !slices.Equal(got, want) {
		t.Errorf(":Claude add on beta.txt with alpha.txt and gamma marked in nvim-tree sent %q, want the marked %q", got, want)
	}
}

func TestExplorerNeoTreeAddsTheEntriesOnTheLines(t *testing.T) {
	e := newExplorerEnv(t, "plenary.nvim", "nui.nvim", "neo-tree.nvim")
	e.nv.Lua(nil, `
		require('neo-tree').setup({})
		require('neo-tree.command').execute({ dir = ..., position = 'left' })`, e.dir)
	at := e.lines(t, "neo-tree", "alpha.txt", "beta.txt", "gamma")
	e.check(t, "neo-tree", at)
}

func TestExplorerSnacksAddsTheEntriesOnTheLinesOrTheSelected(t *testing.T) {
	e := newExplorerEnv(t, "snacks.nvim")
	e.nv.Lua(nil, `
		require('snacks').setup({ explorer = { enabled = true }, picker = { enabled = true } })
		Snacks.explorer({ cwd = ... })`, e.dir)
	at := e.lines(t, "snacks_picker_list", "alpha.txt", "beta.txt", "gamma")
	e.check(t, "the snacks explorer", at)

	// Selected (its Tab key): the selection, wherever the cursor is.
	for _, n := range []string{"alpha.txt", "gamma"} {
		e.nv.Lua(nil, `vim.api.nvim_win_set_cursor(0, { ..., 0 })`, at[n])
		e.nv.Keys("<Tab>")
	}
	got := e.add(t, at["beta.txt"], 0)
	slices.Sort(got)
	if want := e.paths("alpha.txt", "gamma"); !slices.Equal(got, want) {
		t.Errorf(":Claude add on beta.txt with alpha.txt and gamma selected in the snacks explorer sent %q, want the selected %q", got, want)
	}
}
