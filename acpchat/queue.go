package acpchat

import (
	"context"
	"io"
	"sync"

	"github.com/claude-nvim/claude.nvim/chat"
)

// queue hands the chat's events to the controller in batches (Backend.Next), merging
// consecutive text and thinking chunks: a streamed answer of ten thousand chunks is a few
// dozen renders, not ten thousand. After chat.Exited nothing more is taken, and Next
// returns io.EOF once it was handed out.
type queue struct {
	mu     sync.Mutex
	evs    []chat.Event
	closed bool // Exited was put
	wake   chan struct{}
}

func newQueue() *queue { return &queue{wake: make(chan struct{}, 1)} }

func (q *queue) put(evs ...chat.Event) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return
	}
	for _, ev := range evs {
		q.evs = appendMerged(q.evs, ev)
		if _, ok := ev.(chat.Exited); ok {
			q.closed = true
			break
		}
	}
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// appendMerged appends ev, merged into the last event when both are chunks of one kind.
func appendMerged(evs []chat.Event, ev chat.Event) []chat.Event {
	if n := len(evs); n > 0 {
		switch e := ev.(type) {
		case chat.TextDelta:
			if last, ok := evs[n-1].(chat.TextDelta); ok {
				evs[n-1] = chat.TextDelta{Text: last.Text + e.Text}
				return evs
			}
		case chat.ThinkingDelta:
			if last, ok := evs[n-1].(chat.ThinkingDelta); ok {
				evs[n-1] = chat.ThinkingDelta{Text: last.Text + e.Text}
				return evs
			}
		}
	}
	return append(evs, ev)
}

func (q *queue) next(ctx context.Context) ([]chat.Event, error) {
	for {
		q.mu.Lock()
		if len(q.evs) > 0 {
			evs := q.evs
			q.evs = nil
			q.mu.Unlock()
			return evs, nil
		}
		closed := q.closed
		q.mu.Unlock()
		if closed {
			return nil, io.EOF
		}
		select {
		case <-q.wake:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}
