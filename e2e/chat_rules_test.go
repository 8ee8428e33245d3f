package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The chat's permission rules (issue 39, item 2): listed by the CLI (list_permission_rules)
// with their source and the CLI's reading, one added by an "always" answer among them, and
// removed from its settings file so that the CLI asks again.

// panelLines returns the lines of the chat's list of kind ("rules", "mcp", "usage").
func (s *session) panelLines(kind string) []string {
	var lines []string
	s.nv.Lua(&lines, `
		local kind, dir = ...
		local p = require('claude.chat.panel').find(kind, dir)
		return p and vim.api.nvim_buf_get_lines(p.buf, 0, -1, false) or {}`, kind, s.env.Project)
	return lines
}

// waitPanel waits until the list of kind has a line containing each of wants, and returns
// its lines.
func (s *session) waitPanel(kind string, wants ...string) []string {
	s.t.Helper()
	var lines []string
	nvimtest.Wait(s.t, "the "+kind+" list to show "+strings.Join(wants, " and "), turnTimeout, func() bool {
		lines = s.panelLines(kind)
		text := strings.Join(lines, "\n")
		for _, w := range wants {
			if !strings.Contains(text, w) {
				return false
			}
		}
		return true
	})
	return lines
}

// panelCursorTo puts the cursor of the list of kind on the first line starting with text.
func (s *session) panelCursorTo(kind, text string) {
	s.t.Helper()
	var ok bool
	s.nv.Lua(&ok, `
		local kind, dir, text = ...
		local p = require('claude.chat.panel').find(kind, dir)
		local win = p and vim.fn.bufwinid(p.buf)
		if not win or win == -1 then return false end
		vim.api.nvim_set_current_win(win)
		for i, l in ipairs(vim.api.nvim_buf_get_lines(p.buf, 0, -1, false)) do
			if vim.startswith(l, text) then
				vim.api.nvim_win_set_cursor(win, { i, 0 })
				return true
			end
		end
		return false`, kind, s.env.Project, text)
	if !ok {
		s.t.Fatalf("no line of the %s list has %q: %q", kind, text, s.panelLines(kind))
	}
}

func TestTheChatListsTheLiveRulesAndRemovesOneSoTheCLIAsksAgain(t *testing.T) {
	t.Parallel()
	const command = "npm run build"
	s := newSession(t, bashTurns(command, "Built.")...)
	t.Cleanup(s.logTranscript)
	os.MkdirAll(filepath.Join(s.env.Project, ".claude"), 0o700)
	const project = `{"permissions":{"allow":["Read(./docs/**)"],"deny":["Bash(rm -rf:*)"]}}`
	s.writeFile(".claude/settings.json", project)
	s.openChat()
	s.answerPermissions("Allow, and allow Bash(npm run *) always, in .claude/settings.local.json (asks you to type yes)", "yes")
	s.chatSend("Build it")
	s.waitChat("? Bash(npm run build) asks for permission")
	s.nv.Cmd("ClaudeChatAnswer")
	s.waitChat("Built.")
	s.turnDone(1)

	s.nv.Cmd("ClaudeChatRules")
	if cliVersion == "2.1.197" {
		s.waitPanel("rules", "Error: this Claude Code does not list its rules (list_permission_rules came with 2.1.332)")
		t.Skip("Claude Code 2.1.197 has no list_permission_rules: the chat says so")
	}
	lines := s.waitPanel("rules",
		"allow Bash(npm run *)  Any Bash command starting with npm run  · the project's .claude/settings.local.json",
		"allow Read(./docs/**)  · the project's .claude/settings.json",
		"deny  Bash(rm -rf:*)  Any Bash command starting with rm -rf  · the project's .claude/settings.json")
	t.Logf("rules:\n%s", strings.Join(lines, "\n"))

	s.answerPermissions("Remove it", "")
	s.panelCursorTo("rules", "allow Bash(npm run *)")
	s.nv.Keys("d")
	s.waitPanel("rules", "Done: removed allow rule Bash(npm run *) from localSettings")
	if text := strings.Join(s.panelLines("rules"), "\n"); strings.Contains(text, "· the project's .claude/settings.local.json") {
		t.Errorf("after removing it the list still shows the rule:\n%s", text)
	}
	local := s.fileContent(filepath.Join(s.env.Project, ".claude", "settings.local.json"))
	if strings.Contains(local, "npm run") || !strings.Contains(local, `"allow": [`) {
		t.Errorf("settings.local.json holds %q, want the rule gone and the rest kept", local)
	}
	if got := s.fileContent(filepath.Join(s.env.Project, ".claude", "settings.json")); got != project {
		t.Errorf("settings.json became %q", got)
	}
	// The CLI asks again for the command the rule allowed.
	s.api.Push(bashTurns(command, "Built again.")...)
	s.answerPermissions("Allow once", "")
	s.chatSend("Build it again")
	nvimtest.Wait(t, "the CLI to ask again", turnTimeout, func() bool {
		return strings.Count(s.chatTranscript(), "? Bash(npm run build) asks for permission") == 2
	})
}
