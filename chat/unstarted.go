package chat

import (
	"context"
	"maps"
	"slices"
	"sync"
)

// unstarted are the messages sent with SendAs that no turn has taken in yet, for Close to
// withdraw: left in the CLI's queue, one would run as the next turn after the interrupt.
type unstarted struct {
	mu      sync.Mutex
	queued  map[string]bool // by id: whether the CLI has said it queued it
	changed chan struct{}   // closed and replaced whenever queued changes
}

func newUnstarted() *unstarted {
	return &unstarted{queued: map[string]bool{}, changed: make(chan struct{})}
}

func (u *unstarted) update(f func()) {
	u.mu.Lock()
	defer u.mu.Unlock()
	f()
	close(u.changed)
	u.changed = make(chan struct{})
}

// sent records a message written to the CLI.
func (u *unstarted) sent(id string) { u.update(func() { u.queued[id] = false }) }

// cliQueued records the CLI's "queued" for id.
func (u *unstarted) cliQueued(id string) {
	u.update(func() {
		if _, ok := u.queued[id]; ok {
			u.queued[id] = true
		}
	})
}

// forget drops id, taken in by a turn or gone; "" drops them all.
func (u *unstarted) forget(id string) {
	u.update(func() {
		if id == "" {
			clear(u.queued)
			return
		}
		delete(u.queued, id)
	})
}

// ids are the messages no turn has taken in yet.
func (u *unstarted) ids() []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return slices.Sorted(maps.Keys(u.queued))
}

// awaitQueued waits until the CLI has queued (or started) every message written to it, or
// ctx ends. The CLI answers a control request before it has queued a user line read just
// before it: withdrawn too early, a message is not found, and it runs.
func (u *unstarted) awaitQueued(ctx context.Context) {
	for {
		u.mu.Lock()
		all, changed := true, u.changed
		for _, q := range u.queued {
			all = all && q
		}
		u.mu.Unlock()
		if all {
			return
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return
		}
	}
}
