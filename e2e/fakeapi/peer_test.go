package fakeapi_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

// The prompt suggestion 2.1.332 asks for after each turn when its SDK client wants one (the
// peer chat's agent does): tools offered like a main request, the last user text opening
// with "[SUGGESTION MODE:".
const suggestionBody = `{"model":"claude-opus-4-8","stream":true,"max_tokens":64000,
 "tools":[{"name":"Read"},{"name":"Edit"}],
 "messages":[{"role":"user","content":[{"type":"text","text":"Say hello"}]},
  {"role":"assistant","content":[{"type":"text","text":"Hello."}]},
  {"role":"user","content":[{"type":"text","text":"[SUGGESTION MODE: Suggest what the user might naturally type next into Claude Code.]"}]}]}`

func TestAPromptSuggestionRequestIsASideRequest(t *testing.T) {
	api := fakeapi.New(t, fakeapi.Say("the scripted answer"))
	events := sseEvents(t, post(t, api.URL(), suggestionBody))
	if got := events[2]["delta"].(map[string]any)["text"]; got != fakeapi.SideText {
		t.Errorf("the suggestion request got %v, want the canned side answer %q", got, fakeapi.SideText)
	}
	if api.Remaining() != 1 || len(api.Main()) != 0 {
		t.Errorf("after a suggestion request: %d turns left, %d main requests; want the turn kept for the conversation", api.Remaining(), len(api.Main()))
	}
}

func TestSentSeesEachStreamedTextDeltaInOrder(t *testing.T) {
	var mu sync.Mutex
	var sent []string
	turn := fakeapi.Stream("abcdefghij", 4, 0)
	turn.Sent = func(delta string) {
		mu.Lock()
		defer mu.Unlock()
		sent = append(sent, delta)
	}
	api := fakeapi.New(t, turn)
	post(t, api.URL(), mainBody)
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(sent, "|"); got != "abcd|efgh|ij" {
		t.Errorf("Sent saw %q, want each delta once, in order (abcd|efgh|ij)", got)
	}
}
