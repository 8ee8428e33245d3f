package e2e

import (
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The history browser of an ACP agent's chat: the agent lists its conversations
// (session/list; claude-agent-acp offers it), <CR> continues one (session/resume), and
// what ACP has no request for (a preview) is refused with a line saying so.
func TestAnACPAgentsConversationsAreListedAndOneContinues(t *testing.T) {
	s := acpSession(t, []string{"acpclaude"}, fakeapi.Say("Kiwi noted."), fakeapi.Say("The word was kiwi."))
	key := s.env.Project + "//acpclaude"
	s.nv.Cmd("ClaudeChat acpclaude")
	s.chatSendIn(key, "Remember the word kiwi")
	s.waitChat("Kiwi noted.")
	// A new conversation in the same chat: the agent starts another session.
	// A new conversation in the same chat: the agent starts another session, stored
	// once it has a message (so not listed yet).
	s.nv.Cmd("ClaudeChat acpclaude")
	s.nv.Cmd("ClaudeChat resume") // in the agent's chat's input
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("conversation list:\n%s\nmessages: %s", strings.Join(s.historyLines(), "\n"), s.nv.Messages())
		}
	})
	// The agent reads its CLI's stored conversations, which the CLI of the conversation
	// just left may not have written yet: R lists again, as a user would.
	nvimtest.Wait(t, "the agent to list its first conversation", turnTimeout, func() bool {
		lines := s.historyLines()
		if len(lines) > 1 && strings.Contains(lines[1], "no stored conversation") {
			s.nv.Keys("R")
			return false
		}
		return len(lines) > 2
	})
	// The agent titles a conversation itself (the first prompt, or what the model named it).
	lines := s.waitHistory("the agent's first conversation", " msgs  ")
	if !strings.HasPrefix(lines[0], "acpclaude conversations in ") {
		t.Errorf("the browser's header is %q, want it to name the agent", lines[0])
	}
	s.onHistoryLine(" msgs  ")
	before := s.nv.Messages()
	s.nv.Keys("p")
	nvimtest.Wait(t, "the preview refused", turnTimeout, func() bool {
		return strings.Contains(strings.TrimPrefix(s.nv.Messages(), before), "ACP has no request for it")
	})
	s.nv.Keys("<CR>")
	nvimtest.Wait(t, "the transcript to start again", turnTimeout, func() bool {
		return strings.HasPrefix(s.transcriptOf(key), "_Resumed: ")
	})
	s.chatSendIn(key, "Which word?")
	s.waitChat("The word was kiwi.")
	asked := 0
	for _, r := range s.api.Main() {
		if !strings.Contains(r.LastUserText(), "Which word?") {
			continue
		}
		asked++
		if !strings.Contains(r.UserText(), "Remember the word kiwi") {
			t.Errorf("the continued conversation's request is not the first conversation's: %q", r.UserText())
		}
	}
	if asked == 0 {
		t.Errorf("no request to the model holds the question")
	}
}
