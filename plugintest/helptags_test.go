package plugintest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// :help claude works right after a manual install (issue 36): make build runs the helptags
// target, which writes doc/tags. Run in a copy of the Makefile and the help file, with the
// Neovim under test as the one on PATH, then :help claude with only that copy on the
// runtimepath.
func TestMakeBuildWritesTheHelpTags(t *testing.T) {
	nvim := os.Getenv("NVIM")
	if nvim == "" {
		t.Skip("NVIM is not set")
	}
	if !strings.Contains(readRepoFile(t, "Makefile"), "\nbuild: helptags ") {
		t.Errorf("make build does not run the helptags target")
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "doc"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"Makefile", "doc/claude.txt"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(readRepoFile(t, f)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	bin := t.TempDir()
	if err := os.Symlink(nvim, filepath.Join(bin, "nvim")); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("make", "-s", "helptags")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make helptags: %v\n%s", err, out)
	}
	nv := nvimtest.New(t)
	var got string
	nv.Lua(&got, `
		vim.opt.runtimepath:prepend(...)
		local ok, err = pcall(vim.cmd.help, "claude")
		if not ok then return tostring(err) end
		return vim.api.nvim_buf_get_name(0)`, dir)
	if want := filepath.Join(dir, "doc", "claude.txt"); got != want {
		t.Errorf(":help claude after make helptags gave %q, want %s", got, want)
	}
}

func readRepoFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(nvimtest.RepoRoot(), name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
