package mcp

import (
	"log/slog"
	"runtime/debug"
	"sync"
)

// callbackQueue runs the Config callbacks one at a time, in the order the
// events happened, on a goroutine that exists only while there is work. A
// slow callback therefore delays later callbacks but never a connection,
// and Ready for a client always runs before its Gone.
type callbackQueue struct {
	wg  *sync.WaitGroup // Server.wg, so Close waits for queued callbacks
	log *slog.Logger

	mu      sync.Mutex
	pending []func()
	running bool
}

// push queues f. Callers hold a count in wg (a connection or call), so
// the Add below never races Close's Wait.
func (q *callbackQueue) push(f func()) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.pending = append(q.pending, f)
	if !q.running {
		q.running = true
		q.wg.Add(1)
		go q.run()
	}
}

func (q *callbackQueue) run() {
	defer q.wg.Done()
	for {
		q.mu.Lock()
		if len(q.pending) == 0 {
			q.running = false
			q.mu.Unlock()
			return
		}
		f := q.pending[0]
		q.pending = q.pending[1:]
		q.mu.Unlock()
		q.call(f)
	}
}

// call runs one callback; a panic in the host's callback is logged rather
// than taking the editor's plugin process down.
func (q *callbackQueue) call(f func()) {
	defer func() {
		if r := recover(); r != nil {
			q.log.Error("mcp: client callback panicked", "panic", r, "stack", string(debug.Stack()))
		}
	}()
	f()
}
