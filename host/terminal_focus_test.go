package host

import (
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// A command that brings the cursor to Claude's terminal leaves it in Normal mode: the keys
// the user types right after it are Neovim's, never sent to the CLI, unless they asked to
// type (:Claude focus insert, terminal.focus_insert). Moving there by hand starts Terminal mode as
// terminal.auto_insert says (issue 36). The CLI is cat: what reaches it comes back.
func TestCommandsThatFocusClaudesTerminalLeaveTheNextKeysToNeovim(t *testing.T) {
	for _, tt := range []struct {
		name  string
		setup string   // options besides the CLI
		cmds  []string // run one by one, as a user would
		typed bool     // whether "jjkk" typed after them reaches the CLI
	}{
		{":ClaudeOpen", "", []string{"ClaudeOpen"}, false},
		{":ClaudeFocus", "", []string{"ClaudeOpen", "wincmd p", "ClaudeFocus"}, false},
		{":ClaudeToggle", "", []string{"ClaudeOpen", "ClaudeToggle", "ClaudeToggle"}, false},
		{":Claude focus insert", "", []string{"ClaudeOpen", "wincmd p", "Claude focus insert"}, true},
		{"focus_insert", "focus_insert = true", []string{"ClaudeOpen", "wincmd p", "ClaudeFocus"}, true},
		{"by hand", "", []string{"ClaudeOpen", "wincmd p", "wincmd p"}, true},
		{"by hand, auto_insert off", "auto_insert = false", []string{"ClaudeOpen", "wincmd p", "wincmd p"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			path := e.nv.WriteFile("notes.txt", "my notes\n")
			e.nv.Cmd("edit " + path)
			e.nv.Lua(nil, `require('claude').setup({ terminal_cmd = { 'sh', '-c', 'exec cat', 'cli' }, permission_mode = false, terminal = { `+tt.setup+` } })`)
			for _, c := range tt.cmds {
				e.nv.Cmd(c)
			}
			var inTerminal bool
			e.nv.Lua(&inTerminal, `return vim.b.claude_terminal == true`)
			if !inTerminal {
				t.Fatalf("after %q the cursor is not in Claude's terminal", tt.cmds)
			}
			// Harmless motions in Normal mode; then i types to the CLI either way (in
			// Terminal mode it is a letter too).
			e.nv.Keys("jjkk")
			e.nv.Keys("ihello<CR>")
			text := func() string {
				var s string
				e.nv.Lua(&s, `return table.concat(vim.api.nvim_buf_get_lines(require('claude.terminal').buf(), 0, -1, false), "\n")`)
				return s
			}
			nvimtest.Wait(t, "the line to come back from the CLI", waitTimeout, func() bool {
				return strings.Count(text(), "hello") == 2
			})
			if got := strings.Contains(text(), "jjkk"); got != tt.typed {
				t.Errorf("after %q, keys typed next reached the CLI: %v, want %v; the terminal:\n%s", tt.cmds, got, tt.typed, text())
			}
		})
	}
}
