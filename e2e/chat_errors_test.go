package e2e

import (
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// API trouble is shown as it happens (issue 22.4): each retry, then the error the turn ended
// on with its status and the API's message, and the chat takes the next message.

// A 500 the CLI retried until it gave up. CLAUDE_CODE_MAX_RETRIES (the CLI's own setting)
// keeps it to two retries; the default ten take minutes.
func TestAChatShowsTheRetriesAndThenTheAPIErrorATurnEndedOn(t *testing.T) {
	t.Parallel()
	const message = "The stand-in is down for maintenance"
	s := newSession(t, fakeapi.Failures(3, fakeapi.Failure(500, "api_error", message))...)
	t.Cleanup(s.logTranscript)
	s.nv.Lua(nil, `vim.env.CLAUDE_CODE_MAX_RETRIES = '2'`)
	s.openChat()
	s.chatSend("Are you there?")
	nvimtest.Wait(t, "the turn to end", turnTimeout, func() bool {
		return strings.Contains(s.chatTranscript(), " tokens in, ")
	})
	got := s.chatTranscript()
	var at []int
	for _, want := range []string{
		"_Retrying: API error 500 (server_error), attempt 1 of 2 in ",
		"_Retrying: API error 500 (server_error), attempt 2 of 2 in ",
		"**Error:** API error 500",
	} {
		i := strings.Index(got, want)
		if i < 0 {
			t.Fatalf("the transcript lacks %q:\n%s", want, got)
		}
		at = append(at, i)
	}
	if !(at[0] < at[1] && at[1] < at[2]) {
		t.Errorf("the retries and the error are out of order:\n%s", got)
	}
	if errLine, _, _ := strings.Cut(got[at[2]:], "\n"); !strings.Contains(errLine, message) {
		t.Errorf("the error line %q lacks the API's message %q", errLine, message)
	}
	if strings.Contains(got, "**Error:** success") || strings.Contains(got, "API Error") {
		t.Errorf("the failure shows the result's subtype or the CLI's raw message as text:\n%s", got)
	}
	s.api.Push(fakeapi.Say("Back in service."))
	s.chatSend("And now?")
	s.waitChat("Back in service.")
}

// A 400 is not retried (no api_retry; 2.1.332 sends it again a few times at once with other
// request options, then gives up): the turn ends with the API's message and the next message
// gets its answer.
func TestAChatEndsATurnOnANonRetriedAPIErrorAndTakesTheNextMessage(t *testing.T) {
	t.Parallel()
	const message = "messages.0.content: the stand-in refuses this request"
	s := newSession(t, fakeapi.Failures(20, fakeapi.Failure(400, "invalid_request_error", message))...)
	t.Cleanup(s.logTranscript)
	s.openChat()
	s.chatSend("Something the API refuses")
	nvimtest.Wait(t, "the turn to end on the error", turnTimeout, func() bool {
		return strings.Contains(s.chatTranscript(), " tokens in, ")
	})
	got := s.chatTranscript()
	i := strings.Index(got, "**Error:** API error 400")
	if i < 0 {
		t.Fatalf("the transcript shows no API error 400:\n%s", got)
	}
	if line, _, _ := strings.Cut(got[i:], "\n"); !strings.Contains(line, message) {
		t.Errorf("the error line %q lacks the API's message %q", line, message)
	}
	if strings.Contains(got, "Retrying") || strings.Contains(got, "**Error:** success") {
		t.Errorf("a 400 shows a retry or the result's subtype:\n%s", got)
	}
	s.api.Replace(fakeapi.Say("Accepted this time."))
	s.chatSend("Something it accepts")
	s.waitChat("Accepted this time.")
}
