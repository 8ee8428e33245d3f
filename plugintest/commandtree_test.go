package plugintest

import (
	"slices"
	"sort"
	"strings"
	"testing"
)

// oldCommand is one of the :Claude* commands from before :Claude {sub}:
// typed as line, it must still call module.fn with args (JSON, trailing
// nils dropped), and so must the new form.
type oldCommand struct {
	line, now  string
	module, fn string
	args       string
}

// What each old command called before the command tree (plugin/claude.lua
// at 7ea71e0), and the :Claude {sub} that does the same now.
var oldCommands = []oldCommand{
	{"ClaudeOpen --resume 'a b'", "Claude open --resume 'a b'", "claude", "open", `[["--resume","a b"]]`},
	{"ClaudeToggle --continue", "Claude toggle --continue", "claude", "toggle", `[["--continue"]]`},
	{"ClaudeFocus", "Claude focus", "claude", "focus", `[]`},
	{"ClaudeClose", "Claude close", "claude", "close", `[]`},
	{"ClaudeSessions next", "Claude sessions next", "claude", "sessions", `["next"]`},
	{"2,3ClaudeSend", "2,3Claude send", "claude", "send", `[2,3]`},
	{"ClaudeSend", "Claude send", "claude", "send", `[]`},
	{"ClaudeSend @qf", "Claude send @qf", "claude.mention", "send_context", `["@qf"]`},
	{"1,2ClaudeAsk why so slow", "1,2Claude ask why so slow", "claude.prompt", "ask", `[0,1,2,"why so slow"]`},
	{"ClaudeSendText hello there", "Claude type hello there", "claude.prompt", "send_text", `["hello there"]`},
	{"ClaudeAdd src/main.go 1 2", "Claude add src/main.go 1 2", "claude", "add", `["src/main.go",1,2]`},
	{"ClaudeAdd %", "Claude add %", "claude", "add", `["src/main.go"]`},
	{"ClaudeAdd @diag", "Claude add @diag", "claude.mention", "send_context", `["@diag"]`},
	{"ClaudeStart", "Claude server start", "claude", "start", `[]`},
	{"ClaudeStop", "Claude server stop", "claude", "stop", `[]`},
	{"ClaudeStatus", "Claude status", "claude.commands", "status", `[]`},
	{"ClaudeRemote box", "Claude remote connect box", "claude.remote", "connect", `["box"]`},
	{"ClaudeRemote! box", "Claude remote disconnect box", "claude.remote", "stop", `["box"]`},
	{"ClaudeDiffAccept", "Claude review accept", "claude.diff", "decide_current", `["accept"]`},
	{"ClaudeDiffReject", "Claude review reject", "claude.diff", "decide_current", `["reject"]`},
	{"ClaudeDiffDeny", "Claude review reject", "claude.diff", "decide_current", `["reject"]`},
	{"ClaudeDiffTakeBack not this", "Claude review take-back not this", "claude.diff", "decide_current", `["take_back","not this"]`},
	{"ClaudeDiffKeep", "Claude review keep", "claude.diff", "decide_current", `["keep"]`},
	{"ClaudeDiffFocus", "Claude review focus", "claude.diff", "focus", `[]`},
	{"ClaudeChanges qf", "Claude changes qf", "claude.commands", "changes", `["qf"]`},
	{"ClaudeDictate stop", "Claude dictate stop", "claude.dictate", "command", `["stop"]`},
	{"ClaudeLog", "Claude log", "claude.commands", "log", `[]`},
	{"ClaudeModel", "Claude model", "claude.chat.models", "pick", `[]`},
	{"ClaudeChat", "Claude chat", "claude.chat.conversations", "command", `[""]`},
	{"ClaudeChat new", "Claude chat new", "claude.chat.conversations", "command", `["new"]`},
	{"ClaudeChat last", "Claude chat last", "claude.chat.conversations", "command", `["last"]`},
	{"ClaudeChat resume fix the bug", "Claude chat resume fix the bug", "claude.chat.history", "open", `[null,"fix the bug"]`},
	{"ClaudeChatAttach shot.png", "Claude chat attach shot.png", "claude.chat", "attach", `["shot.png"]`},
	{"ClaudeChatInterrupt", "Claude chat interrupt", "claude.chat", "interrupt", `[]`},
	{"ClaudeChatStopAgent", "Claude chat cancel-agent", "claude.chat", "stop_agent", `[]`},
	{"ClaudeChatTasks", "Claude chat tasks", "claude.chat", "toggle_tasks", `[]`},
	{"ClaudeChatUnqueue", "Claude chat unqueue", "claude.chat", "unqueue", `[]`},
	{"ClaudeChatStop", "Claude chat end", "claude.chat", "stop", `[]`},
	{"ClaudeChatRewind code", "Claude chat rewind code", "claude.chat.rewind", "command", `["code"]`},
	{"ClaudeChatAnswer allow", "Claude chat answer allow", "claude.chat", "answer", `["allow"]`},
	{"ClaudeChatTrust no", "Claude chat trust no", "claude.chat", "trust", `["no"]`},
	{"ClaudeChatMode plan", "Claude mode plan", "claude.chat", "set_mode", `["plan"]`},
	{"ClaudeChatRules", "Claude chat rules", "claude.chat.rules", "open", `[]`},
	{"ClaudeChatUsage", "Claude chat usage", "claude.chat.usage", "open", `[]`},
	{"ClaudeChatMcp", "Claude chat mcp", "claude.chat.mcp", "open", `[]`},
	{"ClaudeChatBackground", "Claude chat background", "claude.chat.background", "send", `[]`},
	{"ClaudeChatEffort high", "Claude effort high", "claude.chat.effort", "set", `["high"]`},
}

