package host

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
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
	e := newEnv(t)
	t.Setenv("TMPDIR", dir) // the host's; the child Neovim has its own
	a := e.nv.WriteFile("a.txt", "a\n")
	e.mapTheGenerationPage(t, a)
	e.editAndCheck(t, a, "a full TMPDIR")
}
