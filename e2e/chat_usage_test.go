package e2e

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

// Usage (issue 39, item 3): the CLI's tokens and cost so far in the winbar's context meter
// and in :Claude chat usage, by model; the plan's windows where the CLI reports them (an API
// key, as here, has none, and the list says so).

func TestTheChatShowsTheCLIsTokensAndCostInTheWinbarAndUsage(t *testing.T) {
	t.Parallel()
	used := func(text string) fakeapi.Turn {
		return fakeapi.Turn{Text: text, Usage: &fakeapi.Usage{Input: 1000, Output: 500, CacheRead: 200}}
	}
	s := newSession(t, used("First."), used("Second."))
	t.Cleanup(s.logTranscript)
	s.openChat()
	s.chatSend("One")
	s.waitChat("First.")
	s.turnDone(1)
	s.waitStatus("1.7k tokens · $")
	s.chatSend("Two")
	s.waitChat("Second.")
	s.turnDone(2)
	// The turn's end line says what the CLI spent since it started: the meter says the same.
	cost := regexp.MustCompile(`\$([0-9.]+) \(this run\)`).FindAllStringSubmatch(s.chatTranscript(), -1)
	if len(cost) != 2 {
		t.Fatalf("the transcript has %d turn costs, want 2", len(cost))
	}
	s.waitStatus("3.4k tokens · $" + cost[1][1])

	s.nv.Cmd("ClaudeChatUsage")
	lines := s.waitPanel("usage",
		fmt.Sprintf("Session: 2400 tokens in, 1000 out · $%s", cost[1][1]),
		": 2000 in, 1000 out, 400 cache read, 0 cache write · $"+cost[1][1],
		"Plan: none reported (an API key or a provider: no plan windows)")
	if !regexp.MustCompile(`(?m)^Context window: [1-9][0-9]* of [1-9][0-9]* tokens$`).MatchString(strings.Join(lines, "\n")) {
		t.Errorf("the usage list lacks the context window's figures:\n%s", strings.Join(lines, "\n"))
	}
}
