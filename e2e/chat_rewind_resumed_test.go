package e2e

import (
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// A resumed conversation's earlier prompts are rewindable too (issue 25.4, "from any earlier
// message of mine"): the transcript's rows carry the uuids the conversation stored them under.

func TestAResumedConversationIsRewoundToItsFirstStoredPrompt(t *testing.T) {
	t.Parallel()
	s, path := startTwoEditTurns(t)
	s.nv.Cmd("ClaudeChatStop")
	s.waitChat("_Claude exited (code 0)._")

	s.restartNvim()
	s.nv.Cmd("ClaudeChat resume")
	s.waitHistory("the stored conversation", firstPrompt)
	s.onHistoryLine(firstPrompt)
	s.nv.Keys("<CR>")
	s.readChatPIDs()
	s.waitChat("Second edit done.") // the earlier turns, read from the stored conversation
	if strings.Contains(s.chatTranscript(), " tokens in, ") {
		t.Fatalf("the resumed transcript shows a turn of this Neovim's:\n%s", s.chatTranscript())
	}

	s.rewindPreview(firstPrompt, "code: 1 file, +2 −3: f.txt")
	s.pickRewind("both")
	if cliVersion == "2.1.197" {
		nvimtest.Wait(t, "the rewind's error", turnTimeout, func() bool {
			return strings.Contains(s.chatTranscript(), "**Error:** rewind failed: this Claude Code can only rewind the conversation to its last prompt")
		})
		t.Skip("Claude Code 2.1.197 cannot rewind the conversation to its first prompt (rewind_conversation: no preceding assistant)")
	}
	s.waitChat("⏪ Rewound the conversation to before your prompt: " + firstPrompt)
	if got := s.fileContent(path); got != rewindOriginal {
		t.Errorf("after the rewind f.txt holds %q, want it as before the first prompt: %q", got, rewindOriginal)
	}
	if got := s.chatInput(); got != firstPrompt {
		t.Errorf("after the rewind the input holds %q, want the prompt back: %q", got, firstPrompt)
	}

	s.startAgainAfterRewind()
}
