package chatctl_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// A permission request never pops up: it waits in the transcript and the winbar until the
// user answers it (:Claude chat answer, or its picker); allowing for good takes a typed yes.
func TestAChatPermissionWaitsUntilTheUserAnswersIt(t *testing.T) {
	tests := []struct {
		name   string
		answer string // the :Claude chat answer argument
		pick   string // _G.pick: an index into the picker, or ""
		reason string // what vim.ui.input answers
		shown  string // the transcript's answer line
		sent   []string
	}{
		{
			name: "allowed once with the command", answer: "allow", shown: "  ⎿  allowed: Allow once",
			sent: []string{`"behavior":"allow","updatedInput":{"command":"echo hi"}}`},
		},
		{
			name: "denied with the command", answer: "deny", shown: "  ⎿  denied; the turn stops",
			sent: []string{`"behavior":"deny","message":"The user denied this tool use.","interrupt":true`},
		},
		{
			name: "allowed once in the picker", pick: "1", shown: "  ⎿  allowed: Allow once",
			sent: []string{`"behavior":"allow","updatedInput":{"command":"echo hi"}}`},
		},
		{
			name: "allowed for good with the CLI's suggestion and a typed yes", pick: "4", reason: "yes",
			shown: "  ⎿  allowed: Allow, and allow Bash(echo:*) for this session",
			sent:  []string{`"updatedPermissions":[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"echo:*"}],"behavior":"allow","destination":"session"}]`},
		},
		{
			name: "denied with a reason in the picker", pick: "3", reason: "not now", shown: "  ⎿  denied: not now",
			sent: []string{`"behavior":"deny","message":"not now"}`}, // no interrupt: Claude goes on
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newChatEnv(t)
			e.nv.Lua(nil, `local p, r = ...; _G.pick, _G.reason = tonumber(p) or p, r`, tt.pick, tt.reason)
			e.nv.Cmd("ClaudeChat")
			e.prompt("run bash")
			e.waitTranscript("● Bash(echo hi)", "? Bash(echo hi) asks for permission", "  ⎿  waiting for you: <CR> here or :Claude chat answer")
			var asked []map[string]any
			e.nv.Lua(&asked, `return _G.asked`)
			var status string
			e.nv.Lua(&status, `return vim.b[require('claude.chat').buffers().transcript].claude_chat_status`)
			if len(asked) != 0 || !strings.Contains(status, "waits for you: Bash") {
				t.Errorf("before the user answered: asked %v, winbar %q; want nothing asked and the winbar saying Claude waits", asked, status)
			}
			e.nv.Cmd(strings.TrimSpace("ClaudeChatAnswer " + tt.answer))
			after := "Ran it."
			if strings.Contains(tt.shown, "denied") {
				after = "Did not run it."
			}
			e.waitTranscript(tt.shown, after)
			e.recorded(tt.sent...)
			if tt.pick == "" {
				return
			}
			e.nv.Lua(&asked, `return _G.asked`)
			if len(asked) != 1 {
				t.Fatalf("asked %v, want one question", asked)
			}
			labels := asked[0]["labels"].([]any)
			want := []any{"Allow once", "Deny", "Deny, and tell Claude why", "Allow, and allow Bash(echo:*) for this session (asks you to type yes)"}
			if asked[0]["prompt"] != "Claude wants to use Bash: echo hi" || fmt.Sprint(labels) != fmt.Sprint(want) {
				t.Errorf("asked %v; want the command and: %v", asked[0], want)
			}
		})
	}
}

// Allowing for good needs more than a pick and Enter: anything but a typed yes allows nothing,
// and the request still waits.
func TestAChatPermissionForGoodWithoutATypedYesAllowsNothing(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Lua(nil, `_G.pick, _G.reason = 4, '2'`)
	e.nv.Cmd("ClaudeChat")
	e.prompt("run bash")
	e.waitTranscript("? Bash(echo hi) asks for permission")
	e.nv.Cmd("ClaudeChatAnswer")
	var waiting int
	e.nv.Lua(&waiting, `return require('claude.chat').waiting()`)
	if waiting != 1 {
		t.Errorf("after the picker without a typed yes %d requests wait, want the one still waiting", waiting)
	}
	e.nv.Cmd("ClaudeChatAnswer deny")
	e.waitTranscript("  ⎿  denied; the turn stops", "Did not run it.")
	if got := e.recorded(`"behavior"`); strings.Contains(got, `"allow"`) {
		t.Errorf("the CLI got an allow:\n%s", got)
	}
}

