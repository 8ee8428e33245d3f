package chatctl_test

import (
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

func TestClaudeChatModeAndShiftTabSwitchTheModeTheWinbarShows(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Cmd("ClaudeChat")
	winbar := func() string {
		var s string
		e.nv.Lua(&s, `return vim.b[require('claude.chat').buffers().transcript].claude_chat_status or ''`)
		return s
	}
	steps := []struct {
		how  string
		mode string
	}{
		{":Claude mode acceptEdits", "acceptEdits"},
		{"<S-Tab> in the input", "plan"},
		{"<S-Tab> in the transcript", "auto"},
		{"<S-Tab> in the input", "default"},
		{":Claude mode manual", "default"},
		{":Claude mode plan", "plan"},
	}
	for i, step := range steps {
		switch step.how {
		case "<S-Tab> in the input":
			e.nv.Keys("<Esc><S-Tab>")
		case "<S-Tab> in the transcript":
			e.nv.Cmd("wincmd k")
			e.nv.Keys("<S-Tab>")
			e.nv.Cmd("wincmd j")
		default:
			e.nv.Cmd(strings.TrimPrefix(step.how, ":"))
		}
		nvimtest.Wait(t, step.how+" to reach the CLI", waitTimeout, func() bool {
			return strings.Count(e.recorded(), `"subtype":"set_permission_mode"`) == i+1
		})
		if got := e.recorded(); !strings.HasSuffix(got, `"request":{"mode":"`+step.mode+`","subtype":"set_permission_mode"}}`+"\n") {
			t.Fatalf("after %s the CLI read\n%s\nwant a switch to %s last", step.how, got, step.mode)
		}
		if step.how != ":Claude mode manual" { // the CLI says nothing when the mode stays
			e.waitTranscript("_Mode: " + step.mode + "_")
		}
		want := step.mode + " · Claude chat"
		if step.mode == "default" {
			want = "Claude chat"
		}
		nvimtest.Wait(t, "the winbar to show "+want, waitTimeout, func() bool { return winbar() == want })
	}
	got := commandMessages(t, e.nv, "ClaudeChatMode bogus")
	if !strings.Contains(got, "unknown chat mode bogus; use one of: default, acceptEdits, plan, auto, dontAsk, bypassPermissions") {
		t.Errorf(":Claude mode bogus said %q; want the modes it takes", got)
	}
}

func TestClaudeModelPicksFromTheCLIsListAndLaterStartsUseIt(t *testing.T) {
	wantLabels := []string{"Default (recommended) — The best model", "Sonnet — Fast"}
	checkAsked := func(t *testing.T, e *chatEnv) {
		t.Helper()
		var asked []map[string]any
		e.nv.Lua(&asked, `return _G.asked`)
		if len(asked) != 1 || asked[0]["prompt"] != "Claude model" {
			t.Fatalf("asked %v, want one question: Claude model", asked)
		}
		labels := asked[0]["labels"].([]any)
		if len(labels) != 2 || labels[0] != wantLabels[0] || labels[1] != wantLabels[1] {
			t.Errorf("the picker offered %v, want %q", labels, wantLabels)
		}
	}
	argsLine := func(record string, terminal bool) string {
		for _, l := range strings.Split(record, "\n") {
			if strings.HasPrefix(l, "ARGS ") && strings.Contains(l, " -p ") != terminal && strings.Contains(l, "--model sonnet") {
				return l
			}
		}
		return ""
	}

	t.Run("a running chat switches at once and :Claude open gets --model", func(t *testing.T) {
		e := newChatEnv(t)
		e.nv.Lua(nil, `_G.pick = 2`)
		e.nv.Cmd("ClaudeChat")
		e.nv.Cmd("ClaudeModel")
		e.recorded(`"request":{"model":"sonnet","subtype":"set_model"}`)
		e.waitTranscript("_Model: sonnet_")
		checkAsked(t, e)
		var winbar string
		e.nv.Lua(&winbar, `return vim.b[require('claude.chat').buffers().transcript].claude_chat_status`)
		if winbar != "sonnet · Claude chat" {
			t.Errorf("winbar = %q, want the new model", winbar)
		}
		e.nv.Cmd("ClaudeOpen")
		nvimtest.Wait(t, "the terminal's CLI to start with --model sonnet", waitTimeout, func() bool {
			return argsLine(e.recorded(), true) != ""
		})
	})

	t.Run("with no chat the choice waits for the next chat", func(t *testing.T) {
		e := newChatEnv(t)
		e.nv.Lua(nil, `_G.pick = 2`)
		e.nv.Cmd("ClaudeModel")
		nvimtest.Wait(t, "the picker", waitTimeout, func() bool {
			var n int
			e.nv.Lua(&n, `return #_G.asked`)
			return n == 1
		})
		checkAsked(t, e)
		if got := e.recorded(`"subtype":"initialize"`); strings.Contains(got, "set_model") || argsLine(got, false) != "" {
			t.Errorf("before any chat the CLI read\n%s\nwant no model switch", got)
		}
		e.nv.Cmd("ClaudeChat")
		e.prompt("stream")
		e.waitTranscript("Hello from the stand-in.")
		if got := e.recorded(); argsLine(got, false) == "" || strings.Contains(got, "set_model") {
			t.Errorf("the chat's CLI read\n%s\nwant it started with --model sonnet, and no set_model", got)
		}
	})
}

// A chat whose CLI exited starts the next one in the mode the user had
// switched to, not the CLI's default.
func TestAChatCLIStartedAgainKeepsTheMode(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Cmd("ClaudeChat")
	e.nv.Cmd("ClaudeChatMode acceptEdits")
	e.waitTranscript("_Mode: acceptEdits_")
	e.nv.Cmd("ClaudeChatStop")
	e.waitTranscript("_Claude exited (code 0)._")
	e.prompt("stream")
	e.waitTranscript("Hello from the stand-in.")
	got := e.recorded()
	var starts []string
	for _, l := range strings.Split(got, "\n") {
		if strings.HasPrefix(l, "ARGS ") {
			starts = append(starts, l)
		}
	}
	// The first in permission_mode's default (issue 21), the second in the user's.
	if len(starts) != 2 || !strings.Contains(starts[0], "--permission-mode default") ||
		!strings.Contains(starts[1], "--permission-mode acceptEdits") || strings.Count(starts[1], "--permission-mode") != 1 {
		t.Errorf("the CLI starts were\n%s\nwant the first with --permission-mode default, the second with only --permission-mode acceptEdits", strings.Join(starts, "\n"))
	}
}
