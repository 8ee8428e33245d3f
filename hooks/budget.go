package hooks

import (
	"errors"
	"io"
	"net"
	"sync"
)

// What the receiver holds at once is bounded: any process of the user's can connect, and 300
// unfinished 4 MiB events from one of them took the host from 17 MiB to 2 GiB (issue 35).
// The CLI sends a session's events one at a time (a few at once when tools run in
// parallel), so the limits are far above what the CLIs of one editor send and far below what
// a flood would take.
const (
	// maxServing is how many connections are served at once; one more is answered empty at
	// once (its hook prints nothing, Claude goes on).
	maxServing = 64
	// eventBudget is the bytes of events held at once, being read or handled; an event that
	// does not fit is answered empty at once. Eight events of maxEvent fit.
	eventBudget = 32 << 20
	// firstBuffer is an event's first buffer; it doubles as the event comes, up to maxEvent.
	firstBuffer = 64 << 10
)

// limits are a Receiver's bounds (the constants above; tests make them small).
type limits struct {
	serving int // connections served at once
	bytes   int // bytes of events held at once
}

// errOverBudget: the event does not fit in what the receiver may hold now.
var errOverBudget = errors.New("hooks: over the memory budget for events")

// budget counts the bytes of events the receiver holds.
type budget struct {
	mu   sync.Mutex
	left int
	held int
	peak int // the most held at once (the bound tests read it)
}

func newBudget(size int) *budget { return &budget{left: size} }

// take reserves n bytes, or says no without waiting: a waiting event would hold its
// connection, and the CLI's hook, for nothing.
func (b *budget) take(n int) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n > b.left {
		return false
	}
	b.left -= n
	b.held += n
	b.peak = max(b.peak, b.held)
	return true
}

// give returns n bytes taken before.
func (b *budget) give(n int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.left += n
	b.held -= n
}

// maxHeld is the most the budget held at once.
func (b *budget) maxHeld() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.peak
}

// readEvent reads one event, to the client's half-close, into a buffer the budget pays for:
// held is what the caller must give back. Past maxEvent the rest is drained (read, not
// kept) so that the hook's write ends and it reads the answer; cut says so. A buffer grows by
// doubling, the new one reserved before the old one is given back, so what is held never
// exceeds what was reserved.
func readEvent(conn net.Conn, b *budget) (data []byte, held int, cut bool, err error) {
	for {
		if len(data) == cap(data) {
			if cap(data) >= maxEvent {
				_, err = io.Copy(io.Discard, conn)
				return data, held, true, err
			}
			size := min(max(2*cap(data), firstBuffer), maxEvent)
			if !b.take(size) {
				return nil, held, false, errOverBudget
			}
			grown := make([]byte, len(data), size)
			copy(grown, data)
			b.give(held)
			data, held = grown, size
		}
		n, rerr := conn.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if errors.Is(rerr, io.EOF) {
			return data, held, false, nil
		}
		if rerr != nil {
			return data, held, false, rerr
		}
	}
}

// size is what the budget holds in all.
func (b *budget) size() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.left + b.held
}
