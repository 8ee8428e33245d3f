package chat

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

// Hooks registered with initialize reach the handler, which the CLI waits for: the
// UserPromptSubmit answer's additionalContext is in the request to the model, and a tool's
// PreToolUse and PostToolUse name it.
func TestCLIHooksAreAnsweredOverTheControlChannel(t *testing.T) {
	r := newCLIRun(t)
	file := filepath.Join(r.env.Project, "greet.txt")
	if err := os.WriteFile(file, []byte("hello world\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.api.Push(fakeapi.Read(file), fakeapi.Say("It says hello."))
	var mu sync.Mutex
	var seen []string
	handler := func(_ context.Context, input json.RawMessage) (json.RawMessage, error) {
		var e struct {
			Name   string `json:"hook_event_name"`
			Prompt string `json:"prompt"`
			Tool   string `json:"tool_name"`
		}
		if err := json.Unmarshal(input, &e); err != nil {
			return nil, err
		}
		mu.Lock()
		seen = append(seen, strings.TrimSpace(e.Name+" "+e.Tool+e.Prompt))
		mu.Unlock()
		if e.Name == "UserPromptSubmit" {
			return json.RawMessage(`{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"NOTE-FROM-THE-HOOK"}}`), nil
		}
		return nil, nil
	}
	s := r.start(Options{HookHandler: handler, Hooks: []Hook{
		{Event: "UserPromptSubmit", Timeout: 30 * time.Second},
		{Event: "PreToolUse", Matcher: "*", Timeout: 30 * time.Second},
		{Event: "PostToolUse", Matcher: "*", Timeout: 30 * time.Second},
	}})
	if _, err := s.Initialize(r.ctx); err != nil {
		t.Fatal(err)
	}
	r.send("what is in greet.txt?")
	r.turnEnd()
	mu.Lock()
	got := strings.Join(seen, " | ")
	mu.Unlock()
	for _, want := range []string{"UserPromptSubmit what is in greet.txt?", "PreToolUse Read", "PostToolUse Read"} {
		if !strings.Contains(got, want) {
			t.Errorf("the handler saw %q; want %q in it", got, want)
		}
	}
	if main := r.api.Main(); len(main) == 0 || !strings.Contains(main[0].UserText(), "NOTE-FROM-THE-HOOK") {
		t.Errorf("the hook's additionalContext is not in the first request to the model")
	}
}
