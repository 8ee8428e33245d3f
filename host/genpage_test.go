package host

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The generation page (nvimapi/generation.go) is written by Neovim from
// LuaJIT inside every change, where a fault cannot be caught: a store the
// file behind the page cannot take is a SIGBUS that kills the editor. These
// tests take the file away from under the page and then edit: Neovim must
// live, and the cheap tools must still tell the truth.

// editAndCheck changes a's buffer through the API (a store into the page),
// checks Neovim still answers, and that getOpenEditors counts the new lines.
func (e *env) editAndCheck(t *testing.T, a string, what string) {
	t.Helper()
	if err := e.nv.Command("lua vim.api.nvim_buf_set_lines(vim.fn.bufnr('" + a + "'), 0, -1, false, { '1', '2', '3' })"); err != nil {
		t.Fatalf("%s: an edit after it: %v (Neovim died?)", what, err)
	}
	if err := e.nv.Command("echo 'still here'"); err != nil {
		t.Fatalf("%s: Neovim no longer answers: %v", what, err)
	}
	c := e.connect()
	if tab, _ := tabOf(openTabs(t, c), a); tab.LineCount != 3 {
		t.Errorf("%s: getOpenEditors after the edit says %d lines, want 3", what, tab.LineCount)
	}
}

// mapTheGenerationPage makes the host map its page: a cheap tool call.
func (e *env) mapTheGenerationPage(t *testing.T, a string) {
	t.Helper()
	c := e.connect()
	e.nv.Cmd("edit " + a)
	openTabs(t, c)
	openTabs(t, c)
}

// genMapping finds the page's mapping in this process (the host runs in
// the test binary) as /proc/self/map_files/<range>.
func genMapping(t *testing.T) string {
	t.Helper()
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		t.Skipf("no /proc/self/maps (%v): this test needs Linux's /proc", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); strings.Contains(line, "claude-nvim-gen") {
			return "/proc/self/map_files/" + strings.Fields(line)[0]
		}
	}
	t.Fatal("the host mapped no generation page after two cheap tool calls")
	return ""
}

func TestATruncatedGenerationPageCannotKillNeovim(t *testing.T) {
	e := newEnv(t)
	a := e.nv.WriteFile("a.txt", "a\n")
	e.mapTheGenerationPage(t, a)
	f, err := os.OpenFile(genMapping(t), os.O_RDWR, 0)
	if errors.Is(err, os.ErrPermission) {
		t.Skipf("opening /proc/self/map_files needs CAP_SYS_ADMIN or CAP_CHECKPOINT_RESTORE: %v", err)
	}
	if err != nil {
		t.Fatalf("open the page's file: %v", err)
	}
	defer f.Close()
	if err := f.Truncate(0); err == nil {
		t.Log("the page's file was truncated; Neovim must survive that too")
	} else if !errors.Is(err, syscall.EPERM) {
		t.Errorf("truncate the page's file: %v, want EPERM (sealed) or success", err)
	}
	e.editAndCheck(t, a, "a truncate of the page's file")
}

// A full TMPDIR: a tmpfs of one page, filled. Mounting needs root; the
// test skips without it.
func TestAFullTemporaryDirectoryCannotKillNeovim(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=4k"); err != nil {
		t.Skipf("mount a one-page tmpfs as TMPDIR: %v (needs root)", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	fill := make([]byte, 4096)
	if err := os.WriteFile(filepath.Join(dir, "fill"), fill, 0o600); err != nil && !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("fill the tmpfs: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "more"), []byte("x"), 0o600); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("the tmpfs is not full: a further write gave %v", err)
	}
	e := newEnv(t, nvimtest.Serial()) // t.Setenv below: the process's TMPDIR
	t.Setenv("TMPDIR", dir)           // the host's; the child Neovim has its own
	a := e.nv.WriteFile("a.txt", "a\n")
	e.mapTheGenerationPage(t, a)
	e.editAndCheck(t, a, "a full TMPDIR")
}

// healthLine runs :checkhealth claude and returns its line about the
// cheap tools' cache.
func healthLine(t *testing.T, e *env) string {
	t.Helper()
	e.nv.Cmd("checkhealth claude")
	var lines []string
	e.nv.Lua(&lines, `return vim.api.nvim_buf_get_lines(0, 0, -1, false)`)
	e.nv.Cmd("bwipeout")
	for _, l := range lines {
		if strings.Contains(l, "cheap tools' cache") {
			return strings.TrimSpace(l)
		}
	}
	t.Fatalf(":checkhealth claude has no line about the cheap tools' cache:\n%s", strings.Join(lines, "\n"))
	return ""
}

// CLAUDE_NVIM_TOOL_CACHE=0 turns the generation cache off: every cheap
// tool call asks Neovim, so even a change no event tells of (a rename
// under :noautocmd) shows at once, and :checkhealth says it is off.
func TestTheToolCacheCanBeTurnedOffAndCheckhealthSaysWhetherItIsActive(t *testing.T) {
	for _, tt := range []struct {
		name           string
		env            []string
		before, health string
	}{
		{"on by default", nil, "not in use yet", "cheap tools' cache (generation page): active"},
		{"off with CLAUDE_NVIM_TOOL_CACHE=0", []string{"CLAUDE_NVIM_TOOL_CACHE=0"}, "off (CLAUDE_NVIM_TOOL_CACHE=0)", "cheap tools' cache: off (CLAUDE_NVIM_TOOL_CACHE=0)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, nvimtest.WithEnv(tt.env...))
			a := e.nv.WriteFile("a.txt", "a\n")
			if got := healthLine(t, e); !strings.Contains(got, tt.before) {
				t.Errorf("before any cheap tool call, :checkhealth says %q, want %q", got, tt.before)
			}
			e.mapTheGenerationPage(t, a)
			if got := healthLine(t, e); !strings.Contains(got, tt.health) {
				t.Errorf(":checkhealth says %q, want %q", got, tt.health)
			}
			if tt.env == nil {
				return
			}
			c := e.connect()
			openTabs(t, c)
			renamed := filepath.Join(e.nv.Cwd, "renamed.txt")
			e.nv.Cmd("noautocmd file " + renamed)
			if _, ok := tabOf(openTabs(t, c), renamed); !ok {
				t.Errorf("with the cache off, getOpenEditors right after a rename under :noautocmd = %+v, want %s", openTabs(t, c), renamed)
			}
		})
	}
}
