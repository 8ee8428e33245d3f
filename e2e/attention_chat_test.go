package e2e

import (
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// A chat's permission in the attention list: the chat needs the user while its Bash waits,
// ClaudeNeedsYou fires once, picking the chat from :Claude sessions puts the cursor on the
// line where <CR> answers, and after the answer the chat works, then is done.
func TestAChatsPermissionNeedsYouUntilAnsweredFromTheLinePicked(t *testing.T) {
	t.Parallel()
	s := newSession(t, bashTurns("touch made-by-bash.txt", "The file is there.")...)
	t.Cleanup(s.logTranscript)
	needsYou := s.nv.UserEvents("ClaudeNeedsYou")
	done := s.nv.UserEvents("ClaudeDone")
	key := "chat:" + s.env.Project
	s.openChat()
	s.chatSend("Create made-by-bash.txt")
	s.waitChat("? Bash(touch made-by-bash.txt) asks for permission")
	s.waitAttention("the chat's permission", map[string]string{key: "needs_you permission"})
	if ev := nvimtest.Next(t, needsYou, "User ClaudeNeedsYou for the chat's Bash", turnTimeout); ev["session"] != key || ev["kind"] != "permission" {
		t.Errorf("ClaudeNeedsYou data %v", ev)
	}

	// Elsewhere (a new tab page), :Claude sessions goes back to the question's line.
	s.nv.Cmd("tabnew")
	s.pickSession("chat")
	s.nv.Cmd("ClaudeSessions")
	var at struct {
		InTranscript bool   `msgpack:"in_transcript"`
		Line         string `msgpack:"line"`
	}
	s.nv.Lua(&at, `return {
		in_transcript = vim.api.nvim_get_current_buf() == require('claude.chat').buffers().transcript,
		line = vim.api.nvim_get_current_line() }`)
	if !at.InTranscript || !strings.Contains(at.Line, "waiting for you: <CR>") {
		t.Errorf("after picking the chat: in its transcript %v, on the line %q; want the line where <CR> answers", at.InTranscript, at.Line)
	}

	s.answerPermissions("Allow once", "")
	s.nv.Keys("<CR>")
	s.waitChat("The file is there.")
	s.waitAttention("the chat done", map[string]string{key: "done"})
	if ev := nvimtest.Next(t, done, "User ClaudeDone for the chat", turnTimeout); ev["session"] != key {
		t.Errorf("ClaudeDone data %v", ev)
	}
	select {
	case ev := <-needsYou:
		t.Errorf("a second ClaudeNeedsYou: %v", ev)
	default:
	}
}
