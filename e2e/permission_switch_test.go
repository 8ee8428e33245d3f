package e2e

import (
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

// A mode switched inside the CLI (shift+tab in its terminal) is seen by the plugin with the
// next hook event (the CLI sends its permission_mode with each; 2.1.332 cycles default →
// acceptEdits → plan → auto): :Claude status, the statusline and :checkhealth show it, and
// the user is told once that edits are no longer reviewed before they are written, and that
// :Claude changes still records them (issue 36, defect 2).

// switchNotice is the start of the message that edits stopped being reviewed.
const switchNotice = "Claude switched to auto mode"

func TestAModeSwitchedInTheTerminalShowsInClaudeStatusAfterThePrompt(t *testing.T) {
	t.Parallel()
	s := newSession(t, fakeapi.Say("First answer."), fakeapi.Say("Second answer."))
	s.open()
	s.statusSays("default (from claude.nvim's default (review before write))")

	s.focusClaude()
	for _, footer := range []string{"accept edits on", "plan mode on", "auto mode on"} {
		if _, err := s.nv.Input("<S-Tab>"); err != nil {
			t.Fatalf("nvim_input <S-Tab>: %v", err)
		}
		s.waitText(footer, turnTimeout)
	}
	s.prompt("Hello in auto mode")
	s.waitText("First answer.", turnTimeout)

	s.statusSays("auto (switched in Claude with shift+tab; started in default): Claude decides which edits need asking")
	if line := s.statusline(); line != "Claude ● auto" {
		t.Errorf("statusline() = %q, want %q", line, "Claude ● auto")
	}
	msgs := s.nv.Messages()
	if n := strings.Count(msgs, switchNotice); n != 1 || !strings.Contains(msgs, ":Claude changes still records") {
		t.Errorf(":messages has %d notices %q (want 1, saying :Claude changes still records the edits):\n%s", n, switchNotice, msgs)
	}

	s.prompt("Hello again")
	s.waitText("Second answer.", turnTimeout)
	if n := strings.Count(s.nv.Messages(), switchNotice); n != 1 {
		t.Errorf("after a second prompt in the same mode :messages has %d notices %q, want still 1", n, switchNotice)
	}

	s.nv.Cmd("checkhealth claude")
	var lines []string
	s.nv.Lua(&lines, `return vim.api.nvim_buf_get_lines(0, 0, -1, false)`)
	health := strings.Join(lines, "\n")
	if want := "the running Claude terminal is in auto (switched in Claude with shift+tab; started in default)"; !strings.Contains(health, want) {
		t.Errorf(":checkhealth claude lacks %q:\n%s", want, health)
	}
}
