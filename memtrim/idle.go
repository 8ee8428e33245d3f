package memtrim

import (
	"sync"
	"time"
)

// Idle runs trim once after each spell of activity, when Kick has not been called for quiet.
// Its methods are safe for concurrent use; Kick is cheap enough to call on every message.
type Idle struct {
	quiet time.Duration
	trim  func()

	mu      sync.Mutex
	timer   *time.Timer
	stopped bool
}

// NewIdle returns an Idle that has seen no activity yet: trim waits for the first Kick.
func NewIdle(quiet time.Duration, trim func()) *Idle {
	return &Idle{quiet: quiet, trim: trim}
}

// Kick records activity: trim runs quiet after the last Kick.
func (i *Idle) Kick() {
	i.mu.Lock()
	defer i.mu.Unlock()
	if i.stopped {
		return
	}
	if i.timer == nil {
		i.timer = time.AfterFunc(i.quiet, i.trim)
		return
	}
	i.timer.Reset(i.quiet)
}

// Stop cancels a pending trim; later Kicks do nothing.
func (i *Idle) Stop() {
	i.mu.Lock()
	defer i.mu.Unlock()
	i.stopped = true
	if i.timer != nil {
		i.timer.Stop()
	}
}
