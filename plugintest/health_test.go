package plugintest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// report is one line of the :checkhealth buffer: "- OK …" (0.10) or
// "- ✅ OK …" (0.11+).
type report struct {
	Level string // OK, WARNING, ERROR
	Text  string
}

var reportLine = regexp.MustCompile(`^- (?:\S+ )?(OK|WARNING|ERROR) (.+)$`)

// checkhealth runs :checkhealth claude and returns its reports and the
// whole buffer (for failure messages).
func checkhealth(t *testing.T, nv *nvimtest.Nvim) ([]report, string) {
	t.Helper()
	nv.Cmd("checkhealth claude")
	var lines []string
	nv.Lua(&lines, `return vim.api.nvim_buf_get_lines(0, 0, -1, false)`)
	var out []report
	for _, l := range lines {
		if m := reportLine.FindStringSubmatch(l); m != nil {
			out = append(out, report{m[1], m[2]})
		}
	}
	text := strings.Join(lines, "\n")
	if len(out) == 0 {
		t.Fatalf(":checkhealth claude reported nothing:\n%s", text)
	}
	return out, text
}

// expect fails unless some report of level contains every fragment.
func expect(t *testing.T, reports []report, text, level string, fragments ...string) {
	t.Helper()
	for _, r := range reports {
		if r.Level != level {
			continue
		}
		ok := true
		for _, f := range fragments {
			ok = ok && strings.Contains(r.Text, f)
		}
		if ok {
			return
		}
	}
	t.Errorf("no %s line containing %q in:\n%s", level, fragments, text)
}

func TestCheckhealthOnAHealthySetupReportsOnlyOK(t *testing.T) {
	nv := newNvim(t)
	cli, _ := nvimtest.StandInCLI(t, t.TempDir())
	nv.Lua(nil, `require('claude').setup({ terminal_cmd = { ... } })`, cli)
	nv.Cmd("ClaudeStart")
	c := connect(t, nv)
	defer c.Close()
	s := status(t, nv)

	reports, text := checkhealth(t, nv)
	for _, r := range reports {
		if r.Level != "OK" {
			t.Errorf("healthy setup: %s %s", r.Level, r.Text)
		}
	}
	lockDir := filepath.Join(nv.Dir, "claude", "ide")
	expect(t, reports, text, "OK", "Neovim "+nv.Version)
	expect(t, reports, text, "OK", "setup() was called")
	expect(t, reports, text, "OK", binary, "version 0.1.0 (matches the plugin)")
	expect(t, reports, text, "OK", cli+": 2.1.197 (Claude Code)")
	expect(t, reports, text, "OK", lockDir+" has mode 700 and is writable")
	expect(t, reports, text, "OK", "this Neovim's lock file: "+s.Lockfile)
	expect(t, reports, text, "OK", "listening on 127.0.0.1:")
	expect(t, reports, text, "OK", "connected: mcptest 1")
	expect(t, reports, text, "OK", "no proxy variables set")
	if t.Failed() || testing.Verbose() {
		t.Logf("the report:\n%s", text)
	}
}

