//go:build unix

package scripts_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/e2e/tmuxterm"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// startDemo runs scripts/demo in tmux with a stand-in CLI (script: its body) and HOME a new
// folder; trusted says whether the CLI's config there trusts the checkout.
func startDemo(t *testing.T, script string, trusted bool) *tmuxterm.Term {
	t.Helper()
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
	stub := "#!/bin/sh\n[ \"$1\" = --version ] && { echo '9.9.9 (stand-in)'; exit 0; }\n" + script
	if err := os.WriteFile(filepath.Join(path, "claude"), []byte(stub), 0o755); err != nil {
		t.Fatal(err)
	}
	sysPath := "/usr/local/bin:/usr/bin:/bin"
	if goBin, err := exec.LookPath("go"); err == nil {
		sysPath = filepath.Dir(goBin) + ":" + sysPath
	}
	home := t.TempDir()
	if trusted {
		config, err := json.Marshal(map[string]any{"projects": map[string]any{root: map[string]any{"hasTrustDialogAccepted": true}}})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(home, ".claude.json"), config, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return tmuxterm.Start(t, tmuxterm.Options{
		Dir: root,
		Env: []string{"PATH=" + path + ":" + sysPath, "HOME=" + home, "TMPDIR=" + t.TempDir(), "NVIM_LOG_FILE=/dev/null"},
	}, filepath.Join(root, "scripts", "demo"))
}

// make demo opens Claude beside the file and leaves the cursor in the file,
// in Normal mode, so the README's way out works as written: typing ":qa!"
// and Enter quits Neovim instead of going to the model as a prompt (issue 28).
// The CLI is a stand-in that echoes what it is sent; the folder is trusted.
func TestTheDemoQuitsWithQaAsTheREADMESays(t *testing.T) {
	term := startDemo(t, "echo 'stand-in claude ready'\nexec cat\n", true)
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

// In a folder the CLI does not trust yet, the CLI's first screen is its trust question:
// the demo puts the cursor there, in Terminal mode, so Enter answers it (issue 36). The
// stand-in asks as the CLI does and says what it read.
func TestTheDemosTrustQuestionIsAnsweredWhereTheCursorIs(t *testing.T) {
	term := startDemo(t, "echo 'Do you trust the files in this folder?'\nread answer\necho \"answered [$answer]\"\nexec cat\n", false)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := term.WaitForText(ctx, "Do you trust the files in this folder?"); err != nil {
		t.Fatalf("the demo did not start Claude's terminal: %v", err)
	}
	if err := term.Send("Enter"); err != nil {
		t.Fatal(err)
	}
	if _, err := term.WaitForText(ctx, "answered []"); err != nil {
		screen, _ := term.Screen()
		t.Fatalf("Enter did not answer the trust question (%v); screen:\n%s", err, screen)
	}
	if _, err := term.WaitForText(ctx, "Claude asks whether to trust this folder"); err != nil {
		t.Errorf("the demo does not say where the question is: %v", err)
	}
}
