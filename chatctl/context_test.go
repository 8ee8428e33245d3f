package chatctl_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/host"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// heldTimers stands in for time.AfterFunc: what is scheduled runs when the test says.
type heldTimers struct {
	mu   sync.Mutex
	held []func()
}

func (h *heldTimers) after(_ time.Duration, f func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.held = append(h.held, f)
}

// fire runs what was scheduled so far, in order, and returns how many ran.
func (h *heldTimers) fire() int {
	h.mu.Lock()
	held := h.held
	h.held = nil
	h.mu.Unlock()
	for _, f := range held {
		f()
	}
	return len(held)
}

// The winbar's figures are asked of the CLI after a turn, on the thread that takes the next
// message: a message sent at once (one queued during the turn) goes first, and the refresh
// comes after its own turn.
func TestAMessageSentRightAfterATurnGoesToTheCLIBeforeTheWinbarsRefresh(t *testing.T) {
	timers := &heldTimers{}
	e := newChatEnv(t, func(o *host.Options) { o.ChatAfter = timers.after })
	e.nv.Cmd("ClaudeChat")
	e.prompt("stream once")
	e.waitTranscript("Hello from the stand-in.")
	turnEnded := func(n int) func() bool {
		return func() bool { return strings.Count(e.transcript(), " tokens in, ") == n }
	}
	nvimtest.Wait(t, "the first turn to end", waitTimeout, turnEnded(1))
	e.prompt("be slow") // a turn that runs until interrupted
	e.recorded("be slow")
	timers.fire() // the refreshes the start and the first turn asked for, now stale
	if got := readFile(t, e.record); strings.Contains(got, "get_context_usage") {
		t.Fatalf("the CLI was asked for the context around the second message, which was sent at once:\n%s", got)
	}
	e.nv.Cmd("ClaudeChatInterrupt")
	nvimtest.Wait(t, "the second turn to end", waitTimeout, turnEnded(2))
	nvimtest.Wait(t, "the second turn's refresh to be asked for", waitTimeout, func() bool { return timers.fire() > 0 })
	got := e.recorded(`"subtype":"get_context_usage"`)
	if strings.Index(got, "get_context_usage") < strings.Index(got, "be slow") {
		t.Errorf("the refresh went to the CLI before the second message:\n%s", got)
	}
}
