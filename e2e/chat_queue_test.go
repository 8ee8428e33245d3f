package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// chatQueued returns the messages the chat shows as queued (virtual lines under the
// transcript, chat/queue.lua).
func (s *session) chatQueued() []string {
	var lines []string
	s.nv.Lua(&lines, `
		local b = require('claude.chat').buffers()
		local out = {}
		if not b then return out end
		local ns = vim.api.nvim_create_namespace('claude_chat_queued')
		for _, m in ipairs(vim.api.nvim_buf_get_extmarks(b.transcript, ns, 0, -1, { details = true })) do
			for _, vl in ipairs(m[4].virt_lines or {}) do
				local text = ''
				for _, chunk in ipairs(vl) do text = text .. chunk[1] end
				table.insert(out, text)
			end
		end
		return out`)
	return lines
}

// chatType types text into the chat's input and sends it with <CR>, as the user does, and
// does not wait for it to show.
func (s *session) chatType(text string) {
	s.t.Helper()
	s.nv.Lua(nil, `
		local b = require('claude.chat').buffers()
		vim.api.nvim_set_current_win(vim.fn.bufwinid(b.input))`)
	s.nv.Keys("i" + text + "<Esc><CR>")
}

// A message sent while Claude answers waits, shown as queued under the streaming answer,
// never inside it; the CLI runs it as a turn of its own after the answer, and its prompt
// line goes there (issue 22.5).
func TestAChatMessageSentWhileClaudeAnswersIsQueuedAndThenItsOwnTurn(t *testing.T) {
	t.Parallel()
	words := strings.Repeat("slowly ", 80)
	answer := "BEGIN " + words + "END"
	const followUp = "And one more thing"
	s := newSession(t, fakeapi.Stream(answer, 7, 50*time.Millisecond), fakeapi.Say("Here is the one more thing."))
	t.Cleanup(s.logTranscript)
	s.openChat()
	s.chatSend("Tell me slowly")
	nvimtest.Wait(t, "the answer to start streaming", turnTimeout, func() bool {
		return strings.Contains(s.chatTranscript(), "BEGIN slowly")
	})
	s.chatType(followUp)
	if got, want := s.chatQueued(), []string{"⧗ queued: " + followUp}; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("right after sending, the queued lines are %q, want %q", got, want)
	}
	if got := s.chatTranscript(); strings.Contains(got, followUp) || strings.Contains(got, "END") {
		t.Fatalf("the follow-up was not queued while the answer streamed:\n%s", got)
	}
	s.waitChat("Here is the one more thing.")
	got := s.chatTranscript()
	if !strings.Contains("\n"+got+"\n", "\n"+answer+"\n") {
		t.Errorf("the first answer is not one unbroken line %q:\n%s", answer, got)
	}
	end, prompt, second := strings.Index(got, answer), strings.Index(got, "> "+followUp), strings.Index(got, "Here is the one more thing.")
	if !(end >= 0 && end < prompt && prompt < second) {
		t.Errorf("want the first answer, then %q, then its answer:\n%s", "> "+followUp, got)
	}
	if strings.Count(got, followUp) != 1 {
		t.Errorf("the follow-up shows %d times, want once:\n%s", strings.Count(got, followUp), got)
	}
	if q := s.chatQueued(); len(q) != 0 {
		t.Errorf("after its turn, the follow-up still shows as queued: %q", q)
	}
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	defer cancel()
	if _, err := s.api.WaitMain(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if got := s.chatRequest(2).LastUserText(); got != followUp {
		t.Errorf("the model got %q as the follow-up's turn, want %q", got, followUp)
	}
}

