package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// cliVersion is the version CLAUDE_BIN reports ("2.1.332"): the suite runs on the pinned CLI
// and on older supported ones (make e2e CLAUDE_CLI_VERSION=…).
var cliVersion string

// pluginBinary is bin/claude-nvim built from this checkout for this run, so the suite never
// tests a stale build. Empty when CLAUDE_BIN is unset: every test here skips then.
var pluginBinary string

func TestMain(m *testing.M) {
	if name := os.Getenv("ACPTEST_SCENARIO"); name != "" {
		os.Exit(playAgent(name)) // this binary as a scripted ACP agent (chat_acp_dies_test.go)
	}
	os.Exit(run(m))
}

func run(m *testing.M) int {
	if bin := os.Getenv("CLAUDE_BIN"); bin != "" {
		cmd := exec.Command(bin, "--version")
		cmd.Env = append(os.Environ(), "DISABLE_AUTOUPDATER=1")
		out, err := cmd.Output()
		if err != nil {
			fmt.Fprintf(os.Stderr, "e2e: %s --version: %v\n", bin, err)
			return 1
		}
		cliVersion, _, _ = strings.Cut(strings.TrimSpace(string(out)), " ")
		fmt.Fprintf(os.Stderr, "e2e: Claude Code %s (%s)\n", cliVersion, bin)
		dir, err := os.MkdirTemp("", "claude-nvim-e2e")
		if err != nil {
			fmt.Fprintln(os.Stderr, "e2e:", err)
			return 1
		}
		defer os.RemoveAll(dir)
		pluginBinary = filepath.Join(dir, "claude-nvim")
		cmd = exec.Command("go", "build", "-trimpath", "-o", pluginBinary, ".")
		cmd.Dir = nvimtest.RepoRoot()
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0") // as make build does
		if out, err := cmd.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "e2e: go build of the plugin binary: %v\n%s", err, out)
			return 1
		}
	}
	return m.Run()
}
