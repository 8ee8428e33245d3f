//go:build unix

package scripts_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/e2e/tmuxterm"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// make demo opens Claude beside the file and leaves the cursor in the file,
// in Normal mode, so the README's way out works as written: typing ":qa!"
// and Enter quits Neovim instead of going to the model as a prompt (issue 28).
// The CLI is a stand-in that echoes what it is sent.
func TestTheDemoQuitsWithQaAsTheREADMESays(t *testing.T) {
	nvim := os.Getenv("NVIM")
	if nvim == "" {
		t.Skip("NVIM is not set (make test sets it)")
	}
	root := nvimtest.RepoRoot()
	if _, err := os.Stat(filepath.Join(root, "bin", "claude-nvim")); err != nil {
		t.Skip("bin/claude-nvim is not built (make test builds it)")
	}
	path := t.TempDir()
	// The demo takes the first nvim and claude on PATH.
	if err := os.Symlink(nvim, filepath.Join(path, "nvim")); err != nil {
		t.Fatal(err)
	}
	stub := "#!/bin/sh\n[ \"$1\" = --version ] && { echo '9.9.9 (stand-in)'; exit 0; }\necho 'stand-in claude ready'\nexec cat\n"
	if err := os.WriteFile(filepath.Join(path, "claude"), []byte(stub), 0o755); err != nil {
		t.Fatal(err)
	}
	sysPath := "/usr/local/bin:/usr/bin:/bin"
	if goBin, err := exec.LookPath("go"); err == nil {
		sysPath = filepath.Dir(goBin) + ":" + sysPath
	}
	home := t.TempDir()
	term := tmuxterm.Start(t, tmuxterm.Options{
		Dir: root,
		Env: []string{"PATH=" + path + ":" + sysPath, "HOME=" + home, "TMPDIR=" + t.TempDir(), "NVIM_LOG_FILE=/dev/null"},
	}, filepath.Join(root, "scripts", "demo"))

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := term.WaitForText(ctx, "stand-in claude ready"); err != nil {
		t.Fatalf("the demo did not start Claude's terminal: %v", err)
	}
	if err := term.Type(":qa!"); err != nil {
		t.Fatal(err)
	}
	if err := term.Send("Enter"); err != nil {
		t.Fatal(err)
	}
	for {
		if done, status := term.Exited(); done {
			if status != 0 {
				t.Errorf("the demo exited with status %d; want 0", status)
			}
			return
		}
		select {
		case <-ctx.Done():
			screen, _ := term.Screen()
			t.Fatalf(":qa! did not quit the demo (did the keys go to Claude's terminal?); screen:\n%s", screen)
		case <-time.After(100 * time.Millisecond):
		}
	}
}
