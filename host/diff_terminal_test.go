package host

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Neovim resizes a terminal to the full editor width when, with that terminal as the current
// window, a buffer no window shows gets an option or a name set. A diff usually opens while
// the user is in Claude's terminal; the CLI must keep drawing for the width of its split.
func TestOpeningADiffFromClaudesTerminalKeepsItsSize(t *testing.T) {
	for _, tt := range []struct{ name, file string }{
		{"for an existing file", "greet.txt"},
		{"for a new file", "new.txt"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := newDiffEnv(t, idleCLI)
			d.nv.Cmd("set columns=200 | ClaudeOpen")
			var pid, width int
			d.nv.Lua(&pid, `return vim.fn.jobpid(vim.b[require('claude.terminal').buf()].terminal_job_id)`)
			d.nv.Lua(&width, `return vim.api.nvim_win_get_width(0)`)
			p := d.openDiff(filepath.Join(filepath.Dir(d.path), tt.file), proposed, tab)
			if got := ptyColumns(t, pid); got != width {
				t.Errorf("with the diff open, the terminal's pty is %d columns wide, want its window's %d", got, width)
			}
			d.nv.Cmd("ClaudeDiffDeny")
			answer(t, p)
		})
	}
}

// ptyColumns reads the width of the terminal pid runs in.
func ptyColumns(t *testing.T, pid int) int {
	t.Helper()
	tty, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/0", pid))
	if err != nil {
		t.Skipf("cannot find the terminal of %d: %v", pid, err)
	}
	out, err := exec.Command("stty", "-F", tty, "size").Output()
	if err != nil {
		t.Skipf("stty -F %s size: %v", tty, err)
	}
	var rows, cols int
	if _, err := fmt.Sscan(strings.TrimSpace(string(out)), &rows, &cols); err != nil {
		t.Fatalf("stty size printed %q", out)
	}
	return cols
}
