package plugintest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// setupWithMode calls setup() with the stand-in CLI and permission_mode: "" for nil,
// "false" for false.
const setupWithMode = `
	local cli, mode = ...
	local value = mode ~= '' and mode or nil
	if mode == 'false' then value = false end
	require('claude').setup({ terminal_cmd = { cli }, permission_mode = value })`

// writeClaudeSettings writes the user's Claude settings ($CLAUDE_CONFIG_DIR/settings.json
// of the child Neovim).
func writeClaudeSettings(t *testing.T, nv *nvimtest.Nvim, json string) {
	t.Helper()
	dir := filepath.Join(nv.Dir, "claude")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(json), 0o600); err != nil {
		t.Fatal(err)
	}
}

// The CLI gets --permission-mode as permission_mode, the user's Claude settings and the
// :Claude open arguments decide; :Claude status says which mode and why, the statusline names
// a mode whose edits skip the review, and the user is told so when the CLI starts.
func TestClaudeOpenStartsTheCLIInTheChosenPermissionMode(t *testing.T) {
	for _, tt := range []struct {
		name     string
		mode     string // permission_mode; "" for nil
		settings string // the user's Claude settings.json, if any
		open     string // :Claude open's arguments
		wantArgs string // in the stand-in's "args …" record
		noArg    bool   // wantArgs must NOT be there
		status   string
		line     string // statusline() once the CLI runs (no client connects here)
		warned   bool
	}{
		{name: "by default it asks before edits, for the review", wantArgs: "[--permission-mode] [default]",
			status: "permission mode: default (from claude.nvim's default (review before write))", line: "Claude ○"},
		{name: "a defaultMode in the user's Claude settings is kept", settings: `{"permissions":{"defaultMode":"acceptEdits"}}`,
			wantArgs: "[--permission-mode]", noArg: true, status: "permission mode: acceptEdits (from defaultMode in ", line: "Claude ○ acceptEdits", warned: true},
		{name: "permission_mode wins over the settings", mode: "plan", settings: `{"permissions":{"defaultMode":"auto"}}`,
			wantArgs: "[--permission-mode] [plan]", status: "permission mode: plan (from permission_mode): Claude plans", line: "Claude ○"},
		{name: "auto writes edits unreviewed and says so", mode: "auto", wantArgs: "[--permission-mode] [auto]",
			status: "permission mode: auto (from permission_mode)", line: "Claude ○ auto", warned: true},
		{name: "manual is passed as default, which every CLI takes", mode: "manual", wantArgs: "[--permission-mode] [default]",
			status: "permission mode: default (from permission_mode)", line: "Claude ○"},
		{name: "false passes no mode, for a terminal_cmd that takes none", mode: "false", wantArgs: "[--permission-mode]", noArg: true,
			status: "permission mode: chosen by the CLI's own default (permission_mode = false)", line: "Claude ○"},
		{name: "a mode given to :Claude open is left alone", mode: "auto", open: " --permission-mode plan",
			wantArgs: "[--permission-mode] [plan]", status: "permission mode: chosen by the CLI's arguments", line: "Claude ○"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			nv := newNvim(t)
			cli, record := nvimtest.StandInCLI(t, t.TempDir())
			if tt.settings != "" {
				writeClaudeSettings(t, nv, tt.settings)
			}
			nv.Lua(nil, setupWithMode, cli, tt.mode)
			nv.Cmd("ClaudeOpen" + tt.open)
			var args string
			for _, l := range nvimtest.ReadRecord(t, record) {
				if strings.HasPrefix(l, "args") {
					args = l
				}
			}
			if strings.Contains(args, tt.wantArgs) == tt.noArg {
				t.Errorf("the CLI started with %q; want %q in it: %v", args, tt.wantArgs, !tt.noArg)
			}
			if strings.Count(args, "--permission-mode") > 1 {
				t.Errorf("the CLI started with %q: one --permission-mode at most", args)
			}
			out, err := nv.Exec("ClaudeStatus", true)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(out, tt.status) {
				t.Errorf(":Claude status printed\n%s\nwant a line with %q", out, tt.status)
			}
			var line string
			nv.Lua(&line, `return require('claude').statusline()`)
			if line != tt.line {
				t.Errorf("statusline() = %q, want %q", line, tt.line)
			}
			if warned := strings.Contains(nv.Messages(), "edits skip the review") || strings.Contains(nv.Messages(), "without review") || strings.Contains(nv.Messages(), "without asking"); warned != tt.warned {
				t.Errorf("messages:\n%s\nwarned that edits skip the review: %v, want %v", nv.Messages(), warned, tt.warned)
			}
		})
	}
}

