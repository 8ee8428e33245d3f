// Package clienv prepares an isolated environment for one run of the real Claude Code CLI:
// its own HOME and CLAUDE_CONFIG_DIR (pre-seeded so no first-run screen asks anything), a
// project directory it trusts, the Anthropic API pointed at a local stand-in, and every kind of
// non-essential traffic (telemetry, updates, …) switched off.
package clienv

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// APIKey is the key the CLI sends to the stand-in; any well-formed value works.
const APIKey = "sk-ant-api03-e2e-" + "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"

// Env is one isolated CLI environment. Dirs are absolute with symlinks resolved, so they
// compare equal to the paths the CLI reports.
type Env struct {
	Home      string // HOME
	ConfigDir string // CLAUDE_CONFIG_DIR, holds .claude.json and ide/
	Project   string // an empty, trusted project directory: run the CLI here
	vars      map[string]string
}

// New makes the directories in t.TempDir(), writes $CLAUDE_CONFIG_DIR/.claude.json and sets
// the environment for a stand-in API at apiURL (e.g. fakeapi.Server.URL()).
func New(t testing.TB, apiURL string) *Env {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatalf("clienv: %v", err)
	}
	e := &Env{
		Home:      filepath.Join(root, "home"),
		ConfigDir: filepath.Join(root, "claude-config"),
		Project:   filepath.Join(root, "project"),
	}
	for _, d := range []string{e.Home, e.ConfigDir, e.Project} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatalf("clienv: %v", err)
		}
	}
	e.vars = map[string]string{
		"PATH":              os.Getenv("PATH"),
		"HOME":              e.Home,
		"USER":              envOr("USER", "e2e"),
		"SHELL":             "/bin/sh",
		"LANG":              "C.UTF-8",
		"TERM":              "tmux-256color",
		"CLAUDE_CONFIG_DIR": e.ConfigDir,
		// XDG dirs inside the temp tree too: nothing may land in the real home.
		"XDG_CONFIG_HOME": filepath.Join(e.Home, ".config"),
		"XDG_CACHE_HOME":  filepath.Join(e.Home, ".cache"),
		"XDG_DATA_HOME":   filepath.Join(e.Home, ".local", "share"),
		"XDG_STATE_HOME":  filepath.Join(e.Home, ".local", "state"),
		"TMPDIR":          filepath.Join(root, "tmp"),

		"ANTHROPIC_BASE_URL": apiURL,
		"ANTHROPIC_API_KEY":  APIKey,

		"DISABLE_TELEMETRY":                        "1",
		"DISABLE_AUTOUPDATER":                      "1",
		"DISABLE_ERROR_REPORTING":                  "1",
		"DISABLE_BUG_COMMAND":                      "1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
		// Without this the CLI fetches the official plugin marketplace at start-up
		// (downloads.claude.ai, then git clone from github.com over HTTPS and SSH), whatever
		// the two switches above say.
		"CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL": "1",
		// No attempt to install a VS Code/JetBrains extension on connecting to an IDE.
		"CLAUDE_CODE_IDE_SKIP_AUTO_INSTALL": "1",
		// The loopback stand-in and IDE server must never go through a proxy; no proxy is set.
		"NO_PROXY": "127.0.0.1,localhost,::1",
		"no_proxy": "127.0.0.1,localhost,::1",
	}
	if err := os.MkdirAll(e.vars["TMPDIR"], 0o700); err != nil {
		t.Fatalf("clienv: %v", err)
	}
	e.writeConfig(t, []string{e.Project})
	return e
}

// Set adds or replaces one variable, e.g. CLAUDE_CODE_SSE_PORT.
func (e *Env) Set(key, value string) { e.vars[key] = value }

// Unset removes one variable.
func (e *Env) Unset(key string) { delete(e.vars, key) }

// Vars is the complete environment for the CLI, sorted (KEY=VALUE).
func (e *Env) Vars() []string {
	out := make([]string, 0, len(e.vars))
	for k, v := range e.vars {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// LockDir is where the CLI looks for IDE lock files: $CLAUDE_CONFIG_DIR/ide.
func (e *Env) LockDir() string { return filepath.Join(e.ConfigDir, "ide") }

// Trust marks more directories as trusted projects (the CLI asks before working in any other).
func (e *Env) Trust(t testing.TB, dirs ...string) {
	t.Helper()
	e.writeConfig(t, append([]string{e.Project}, dirs...))
}

// WriteSettings writes the user's settings ($CLAUDE_CONFIG_DIR/settings.json): settings, plus
// what a user who chose a permission mode there has answered once: 2.1.332 shows a warning
// to accept before bypassPermissions (skipDangerousModePermissionPrompt) and the auto-mode
// opt-in prompt (skipAutoPermissionPrompt; hasResetAutoModeOptInForDefaultOffer in
// .claude.json keeps a one-time migration from removing it). It still asks such a user
// AutoModeOffer, whatever these say. 2.1.197 ignores the keys.
func (e *Env) WriteSettings(t testing.TB, settings map[string]any) string {
	t.Helper()
	all := map[string]any{"skipAutoPermissionPrompt": true, "skipDangerousModePermissionPrompt": true}
	for k, v := range settings {
		all[k] = v
	}
	b, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		t.Fatalf("clienv: %v", err)
	}
	path := filepath.Join(e.ConfigDir, "settings.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatalf("clienv: %v", err)
	}
	return path
}

// writeConfig writes .claude.json: onboarding done, our API key approved (the CLI stores the
// last 20 characters of approved keys), the projects trusted.
func (e *Env) writeConfig(t testing.TB, trusted []string) {
	t.Helper()
	projects := map[string]any{}
	for _, d := range trusted {
		projects[d] = map[string]any{"hasTrustDialogAccepted": true}
	}
	cfg := map[string]any{
		"hasCompletedOnboarding": true,
		"customApiKeyResponses": map[string]any{
			"approved": []string{APIKey[len(APIKey)-20:]},
			"rejected": []string{},
		},
		"projects": projects,
		// See WriteSettings.
		"hasResetAutoModeOptInForDefaultOffer": true,
	}
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		t.Fatalf("clienv: %v", err)
	}
	if err := os.WriteFile(filepath.Join(e.ConfigDir, ".claude.json"), b, 0o600); err != nil {
		t.Fatalf("clienv: %v", err)
	}
}

func envOr(key, def string) string {
	if v := strings.TrimSpace(os.Getenv(key)); v != "" {
		return v
	}
	return def
}
