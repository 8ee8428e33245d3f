package plugintest

import (
	"strings"
	"testing"
)

// builtinKeys is Lua that returns the Normal-mode commands of the Neovim it
// runs in, from its own index ($VIMRUNTIME/doc/index.txt, section
// normal-index), plus the maps Neovim itself defines (Y, gcc, grn, [d, …),
// each as keytrans() spells it, with its note ("1": a motion, "2": it
// changes text; "default": one of Neovim's own maps).
const builtinKeys = `
local function spell(chars)
  chars = chars:gsub('^%["x%]', ''):gsub('^N', '')
  chars = chars:gsub("{[^}]*}", ""):gsub("%b[]$", "")
  chars = chars:gsub("CTRL%-(%S)", "<C-%1>")
  if chars == "" then return nil end
  local ok, keys = pcall(vim.keycode, chars)
  return ok and vim.fn.keytrans(keys) or nil
end
local text = table.concat(vim.fn.readfile(vim.env.VIMRUNTIME .. "/doc/index.txt"), "\n")
local normal = assert(text:match("%*normal%-index%*(.-)%*visual%-index%*"), "index.txt has no normal-index")
local out = {}
for line in (normal .. "\n"):gmatch("([^\n]*)\n") do
  local chars, rest = line:match("^|[^|]+|%s+(%S+)%s*(.*)$")
  if not chars then chars, rest = line:match("^\t\t(%S+)%s*(.*)$") end
  if chars and not rest:match("not used") and not rest:match("reserved") then
    local note = rest:match("^(%d)%s") or ""
    local k = spell(chars)
    if k then out[k] = (out[k] or "") .. note end
  end
end
for _, m in ipairs(vim.api.nvim_get_keymap("n")) do
  if not m.lhs:match("^<Plug>") and not (m.desc or ""):match("^[Cc]laude") then
    out[vim.fn.keytrans(vim.keycode(m.lhs))] = "default"
  end
end
return out
`

// keyDefault is one default key of lua/claude/keys.lua's table.
type keyDefault struct {
	Name       string   `msgpack:"name"`
	Area       string   `msgpack:"area"`
	Lhs        string   `msgpack:"lhs"`
	Modes      []string `msgpack:"modes"`
	Same       string   `msgpack:"same"`
	Modifiable bool     `msgpack:"modifiable"`
}

// keyDefaults lists the key table, and the diff review's and changes
// diff's keys (options of their own; set in buffers the user edits), each
// spelt by keytrans() with the default leaders (\).
func keyDefaults(t *testing.T, nv interface {
	Lua(result any, code string, args ...any)
}) []keyDefault {
	t.Helper()
	var out []keyDefault
	nv.Lua(&out, `
		local keys = require("claude.keys")
		local function spell(lhs)
			lhs = lhs:gsub("<[lL]ocal[lL]eader>", "\\"):gsub("<[lL]eader>", "\\")
			return vim.fn.keytrans(vim.keycode(lhs))
		end
		local out = {}
		for name, d in pairs(keys.defaults) do
			table.insert(out, { name = name, area = d[1], lhs = spell(d[2]), modes = d[3], same = d.same or "",
				modifiable = keys.areas[d[1]].modifiable })
		end
		local cfg = require("claude.config").defaults
		for _, g in ipairs({ { "diff", "review" }, { "changes", "changes" } }) do
			for name, lhs in pairs(cfg[g[1]].keymaps) do
				table.insert(out, { name = g[1] .. ".keymaps." .. name, area = g[2], lhs = spell(lhs), modes = { "n" }, same = "", modifiable = true })
			end
		end
		table.sort(out, function(a, b) return a.name < b.name end)
		return out`)
	if len(out) < 30 {
		t.Fatalf("found %d default keys; the key table went missing", len(out))
	}
	return out
}

// No default key takes the place of a Vim command (Neovim's own index of
// Normal-mode commands, of the Neovim under test, and the maps Neovim
// defines) in the buffers where it is set. Two exceptions, each visible
// in the table: a command that changes text, in a buffer that cannot be
// changed (it could not act there), and a key whose entry says, in
// "same", how it keeps the command's meaning.
func TestNoDefaultKeyTakesTheKeyOfAVimCommand(t *testing.T) {
	nv := newNvim(t)
	var builtin map[string]string
	nv.Lua(&builtin, builtinKeys)
	for _, want := range []string{"[[", "ga", "gk", "g?", "q", "<CR>", "d"} {
		if _, ok := builtin[want]; !ok {
			t.Fatalf("the index parsed lacks %s; the parser lost track of index.txt (%d keys)", want, len(builtin))
		}
	}
	for _, k := range keyDefaults(t, nv) {
		if !strings.Contains(strings.Join(k.Modes, ""), "n") {
			continue
		}
		note, taken := builtin[k.Lhs]
		switch {
		case !taken:
		case k.Same != "":
		case !k.Modifiable && strings.Contains(note, "2"):
		default:
			t.Errorf("default key %s (%s, in %s) is a Vim command there (index note %q); choose a free key", k.Lhs, k.Name, k.Area, note)
		}
	}
}

