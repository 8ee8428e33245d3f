package e2e

import (
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// Issue 25 items 3 and 6: how full the context window is and the effort, in the chat's
// winbar; compactions in the transcript; :Claude effort.

// waitStatus waits until the chat's winbar shows want.
func (s *session) waitStatus(want string) {
	s.t.Helper()
	nvimtest.Wait(s.t, "the chat's winbar to show "+want, turnTimeout, func() bool {
		return strings.Contains(s.chatStatus(), want)
	})
}

func TestTheChatWinbarShowsHowFullTheContextWindowIsAfterEachTurn(t *testing.T) {
	t.Parallel()
	// The CLI takes the fill from the API's usage: 300,000 and then 500,000 tokens of input
	// in a window of 1,000,000 (the pinned CLI's default model).
	s := newSession(t, fakeapi.Filled("First answer.", 300_000), fakeapi.Filled("Second answer.", 500_000))
	defer s.logTranscript()
	s.openChat()
	// Before the first turn, the CLI's estimate (the system prompt and tools: 1% or 2%).
	nvimtest.Wait(t, "the winbar to show the CLI's estimate", turnTimeout, func() bool {
		st := s.chatStatus()
		return strings.Contains(st, "context 1%") || strings.Contains(st, "context 2%")
	})
	s.chatSend("How full is it?")
	s.waitChat("First answer.")
	s.waitStatus("context 30%")
	s.chatSend("And now?")
	s.waitChat("Second answer.")
	s.waitStatus("context 50%")
	// The turn's own figures stay as they were: its tokens in and out, the run's cost.
	if got := s.chatTranscript(); !strings.Contains(got, " · 500000 tokens in, 5 out · $") {
		t.Errorf("the second turn's summary line is missing its tokens; transcript:\n%s", got)
	}
}

func TestCompactInTheChatShowsACompactionAndTheNextRequestGoesOnFromTheSummary(t *testing.T) {
	t.Parallel()
	const (
		early   = "Remember the word pelican."
		summary = "The user asked to remember a seabird's name."
		later   = "What was the word?"
	)
	// Two exchanges: with one, 2.1.197 answers /compact "Not enough messages to compact."
	s := newSession(t, fakeapi.Filled("Noted.", 300_000), fakeapi.Filled("Noted too.", 400_000), fakeapi.Say("It was in the summary."))
	defer s.logTranscript()
	s.api.SetSummary(summary)
	s.openChat()
	s.chatSend(early)
	s.waitChat("Noted.")
	s.chatSend("And a fish: cod.")
	s.waitChat("Noted too.")
	s.waitStatus("context 40%")
	s.chatSend("/compact")
	nvimtest.Wait(t, "the compaction line", turnTimeout, func() bool {
		return strings.Contains(s.chatTranscript(), "─── Conversation compacted on request (")
	})
	// The CLI's figures: the window held the last answer's 400,000 tokens in and 5 out.
	if got := s.chatTranscript(); !strings.Contains(got, "(400005 tokens before, ") {
		t.Errorf("the compaction line lacks the tokens before it; transcript:\n%s", got)
	}
	if got := s.chatTranscript(); strings.Contains(got, summary) {
		t.Errorf("the summary the CLI goes on from is shown as if the user wrote it; transcript:\n%s", got)
	}
	// The winbar no longer says 40%: after the compaction the window holds the summary.
	nvimtest.Wait(t, "the winbar to drop below 40%", turnTimeout, func() bool {
		st := s.chatStatus()
		return strings.Contains(st, "context ") && !strings.Contains(st, "context 40%")
	})
	s.chatSend(later)
	s.waitChat("It was in the summary.")
	req := s.chatRequest(3)
	text := req.UserText()
	if !strings.Contains(text, summary) || !strings.Contains(req.LastUserText(), later) {
		t.Errorf("the request after /compact carries %q, want the summary %q and the new prompt", text, summary)
	}
	if strings.Contains(text, early) {
		t.Errorf("the request after /compact still carries the compacted prompt %q", early)
	}
	var compactions int
	for _, r := range s.api.Requests() {
		if r.Kind == fakeapi.Compact {
			compactions++
		}
	}
	if compactions != 1 {
		t.Errorf("the CLI asked for %d summaries, want 1 (the stand-in's answer must be one it takes)", compactions)
	}
}

func TestClaudeChatEffortReachesTheAPIRequestAndTheWinbar(t *testing.T) {
	t.Parallel()
	s := newSession(t, fakeapi.Say("At the default effort."), fakeapi.Say("At low effort."), fakeapi.Say("Still low."))
	defer s.logTranscript()
	s.openChat()
	var levels []string
	s.nv.Lua(&levels, `return vim.fn.getcompletion('ClaudeChatEffort ', 'cmdline')`)
	if strings.Join(levels, " ") != "low medium high xhigh max default" {
		t.Errorf(":Claude effort completes %q, want the CLI's levels and default", levels)
	}
	s.chatSend("Think as usual.")
	s.waitChat("At the default effort.")
	first := s.chatRequest(1).Messages.OutputConfig
	if first == nil || first.Effort == "" || first.Effort == "low" {
		t.Fatalf("the first request's output_config is %+v, want the CLI's default effort, not low", first)
	}
	s.waitStatus("effort " + first.Effort)
	s.nv.Cmd("ClaudeChatEffort low")
	s.waitChat("_Effort: low_")
	s.waitStatus("effort low")
	s.chatSend("Think less.")
	s.waitChat("At low effort.")
	if got := s.chatRequest(2).Messages.OutputConfig; got == nil || got.Effort != "low" {
		t.Errorf("after :Claude effort low the request's output_config is %+v, want effort low", got)
	}
	// The same CLI took it: the conversation went on.
	if got := s.chatRequest(2).UserText(); !strings.Contains(got, "Think as usual.") {
		t.Errorf("the request after the effort change lost the conversation: %q", got)
	}
	s.nv.Cmd("ClaudeChatEffort bogus")
	if msgs := s.nv.Messages(); !strings.Contains(msgs, "unknown effort bogus") {
		t.Errorf(":Claude effort bogus said %q, want it refused by name", msgs)
	}
	// The chat keeps the choice: the next CLI it starts runs with it.
	s.nv.Cmd("ClaudeChatStop")
	s.waitChat("_Claude exited (code 0)._")
	s.chatSend("And after a restart?")
	s.waitChat("Still low.")
	if got := s.chatRequest(3).Messages.OutputConfig; got == nil || got.Effort != "low" {
		t.Errorf("the chat's next CLI sent output_config %+v, want effort low kept", got)
	}
}

func TestTheCLIsOwnCompactionNearTheEndOfTheWindowIsALineOfTheTranscript(t *testing.T) {
	if cliVersion == "2.1.197" {
		t.Skip("Claude Code 2.1.197 does not compact by itself in print mode: at 980,000 of 1,000,000 tokens (its autoCompactThreshold 967,000) the next request carried the whole conversation")
	}
	t.Parallel()
	// 980,000 tokens of input is past the CLI's threshold (autoCompactThreshold 967,000 of
	// the default model's 1,000,000): before the next request it compacts by itself.
	s := newSession(t, fakeapi.Filled("Noted.", 300_000), fakeapi.Filled("Nearly full.", 980_000), fakeapi.Say("Went on from the summary."))
	defer s.logTranscript()
	s.openChat()
	s.chatSend("First.")
	s.waitChat("Noted.")
	s.chatSend("Second.")
	s.waitChat("Nearly full.")
	s.waitStatus("context 98%")
	s.chatSend("Third.")
	s.waitChat("Went on from the summary.")
	// pre_tokens is the CLI's count: the last usage (980,005) and a few tokens more.
	if got := s.chatTranscript(); !strings.Contains(got, "─── Conversation compacted automatically (9800") {
		t.Errorf("the CLI's own compaction is not a line of the transcript:\n%s", got)
	}
	if got := s.chatRequest(3).UserText(); strings.Contains(got, "First.") || !strings.Contains(got, fakeapi.DefaultSummary) {
		t.Errorf("the request after the CLI's compaction carries %q, want the summary instead of the earlier prompts", got)
	}
}
