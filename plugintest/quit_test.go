package plugintest

import (
	"strings"
	"testing"
)

// :qa with Claude working or waiting asks first, as Neovim does for a changed buffer
// (issue 36): it stops with E37 and says why, :qa! would quit; once nothing works or waits,
// :qa quits. The states are pushed as the Go host pushes them (attention.update).
func TestQuitAllWhileClaudeWorksAsksFirst(t *testing.T) {
	nv := newNvim(t)
	push := func(state, kind string) {
		nv.Lua(nil, `require("claude.attention").update({
			{ key = "terminal:1", state = ..., kind = select(2, ...), cwd = "/w", prompt = "", since = 0, conversation = "", wait = 1, mode = "" },
		})`, state, kind)
	}
	push("working", "")
	var err string
	nv.Lua(&err, `local ok, e = pcall(vim.cmd, "qa") return ok and "" or tostring(e)`)
	if !strings.Contains(err, "E37") && !strings.Contains(err, "E162") {
		t.Fatalf(":qa while Claude works: %q, want it stopped (E37 or E162)", err)
	}
	if msgs := nv.Messages(); !strings.Contains(msgs, "Claude is working: :qa! quits anyway") {
		t.Errorf("after :qa while Claude works the messages are %q, want why and :qa!", msgs)
	}
	push("needs_you", "diff")
	nv.Lua(&err, `local ok, e = pcall(vim.cmd, "qa") return ok and "" or tostring(e)`)
	if !strings.Contains(err, "E37") && !strings.Contains(err, "E162") {
		t.Fatalf(":qa while a review waits: %q, want it stopped", err)
	}
	// The host gone, its sessions' states are stale: they keep nobody.
	push("working", "")
	nv.Lua(nil, `vim.api.nvim_exec_autocmds("User", { pattern = "ClaudeHostExit", modeline = false })`)
	var up bool
	nv.Lua(&up, `return require("claude.quit_guard").up()`)
	if up {
		t.Errorf("after ClaudeHostExit the quit guard is still up")
	}
	push("done", "")
	nv.Lua(&up, `return require("claude.quit_guard").up()`)
	if up {
		t.Fatalf("with the turn done the quit guard is still up")
	}
	if cerr := nv.Command("qa"); cerr != nil && strings.Contains(cerr.Error(), "E37") {
		t.Errorf(":qa with the turn done: %v, want Neovim to quit", cerr)
	}
}