func TestCheckhealthOnABrokenSetupSaysWhatToRun(t *testing.T) {
	root := t.TempDir()
	// A lock directory others can read, with a lock file others can read.
	lockDir := filepath.Join(root, "claude-config", "ide")
	if err := os.MkdirAll(lockDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(lockDir, 0o755); err != nil {
		t.Fatal(err)
	}
	leaky := filepath.Join(lockDir, "40000.lock")
	if err := os.WriteFile(leaky, []byte(`{"pid":0,"authToken":"x"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(leaky, 0o644); err != nil {
		t.Fatal(err)
	}
	emptyPath := filepath.Join(root, "bin")
	if err := os.MkdirAll(emptyPath, 0o755); err != nil {
		t.Fatal(err)
	}
	nv := nvimtest.New(t, nvimtest.WithEnv(
		"CLAUDE_CONFIG_DIR="+filepath.Dir(lockDir),
		"PATH="+emptyPath, // no `claude`
		"http_proxy=http://proxy.invalid:3128",
		"NO_PROXY=corp.example",
	))
	missing := filepath.Join(root, "nowhere", "claude-nvim")
	nv.Lua(nil, `vim.g.claude_nvim_binary = ...`, missing)
	// No setup() call.

	reports, text := checkhealth(t, nv)
	if testing.Verbose() {
		t.Logf("the report:\n%s", text)
	}
	expect(t, reports, text, "WARNING", "setup() was not called")
	expect(t, reports, text, "ERROR", "binary not found: "+missing+" (from vim.g.claude_nvim_binary)")
	expect(t, reports, text, "ERROR", "`claude` (terminal_cmd) is not an executable on $PATH")
	expect(t, reports, text, "ERROR", lockDir+" has mode 755, want 700")
	expect(t, reports, text, "ERROR", "lock file "+leaky+" has mode 644, want 600")
	expect(t, reports, text, "WARNING", "http_proxy set, but 127.0.0.1 is not in NO_PROXY")
	for _, fix := range []string{
		"run `" + nvimtest.RepoRoot() + "/scripts/install-binary` (downloads the release binary; no Go needed)",
		":Lazy build claude.nvim",
		"npm install -g @anthropic-ai/claude-code",
		"run `chmod 700 " + lockDir + "`",
		"run `chmod 600 " + leaky + "`",
		`export NO_PROXY="${NO_PROXY:+$NO_PROXY,}127.0.0.1,localhost,::1"`,
		"require('claude').setup({})",
	} {
		if !strings.Contains(text, fix) {
			t.Errorf("the report does not say %q:\n%s", fix, text)
		}
	}

	// Checking must not start anything.
	var running bool
	nv.Lua(&running, `return require('claude.host').running()`)
	if running {
		t.Errorf(":checkhealth started the Go host")
	}
}

func TestCheckhealthRefusesABinaryOfAnotherVersion(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, "claude-nvim")
	if err := os.WriteFile(stale, []byte("#!/bin/sh\necho 0.0.1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	notExec := filepath.Join(dir, "claude-nvim-noexec")
	if err := os.WriteFile(notExec, []byte("#!/bin/sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, bin string
		want      []string
	}{
		{"a stale build", stale, []string{stale + " is version 0.0.1 but the plugin is 0.1.0"}},
		{"a file without the x bit", notExec, []string{"not an executable file: " + notExec}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nv := nvimtest.New(t)
			nv.Lua(nil, `vim.g.claude_nvim_binary = ...; require('claude').setup({})`, tc.bin)
			reports, text := checkhealth(t, nv)
			expect(t, reports, text, "ERROR", tc.want...)
		})
	}
}

// With a proxy set and NO_PROXY covering loopback there is nothing to fix.
func TestCheckhealthAcceptsAProxyThatSparesLoopback(t *testing.T) {
	nv := nvimtest.New(t, nvimtest.WithEnv("HTTPS_PROXY=http://proxy.invalid:3128", "NO_PROXY=corp.example,127.0.0.1", "no_proxy=localhost,127.0.0.0/8"))
	reports, text := checkhealth(t, nv)
	expect(t, reports, text, "OK", "HTTPS_PROXY set; NO_PROXY and no_proxy list 127.0.0.1")
}

// A CLI that stopped (not signed in, no network) is pointed out, with where
// to read why.
func TestCheckhealthPointsAtACLIThatExited(t *testing.T) {
	nv := newNvim(t)
	nv.Lua(nil, `require('claude').setup({ terminal_cmd = { 'sh', '-c', 'echo not signed in; exit 1' } })`)
	exited := nv.UserEvents("ClaudeTerminalExited")
	nv.Cmd("ClaudeOpen")
	nvimtest.Next(t, exited, "User ClaudeTerminalExited", waitTimeout)
	reports, text := checkhealth(t, nv)
	expect(t, reports, text, "WARNING", "the CLI in the Claude terminal has exited")
	if !strings.Contains(text, ":Claude focus shows its last output") {
		t.Errorf("the report does not say how to see why:\n%s", text)
	}
}

func TestCheckhealthSaysWhetherClaudeGetsTheLanguageServerTools(t *testing.T) {
	nv := nvimtest.New(t)
	nv.Lua(nil, `require('claude').setup({})`)
	reports, text := checkhealth(t, nv)
	expect(t, reports, text, "OK", "on: Claude gets the lsp_ tools")
	nv.Lua(nil, `require('claude').setup({ tools = { lsp = false } })`)
	_, text = checkhealth(t, nv)
	if !strings.Contains(text, "off (tools.lsp = false): Claude gets no lsp_ tools") {
		t.Errorf("with tools.lsp = false :checkhealth says\n%s", text)
	}
}
