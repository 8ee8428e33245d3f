package e2e

import (
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

// When the API fails the CLI retries (system/api_retry, up to ten times with growing
// pauses); the chat says so instead of looking stuck.
func TestAChatSaysWhenTheCLIRetriesAFailedAPIRequest(t *testing.T) {
	t.Parallel()
	s := newSession(t, fakeapi.Overloaded(), fakeapi.Say("Here after all."))
	t.Cleanup(s.logTranscript)
	s.openChat()
	s.chatSend("Are you there?")
	s.waitChat("Here after all.")
	got := s.chatTranscript()
	want := "_Retrying: API error 529 (overloaded), attempt 1 of "
	if !strings.Contains(got, want) {
		t.Errorf("the transcript lacks %q:\n%s", want, got)
	}
	if i, j := strings.Index(got, want), strings.Index(got, "Here after all."); i > j {
		t.Errorf("the retry note comes after the answer:\n%s", got)
	}
}