// Every buffer-local map of the plugin goes through the key table
// (lua/claude/keys.lua) or the two key options, so the test above sees it.
func TestEveryDefaultKeyIsInTheKeyTable(t *testing.T) {
	allowed := map[string]bool{
		"lua/claude/keys.lua":         true, // the table's own M.map
		"lua/claude/diff/keys.lua":    true, // diff.keymaps
		"lua/claude/changes/diff.lua": true, // changes.keymaps
	}
	found := 0
	sourceLines(t, "lua", ".lua", func(path string, n int, line string) {
		code, _, _ := strings.Cut(line, "--")
		if strings.Contains(code, "keymap.set(") || strings.Contains(code, "nvim_buf_set_keymap(") {
			found++
			if !allowed[path] {
				t.Errorf("%s:%d sets a key of its own; declare it in lua/claude/keys.lua and map it with keys.map", path, n)
			}
		}
	})
	if found == 0 {
		t.Error("found no keymap.set at all; the pattern lost track of the sources")
	}
}

// setup({ keys = false }) leaves the plugin's buffers without a default
// key; a table turns one area off and leaves the others.
func TestKeysFalseOrAnAreaTurnsTheDefaultsOff(t *testing.T) {
	count := func(setup string) (panel, list int) {
		t.Helper()
		nv := newNvim(t)
		var got []int
		nv.Lua(&got, `
			require("claude").setup(`+setup+`)
			local function ours(buf)
				local n = 0
				for _, m in ipairs(vim.api.nvim_buf_get_keymap(buf, "n")) do
					if (m.desc or ""):match("^[Cc]laude") then n = n + 1 end
				end
				return n
			end
			local p = require("claude.chat.panel").get("rules", vim.fn.getcwd(), {
				{ "panels.remove_rule", "remove", function() end },
			})
			require("claude.changes").show_buffer()
			return { ours(p.buf), ours(vim.api.nvim_get_current_buf()) }`)
		return got[0], got[1]
	}
	if panel, list := count("{}"); panel != 3 || list < 8 {
		t.Errorf("with the defaults: the rules panel has %d keys (want d, q, g?), the changes list %d (want 8)", panel, list)
	}
	if panel, list := count("{ keys = false }"); panel != 0 || list != 0 {
		t.Errorf("keys = false: the rules panel has %d keys, the changes list %d; want none", panel, list)
	}
	if panel, list := count("{ keys = { panels = false } }"); panel != 0 || list < 8 {
		t.Errorf("keys = { panels = false }: the rules panel has %d keys (want 0), the changes list %d (want 8)", panel, list)
	}
}

// With keys = false each default's <Plug> map, bound to a key of the
// user's, does in a buffer of its area what the default key does there,
// and in another buffer says where it acts.
func TestKeysFalseThePlugMapsStillAct(t *testing.T) {
	nv := newNvim(t)
	var got []any
	nv.Lua(&got, `
		require("claude").setup({ keys = false })
		vim.keymap.set("n", "<F5>", "<Plug>(ClaudePanelsRemoveRule)")
		vim.keymap.set("n", "<F6>", "<Plug>(ClaudeChangesListClose)")
		local removed = false
		local p = require("claude.chat.panel").get("rules", vim.fn.getcwd(), {
			{ "panels.remove_rule", "remove", function() removed = true end },
		})
		require("claude.chat.panel").show(p, true)
		vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes("<F5>", true, false, true), "mx", false)
		require("claude.changes").show_buffer()
		local list = vim.api.nvim_get_current_buf()
		vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes("<F6>", true, false, true), "mx", false)
		local closed = not vim.api.nvim_buf_is_valid(list) or vim.fn.bufwinid(list) == -1
		vim.cmd("enew")
		local msg
		local notify = vim.notify
		vim.notify = function(m) msg = m end
		vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes("<F5>", true, false, true), "mx", false)
		vim.notify = notify
		return { removed, closed, msg or "" }`)
	if got[0] != true {
		t.Error("keys = false: <F5> bound to <Plug>(ClaudePanelsRemoveRule) in the rules panel did not remove the rule")
	}
	if got[1] != true {
		t.Error("keys = false: <F6> bound to <Plug>(ClaudeChangesListClose) did not close the changes list")
	}
	if msg, _ := got[2].(string); !strings.Contains(msg, "rules, MCP and usage panels") {
		t.Errorf("<Plug>(ClaudePanelsRemoveRule) in a plain buffer said %q; want where it acts", msg)
	}
}

// plugin/claude.lua defines a <Plug> map for every default (the list it
// keeps so that startup loads no module), in the default's modes.
func TestEveryDefaultHasItsPlugMap(t *testing.T) {
	nv := newNvim(t)
	var missing []string
	nv.Lua(&missing, `
		local k = require("claude.keys")
		local out = {}
		for name, d in pairs(k.defaults) do
			for _, mode in ipairs(d[3]) do
				if vim.fn.maparg("<Plug>(" .. k.plug(name) .. ")", mode) == "" then
					table.insert(out, name .. " (" .. mode .. "): <Plug>(" .. k.plug(name) .. ")")
				end
			end
		end
		return out`)
	for _, m := range missing {
		t.Errorf("no <Plug> map for the default %s", m)
	}
}
