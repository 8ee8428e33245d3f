package chatctl_test

import (
	"strings"
	"testing"
)

// Claude's questions and plans wait in the transcript like permission requests; the answer
// that reaches the CLI is the one the user gave (the real CLI's view of them: e2e).

func TestAChatQuestionWaitsAndIsAnsweredWithTheAnswersMap(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Cmd("ClaudeChat")
	e.prompt("questions")
	e.waitTranscript("? Claude asks you a question", "  [Colour] Which colour?", "    - Red: warm", "    - Blue: cold",
		"  ⎿  waiting for you: <CR> here or :Claude chat answer")
	var asked []map[string]any
	e.nv.Lua(&asked, `return _G.asked`)
	if len(asked) != 0 {
		t.Fatalf("asked %v before the user answered, want nothing", asked)
	}
	// "allow" alone has no answers: it asks the question (the second choice: Blue).
	e.nv.Lua(nil, `_G.pick = 2`)
	e.nv.Cmd("ClaudeChatAnswer allow")
	e.waitTranscript("  ⎿  answered: Colour: Blue")
	e.recorded(`"behavior":"allow","updatedInput":{"answers":{"Which colour?":"Blue"},"questions":[`)
}

func TestAChatPlanOpensInABufferThatKeepsTheUsersEditsUntilTheAnswer(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Cmd("ClaudeChat")
	e.prompt("plan")
	e.waitTranscript("? Claude's plan waits for your approval (3 lines)", "  │ # Plan", "  │ 1. Shout")
	e.nv.Cmd("ClaudeChatAnswer")
	var name string
	e.nv.Lua(&name, `return vim.api.nvim_buf_get_name(0)`)
	if name != "claude-plan://p.md" {
		t.Fatalf("after :Claude chat answer the current buffer is %q, want the plan's", name)
	}
	e.nv.Keys("Go2. Whisper<Esc>:q<CR>") // edit, then close the window: the plan still waits
	e.nv.Lua(&name, `return vim.api.nvim_buf_get_name(0)`)
	if strings.HasPrefix(name, "claude-plan://") || !strings.Contains(e.transcript(), "waiting for you") {
		t.Fatalf("after :q the current buffer is %q; want the plan's window closed and the plan waiting", name)
	}
	e.nv.Cmd("ClaudeChatAnswer")
	var lines []string
	e.nv.Lua(&lines, `return vim.api.nvim_buf_get_lines(0, 0, -1, false)`)
	if got := strings.Join(lines, "\n"); got != "# Plan\n\n1. Shout\n2. Whisper" {
		t.Fatalf("the plan opened again holds %q, want the user's edit kept", got)
	}
	e.nv.Lua(nil, `_G.pick = 1`) // acceptEdits
	e.nv.Keys(`\a`)              // <LocalLeader>a
	e.waitTranscript("  ⎿  approved with your edits: going on in mode acceptEdits")
	e.recorded(`"updatedInput":{"plan":"# Plan\n\n1. Shout\n2. Whisper\n","planFilePath":"/tmp/plans/p.md"},"updatedPermissions":[{"type":"setMode","mode":"acceptEdits","destination":"session"}]`)
}