// calls runs line with module.fn replaced by a recorder and returns the
// arguments of each call, as JSON (nil as null, trailing nils dropped;
// 0.10 escapes / as \/, 0.12 does not).
func calls(t *testing.T, nv interface {
	Lua(result any, code string, args ...any)
}, line, module, fn string) string {
	t.Helper()
	var got string
	nv.Lua(&got, `
		local line, module, fn = ...
		local m = require(module)
		local real, seen = m[fn], {}
		m[fn] = function(...)
			local n, args = select("#", ...), { ... }
			while n > 0 and args[n] == nil do n = n - 1 end
			local out = {}
			for i = 1, n do out[i] = args[i] == nil and vim.NIL or args[i] end
			table.insert(seen, out)
		end
		local ok, err = pcall(vim.cmd, line)
		m[fn] = real
		if not ok then return "error: " .. tostring(err) end
		local parts = {}
		for _, c in ipairs(seen) do table.insert(parts, #c == 0 and "[]" or (vim.json.encode(c):gsub("\\/", "/"))) end
		return table.concat(parts, " ")`, line, module, fn)
	return got
}

func TestEveryOldCommandStillDoesWhatItDidAndSoDoesItsNewForm(t *testing.T) {
	nv := newNvim(t)
	nv.WriteFile("src/main.go", "package main\n\nfunc main() {\n}\n")
	nv.Cmd("edit src/main.go")
	covered := map[string]bool{}
	for _, c := range oldCommands {
		name := strings.TrimLeft(c.line, "0123456789,")
		name, _, _ = strings.Cut(name, " ")
		covered[strings.TrimSuffix(name, "!")] = true
		for _, line := range []string{c.line, c.now} {
			if got := calls(t, nv, line, c.module, c.fn); got != c.args {
				t.Errorf(":%s called %s.%s with %s, want %s", line, c.module, c.fn, got, c.args)
			}
		}
	}
	var commands []string
	nv.Lua(&commands, `return vim.tbl_keys(vim.api.nvim_get_commands({ builtin = false }))`)
	sort.Strings(commands)
	for _, name := range commands {
		if strings.HasPrefix(name, "Claude") && name != "Claude" && !covered[name] {
			t.Errorf(":%s is not walked by this test: add what it does to oldCommands", name)
		}
	}
}

// complete returns what <Tab> offers for line in nv's command line.
func complete(t *testing.T, nv interface {
	Lua(result any, code string, args ...any)
}, line string) []string {
	t.Helper()
	var got []string
	nv.Lua(&got, `return vim.fn.getcompletion(..., 'cmdline')`, line)
	return got
}