// A queued message can be taken back (the CLI drops it: cancel_async_message) to be edited:
// its text returns to the input, and only what is sent again reaches the model.
func TestAQueuedChatMessageTakenBackReturnsToTheInputAndNeverReachesTheModel(t *testing.T) {
	t.Parallel()
	answer := "BEGIN " + strings.Repeat("slowly ", 80) + "END"
	const (
		draft  = "Make it blue"
		edited = "Make it green"
	)
	green := "Green " + strings.Repeat("slowly ", 80) + "DONE"
	s := newSession(t, fakeapi.Stream(answer, 7, 50*time.Millisecond), fakeapi.Stream(green, 7, 50*time.Millisecond),
		fakeapi.Say("Red it is."))
	t.Cleanup(s.logTranscript)
	s.openChat()
	s.chatSend("Tell me slowly")
	nvimtest.Wait(t, "the answer to start streaming", turnTimeout, func() bool {
		return strings.Contains(s.chatTranscript(), "BEGIN slowly")
	})
	s.chatType(draft)
	if q := s.chatQueued(); len(q) != 1 {
		t.Fatalf("right after sending, the queued lines are %q, want the draft", q)
	}
	s.nv.Cmd("ClaudeChatUnqueue")
	nvimtest.Wait(t, "the draft to come back to the input", turnTimeout, func() bool {
		return s.chatInput() == draft && len(s.chatQueued()) == 0
	})
	s.waitChat(answer)
	nvimtest.Wait(t, "the first turn to end", turnTimeout, func() bool {
		return strings.Contains(s.chatTranscript(), " tokens in, ")
	})
	s.nv.Lua(nil, `
		local b = require('claude.chat').buffers()
		vim.api.nvim_buf_set_lines(b.input, 0, -1, false, {})`)
	s.chatSend(edited)
	nvimtest.Wait(t, "the second answer to start streaming", turnTimeout, func() bool {
		return strings.Contains(s.chatTranscript(), "Green slowly")
	})
	if got := s.chatRequest(2).LastUserText(); got != edited {
		t.Errorf("the model's second request has %q, want only the edited %q", got, edited)
	}
	if got := s.chatTranscript(); strings.Contains(got, draft) {
		t.Errorf("the withdrawn draft shows in the transcript:\n%s", got)
	}

	// A message queued after a withdrawal is still shown as the turn it becomes: the
	// withdrawal's "cancelled" is the host's own word to 2.1.197, which says nothing of
	// when it takes a queued message in.
	const red = "Make it red"
	s.chatType(red)
	s.waitChat(green)
	s.waitChat("Red it is.")
	nvimtest.Wait(t, "the queued message to leave the queue", turnTimeout, func() bool {
		return len(s.chatQueued()) == 0
	})
	if got := s.chatTranscript(); !strings.Contains(got, "> "+red) {
		t.Errorf("the queued message ran without its prompt line in the transcript:\n%s", got)
	}
}

// A message sent while the running turn still has a tool to run is taken into that turn at
// the tool's result, as the CLI does in the terminal: its prompt line goes right there,
// before the answer that follows, and the model gets it with the tool result.
func TestAChatMessageQueuedBeforeAToolResultJoinsTheRunningTurnThere(t *testing.T) {
	if cliVersion == "2.1.197" {
		t.Skip("2.1.197 does not say when it takes a queued message in (no command_lifecycle lines): the chat shows it after the turn")
	}
	t.Parallel()
	const followUp = "Also print the date"
	slow := fakeapi.Turn{
		Text: "Let me run it. " + strings.Repeat("slowly ", 40), Chunk: 7, Delay: 50 * time.Millisecond,
		Tools: []fakeapi.ToolUse{{Name: "Bash", Input: map[string]any{"command": "echo hi"}}},
	}
	s := newSession(t, slow, fakeapi.Say("Ran it, and noted the date."))
	t.Cleanup(s.logTranscript)
	s.openChat()
	s.chatSend("Run echo hi")
	nvimtest.Wait(t, "the answer to start streaming", turnTimeout, func() bool {
		return strings.Contains(s.chatTranscript(), "Let me run it.")
	})
	s.chatType(followUp)
	if q := s.chatQueued(); len(q) != 1 {
		t.Fatalf("right after sending, the queued lines are %q, want the follow-up", q)
	}
	s.waitChat("Ran it, and noted the date.")
	nvimtest.Wait(t, "the turn to end", turnTimeout, func() bool {
		return strings.Contains(s.chatTranscript(), " tokens in, ")
	})
	got := s.chatTranscript()
	tool, prompt, answer := strings.Index(got, "● Bash(echo hi)"), strings.Index(got, "> "+followUp), strings.Index(got, "Ran it, and noted the date.")
	if !(tool >= 0 && tool < prompt && prompt < answer) {
		t.Errorf("want the Bash call, then %q, then the answer:\n%s", "> "+followUp, got)
	}
	if n := strings.Count(got, " tokens in, "); n != 1 {
		t.Errorf("the follow-up made %d turn ends, want it inside the one turn:\n%s", n, got)
	}
	if got := s.chatRequest(2).UserText(); !strings.Contains(got, followUp) {
		t.Errorf("the model's request after the tool has %q, want the follow-up in it", got)
	}
}
