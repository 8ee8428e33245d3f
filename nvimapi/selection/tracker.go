package selection

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/claude-nvim/claude.nvim/mcp"
)

// MinInterval is the shortest time between two reads of the editor while
// the cursor keeps moving. The first move after a pause is read at once;
// the last move of a burst is read at most this long after it happened,
// which keeps the move-to-frame latency under 30 ms with room for the read.
const MinInterval = 16 * time.Millisecond

// Reader reads the text and range of a selection from the editor.
type Reader interface {
	ReadSelection(ctx context.Context, q Query) (*mcp.Selection, error)
}

// Clock is the tracker's time: the real one, or a test's.
type Clock interface {
	Now() time.Time
	// Alarm returns a channel that receives once Now has reached at.
	Alarm(at time.Time) <-chan time.Time
}

type realClock struct{}

func (realClock) Now() time.Time                      { return time.Now() }
func (realClock) Alarm(at time.Time) <-chan time.Time { return time.After(time.Until(at)) }

// Tracker follows cursor events and sends each new selection once.
// Observe is cheap and never blocks, so it can run on the goroutine that
// receives Neovim's notifications; reading and sending happen on Run's.
type Tracker struct {
	read  Reader
	send  func(*mcp.Selection)
	clock Clock
	log   *slog.Logger

	mu       sync.Mutex
	flush    *Query // a visual selection that just ended: read it before anything newer
	pending  *Query // the newest state not yet read
	visual   bool   // the last event was in visual mode
	held     *Pos   // cursor where visual mode ended; the selection stays until it moves
	heldBuf  int
	lastRead *Query // what was read last, to skip reading the same state again
	lastAt   time.Time
	latest   *mcp.Selection
	wake     chan struct{}
}

// NewTracker returns a tracker that reads with r and hands each new
// selection to send (which must not block for long). A nil clock is the
// real one.
func NewTracker(r Reader, send func(*mcp.Selection), clock Clock, log *slog.Logger) *Tracker {
	if clock == nil {
		clock = realClock{}
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Tracker{read: r, send: send, clock: clock, log: log, wake: make(chan struct{}, 1)}
}

// Observe records one editor event.
func (t *Tracker) Observe(e *Event) {
	if !e.File {
		// Claude's terminal, help, file trees...: keep whatever the user
		// selected before going there.
		return
	}
	q := queryOf(e)
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case q.Kind != Cursor:
		t.visual, t.held = true, nil
		t.pending = &q
	case t.visual:
		// Visual mode just ended. If its selection was not read yet it
		// must still be, even if the cursor moves on right away.
		t.visual = false
		if t.pending != nil && t.pending.Kind != Cursor {
			t.flush, t.pending = t.pending, nil
		}
		t.held, t.heldBuf = &q.End, q.Buf
		return
	case t.held != nil && q.Buf == t.heldBuf && q.End == *t.held:
		return
	default:
		t.held = nil
		t.pending = &q
	}
	t.poke()
}

func (t *Tracker) poke() {
	select {
	case t.wake <- struct{}{}:
	default:
	}
}

// Latest is the last selection sent, or nil.
func (t *Tracker) Latest() *mcp.Selection {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.latest
}

// Reset forgets all state, for a server restart: a new client should get
// the current selection, not be told nothing changed.
func (t *Tracker) Reset() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.flush, t.pending, t.lastRead, t.latest = nil, nil, nil, nil
}

// Resend makes the next read go out even when it finds what was sent
// last: the receiver changed (another session became current) and has not
// heard it. The latest selection stays for getCurrentSelection.
func (t *Tracker) Resend() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lastRead = nil
}

// next takes the query to read now, or says when to read one (zero when
// there is nothing to read).
func (t *Tracker) next(now time.Time) (q *Query, at time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.flush != nil {
		q, t.flush = t.flush, nil
		return q, time.Time{}
	}
	if t.pending == nil {
		return nil, time.Time{}
	}
	if at := t.lastAt.Add(MinInterval); at.After(now) {
		return nil, at
	}
	q, t.pending = t.pending, nil
	return q, time.Time{}
}

// Run reads and sends selections until ctx ends.
func (t *Tracker) Run(ctx context.Context) {
	for {
		q, at := t.next(t.clock.Now())
		if q != nil {
			t.readAndSend(ctx, q)
			continue
		}
		var alarm <-chan time.Time // nil: nothing to wait for but an event
		if !at.IsZero() {
			alarm = t.clock.Alarm(at)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.wake:
		case <-alarm:
		}
	}
}

func (t *Tracker) readAndSend(ctx context.Context, q *Query) {
	t.mu.Lock()
	same := t.lastRead != nil && *t.lastRead == *q
	t.mu.Unlock()
	if same {
		return
	}
	sel, err := t.read.ReadSelection(ctx, *q)
	t.mu.Lock()
	t.lastAt = t.clock.Now()
	if err != nil || sel == nil {
		t.mu.Unlock()
		if err != nil {
			t.log.Debug("read selection", "path", q.Path, "err", err)
		}
		return
	}
	t.lastRead = q
	if t.latest != nil && *t.latest == *sel {
		t.mu.Unlock()
		return
	}
	t.latest = sel
	t.mu.Unlock()
	t.send(sel)
}
