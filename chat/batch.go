package chat

import (
	"context"
	"io"
	"strings"
	"sync"
	"time"
)

// DefaultBatchWindow is the shortest time between two batches, so a renderer is called at most
// 250 times a second however fast the model streams. A delta waits for its batch half a window
// on average: at 16 ms (a frame) that was 8 of the 11 ms from the API to the chat buffer while
// streaming 1 MiB, at 4 ms it is 2 of about 4. A renderer slower than the window sets the pace
// itself: the batch grows while it works (the reader never waits).
const DefaultBatchWindow = 4 * time.Millisecond

// Delta kinds a batch merges.
const (
	tailNone = iota
	tailText
	tailThinking
	tailToolInput
)

// batcher collects events from the reader and hands them to one consumer in batches: at most
// one batch per window, the first event after a quiet window at once (so a lone event is not
// delayed), events a user waits on (a permission request, the end of a turn) at once too. A
// run of consecutive deltas of one kind becomes one event. The reader never waits for the
// consumer: while it is busy, events pile up (and merge) in the pending batch.
type batcher struct {
	window time.Duration
	ready  chan struct{} // holds a token when Next should look again
	timer  *time.Timer

	mu        sync.Mutex
	pending   []Event
	tail      strings.Builder // the text of the delta run not yet in pending
	tailKind  int
	tailID    string // tool use id of a tailToolInput run
	due       bool   // pending may be handed out now
	timerOn   bool
	lastFlush time.Time
	closed    bool
}

// newBatcher makes a batcher; a window of 0 or less hands out every event on its own.
func newBatcher(window time.Duration) *batcher {
	b := &batcher{window: window, ready: make(chan struct{}, 1)}
	b.timer = time.AfterFunc(time.Hour, b.fire)
	b.timer.Stop()
	return b
}

func (b *batcher) signal() {
	select {
	case b.ready <- struct{}{}:
	default:
	}
}

func (b *batcher) fire() {
	b.mu.Lock()
	b.timerOn = false
	b.due = true
	b.mu.Unlock()
	b.signal()
}

// add queues one event. Events after close are dropped.
func (b *batcher) add(ev Event) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return
	}
	urgent := false
	switch ev := ev.(type) {
	case TextDelta:
		b.addTail(tailText, "", ev.Text)
	case ThinkingDelta:
		b.addTail(tailThinking, "", ev.Text)
	case ToolInputDelta:
		b.addTail(tailToolInput, ev.ID, ev.JSON)
	case PermissionRequest, PermissionCancelled, TurnEnd, Exited:
		urgent = true
		b.flushTail()
		b.pending = append(b.pending, ev)
	default:
		b.flushTail()
		b.pending = append(b.pending, ev)
	}
	b.schedule(urgent)
}

// schedule decides when the pending batch is due. Called with mu held.
func (b *batcher) schedule(urgent bool) {
	if b.due {
		b.signal()
		return
	}
	wait := b.window - time.Since(b.lastFlush)
	if urgent || wait <= 0 {
		b.due = true
		b.signal()
		return
	}
	if !b.timerOn {
		b.timerOn = true
		b.timer.Reset(wait)
	}
}

func (b *batcher) addTail(kind int, id, s string) {
	if b.tailKind != kind || b.tailID != id {
		b.flushTail()
		b.tailKind, b.tailID = kind, id
	}
	b.tail.WriteString(s)
}

// flushTail turns the delta run into one event at the end of pending.
func (b *batcher) flushTail() {
	if b.tailKind == tailNone {
		return
	}
	s := b.tail.String()
	b.tail = strings.Builder{} // s keeps the old buffer
	switch b.tailKind {
	case tailText:
		b.pending = append(b.pending, TextDelta{Text: s})
	case tailThinking:
		b.pending = append(b.pending, ThinkingDelta{Text: s})
	case tailToolInput:
		b.pending = append(b.pending, ToolInputDelta{ID: b.tailID, JSON: s})
	}
	b.tailKind, b.tailID = tailNone, ""
}

// close marks the end: Next hands out what is left, then io.EOF.
func (b *batcher) close() {
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	b.signal()
}

// next waits for the next batch. It returns io.EOF after the last one.
func (b *batcher) next(ctx context.Context) ([]Event, error) {
	for {
		b.mu.Lock()
		if b.due || b.closed {
			b.flushTail()
			if len(b.pending) > 0 {
				out := b.pending
				b.pending = nil
				b.due = false
				b.lastFlush = time.Now()
				if b.timerOn {
					b.timer.Stop()
					b.timerOn = false
				}
				b.mu.Unlock()
				return out, nil
			}
			b.due = false
			if b.closed {
				b.mu.Unlock()
				return nil, io.EOF
			}
		}
		b.mu.Unlock()
		select {
		case <-b.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}