// A CLI that asks twice under one request_id (issue 23.6) gets the second request refused,
// shown as refused, and the user's answer to the first carries the input the user saw.
// Before, allowing the harmless one sent "allow" with the other's input.
func TestASecondPermissionRequestUnderOneIDIsRefusedAndTheAnswerKeepsTheInputShown(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Lua(nil, `_G.pick = 1`)
	e.nv.Cmd("ClaudeChat")
	e.prompt("two asks collide")
	e.waitTranscript("? Bash(echo hi) asks for permission",
		"**Error:** refused a Bash permission request without asking: its request_id is still waiting for your answer to another request")
	e.nv.Cmd("ClaudeChatAnswer") // the picker: _G.pick chooses Allow once
	e.waitTranscript("? Bash(echo hi) asks for permission", "  ⎿  allowed: Allow once")
	got := e.recorded(`"behavior":"allow"`, `"behavior":"deny"`)
	for _, want := range []string{
		`"request_id":"r1","response":{"behavior":"allow","updatedInput":{"command":"echo hi"}}`,
		`"request_id":"r1","response":{"behavior":"deny","message":"Refused: another permission request`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the CLI read\n%s\nwant a line with %s", got, want)
		}
	}
	if strings.Contains(got, "rm -rf") {
		t.Errorf("the CLI read\n%s\nwant no answer carrying the refused request's input", got)
	}
	var asked []map[string]any
	e.nv.Lua(&asked, `return _G.asked`)
	if len(asked) != 1 || asked[0]["prompt"] != "Claude wants to use Bash: echo hi" {
		t.Errorf("asked %v, want one question, about echo hi", asked)
	}
}

func TestAChatEditIsReviewedInTheDiffView(t *testing.T) {
	tests := []struct {
		name  string
		act   string // Ex commands in the proposal's window
		shown string
		sent  string
	}{
		{
			name: "accepted as proposed", act: "write", shown: "  ⎿  accepted",
			sent: `"behavior":"allow","updatedInput":{"file_path":"PATH","old_string":"two","new_string":"TWO"}}`,
		},
		{
			name: "accepted after the user's edit", act: "call setline(3, 'THREE') | write", shown: "  ⎿  accepted with your changes",
			sent: `"updatedInput":{"file_path":"PATH","new_string":"one\nTWO\nTHREE\n","old_string":"one\ntwo\nthree\n","replace_all":false}`,
		},
		{
			// As the terminal's CLI takes it: a rejection (an Edit changing nothing would fail).
			name: "accepted with its hunk taken back", act: "call cursor(2, 1) | execute 'ClaudeDiffTakeBack' | write",
			shown: "  ⎿  every change taken back: rejected; the turn stops",
			sent:  `"behavior":"deny","message":"The user rejected this change in the editor's diff review.","interrupt":true`,
		},
		{
			name: "rejected", act: "ClaudeDiffReject", shown: "  ⎿  rejected; the turn stops",
			sent: `"behavior":"deny","message":"The user rejected this change in the editor's diff review.","interrupt":true`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newChatEnv(t)
			path := e.nv.WriteFile("greet.txt", "one\ntwo\nthree\n")
			opened := e.nv.UserEvents("ClaudeDiffOpened")
			e.nv.Cmd("ClaudeChat")
			e.prompt("make an edit")
			nvimtest.Next(t, opened, "the diff of the proposed edit", waitTimeout)
			e.waitTranscript("? Edit(greet.txt): review the proposed change in the diff")
			e.nv.Cmd("ClaudeDiffFocus")
			e.nv.Cmd(tt.act)
			e.waitTranscript(tt.shown)
			e.recorded(strings.ReplaceAll(tt.sent, "PATH", path))
			var asked []any
			e.nv.Lua(&asked, `return _G.asked`)
			if len(asked) != 0 {
				t.Errorf("an edit was asked about with vim.ui.select too: %v", asked)
			}
			if got := readFile(t, path); got != "one\ntwo\nthree\n" {
				t.Errorf("the file holds %q; Neovim must leave writing it to the CLI", got)
			}
		})
	}
}