// An unknown mode is named in one message and costs only that option: the default (nil,
// the user's own Claude settings or review before write) stands.
func TestAnUnknownPermissionModeIsRefusedByName(t *testing.T) {
	nv := newNvim(t)
	if err := nv.ExecLua(`require('claude').setup({ permission_mode = 'yolo' })`, nil); err != nil {
		t.Fatalf("setup({ permission_mode = 'yolo' }) raised %v; want a message and the default", err)
	}
	var isNil bool
	nv.Lua(&isNil, `return require('claude').config().permission_mode == nil`)
	want := `option permission_mode must be one of default, manual, acceptEdits, plan, auto, dontAsk, bypassPermissions, false or nil, got "yolo"`
	if msgs := nv.Messages(); !strings.Contains(msgs, want) || !isNil {
		t.Errorf("after setup({ permission_mode = 'yolo' }): messages\n%s\npermission_mode nil: %v; want a message with %s and the default", msgs, isNil, want)
	}
}

// :checkhealth says whether edits reach the review, and how to get it back.
func TestCheckhealthSaysWhenEditsBypassTheReview(t *testing.T) {
	for _, tt := range []struct {
		name     string
		mode     string
		settings string
		level    string
		want     []string
		advice   string // in the report's advice
	}{
		{"by default edits are reviewed", "", "", "OK", []string{"Claude starts in default (from claude.nvim's default (review before write)): Claude asks before each edit"}, ""},
		{"auto bypasses it", "auto", "", "WARNING", []string{"Claude's edits bypass the review: auto (from permission_mode)"},
			"setup({ permission_mode = 'default' })"},
		{"a settings defaultMode that bypasses it names its file", "", `{"permissions":{"defaultMode":"bypassPermissions"}}`, "WARNING",
			[]string{"bypass the review: bypassPermissions (from defaultMode in ", "settings.json"}, "remove permissions.defaultMode from "},
		{"false leaves the CLI's own default, auto, and says so", "false", "", "WARNING",
			[]string{"the permission mode is chosen by the CLI's own default (permission_mode = false): since Claude Code 2.1.332 that is auto"},
			"setup({ permission_mode = 'default' })"},
		{"an allow rule for edits is pointed out", "", `{"permissions":{"allow":["Edit(src/**)","Bash(ls)"]}}`, "WARNING",
			[]string{"the allow rule Edit(src/**) (", "lets matching edits through without the review"}, "remove it from permissions.allow"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			nv := newNvim(t)
			cli, _ := nvimtest.StandInCLI(t, t.TempDir())
			if tt.settings != "" {
				writeClaudeSettings(t, nv, tt.settings)
			}
			nv.Lua(nil, setupWithMode, cli, tt.mode)
			reports, text := checkhealth(t, nv)
			expect(t, reports, text, tt.level, tt.want...)
			if !strings.Contains(text, tt.advice) {
				t.Errorf("the report does not advise %q:\n%s", tt.advice, text)
			}
			if !strings.Contains(text, "shift+tab switches the mode") {
				t.Errorf("the report does not say that shift+tab changes the mode unseen:\n%s", text)
			}
		})
	}
}

// :checkhealth reads the CLI's version and says whether it is in the supported range.
func TestCheckhealthPlacesTheCLIVersionInTheSupportedRange(t *testing.T) {
	for _, tt := range []struct {
		version string
		level   string
		want    string
	}{
		{"2.1.197", "OK", "Claude Code 2.1.197 is in the supported range 2.1.197 to 2.1.332"},
		{"2.1.332", "OK", "Claude Code 2.1.332 is in the supported range"},
		{"2.0.76", "WARNING", "Claude Code 2.0.76 is older than the supported 2.1.197 to 2.1.332"},
		{"2.2.0", "WARNING", "Claude Code 2.2.0 is newer than the supported 2.1.197 to 2.1.332: it may work, but was not tested"},
	} {
		t.Run(tt.version, func(t *testing.T) {
			nv := newNvim(t)
			cli := filepath.Join(t.TempDir(), "claude")
			if err := os.WriteFile(cli, []byte("#!/bin/sh\necho '"+tt.version+" (Claude Code)'\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			nv.Lua(nil, `require('claude').setup({ terminal_cmd = { ... } })`, cli)
			reports, text := checkhealth(t, nv)
			expect(t, reports, text, tt.level, tt.want)
		})
	}
}