// Every level of the tree completes its subcommands, found by walking the
// tree itself, so a subcommand added later is checked too.
func TestEveryLevelOfTheCommandTreeCompletesItsSubcommands(t *testing.T) {
	nv := newNvim(t)
	var levels map[string][]string
	nv.Lua(&levels, `
		local out = {}
		local function walk(node, path)
			if node.subs then
				local names = {}
				for _, s in ipairs(node.subs) do
					table.insert(names, s[1])
					walk(s[2], path .. s[1] .. " ")
				end
				out[path] = names
			end
		end
		walk(require("claude.cmdtree").root, "Claude ")
		walk(require("claude.cmdtree").chat, "ClaudeChat ")
		return out`)
	if len(levels) < 5 {
		t.Fatalf("the tree has %d levels with subcommands (%v); want :Claude, chat, review, server, remote at least", len(levels), levels)
	}
	for line, want := range levels {
		got := complete(t, nv, line)
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf(":%s<Tab> = %q, lacks %s", line, got, w)
			}
		}
		// And the first letters narrow the list to the names that start with them.
		lead := want[len(want)-1][:2]
		for _, g := range complete(t, nv, line+lead) {
			if !strings.HasPrefix(g, lead) {
				t.Errorf(":%s%s<Tab> offers %s", line, lead, g)
			}
		}
	}
}

// Each subcommand's arguments complete, after a range and from the old
// names as well.
func TestTheSubcommandsArgumentsComplete(t *testing.T) {
	nv := newNvim(t)
	nv.Lua(nil, `require("claude").setup({ remotes = { box = { command = { "true" }, map = { ["/r"] = "/tmp" } } } })`)
	nv.WriteFile("src/main.go", "package main\n")
	for _, c := range []struct {
		line string
		want []string
	}{
		{"Claude open --re", []string{"--resume"}},
		{"Claude toggle --c", []string{"--continue"}},
		{"Claude open --resume --c", []string{"--continue"}},
		{"Claude add sr", []string{"src/"}},
		{"Claude add src/m", []string{"src/main.go"}},
		{"'<,'>Claude send @q", []string{"@qf"}},
		{"3Claude se", []string{"send", "sessions", "server"}},
		{"Claude sessions ", []string{"next", "restore", "restore-from"}},
		{"Claude sessions next ", nil},
		{"Claude changes u", []string{"uncommitted"}},
		{"Claude dictate ", []string{"stop", "cancel"}},
		{"Claude mode p", []string{"plan"}},
		{"Claude chat mode by", []string{"bypassPermissions"}},
		{"Claude effort x", []string{"xhigh"}},
		{"Claude chat effort ", []string{"low", "medium", "high", "xhigh", "max", "default"}},
		{"Claude chat rewind ", []string{"both", "conversation", "code", "fork", "edit"}},
		{"Claude chat answer ", []string{"allow", "deny"}},
		{"Claude chat trust ", []string{"yes", "no"}},
		{"Claude chat attach src/m", []string{"src/main.go"}},
		{"Claude remote connect ", []string{"box"}},
		{"Claude open rem", []string{"remote=box"}},
		{"Claude remote disconnect b", []string{"box"}},
		{"Claude review t", []string{"take-back"}},
		{"Claude server st", []string{"start", "stop"}},
		{"ClaudeChat rew", []string{"rewind"}},
		{"ClaudeChat mode ", []string{"default", "acceptEdits", "plan", "auto", "dontAsk", "bypassPermissions", "manual", "next"}},
		{"ClaudeOpen --re", []string{"--resume"}},
		{"ClaudeRemote ", []string{"box"}},
		{"ClaudeChatRewind f", []string{"fork"}},
		{"ClaudeSessions r", []string{"restore", "restore-from"}},
		{"ClaudeAdd sr", []string{"src/"}},
	} {
		if got := complete(t, nv, c.line); !slices.Equal(got, c.want) {
			t.Errorf(":%s<Tab> = %q, want %q", c.line, got, c.want)
		}
	}
}

// A subcommand the tree lacks, or a missing one, is an error naming what
// there is; nothing runs.
func TestAnUnknownSubcommandSaysWhatThereIs(t *testing.T) {
	nv := newNvim(t)
	nv.WriteFile("notes.txt", "one\ntwo\nthree\n")
	nv.Cmd("edit notes.txt")
	for _, c := range []struct{ line, want string }{
		{"Claude bogus", ":Claude has no subcommand bogus; it takes one of: open, toggle"},
		{"Claude review", ":Claude review needs a subcommand; it takes one of: accept, reject, keep, take-back, focus"},
		{"Claude server restart", ":Claude server has no subcommand restart; it takes one of: start, stop"},
		{"3Claude log", ":Claude log takes no range"},
	} {
		nv.Cmd("messages clear")
		nv.Cmd(c.line)
		if got := nv.Messages(); !strings.Contains(got, c.want) {
			t.Errorf(":%s said %q, want it to say %q", c.line, got, c.want)
		}
	}
}
