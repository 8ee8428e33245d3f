package mcp

import (
	"sync"
	"time"
)

// workerIdle is how long a goroutine that ran a tool call waits for the
// next one before it exits: long enough to span the calls of one turn of
// the CLI, short enough that an idle server holds none.
const workerIdle = 30 * time.Second

// workers runs each tool call on a goroutine of its own, reusing one that
// finished a call recently when there is one. A fresh goroutine starts with
// a small stack and grows it, by copying, on every call through the JSON
// encoder: that was an eighth of the CPU of a cheap tool call. A reused
// goroutine has grown already. Calls never wait for a worker: with none
// idle, a new goroutine starts at once.
type workers struct {
	jobs     chan func() // unbuffered: a send succeeds only with a worker idle
	quit     chan struct{}
	quitOnce sync.Once
}

func newWorkers() *workers {
	return &workers{jobs: make(chan func()), quit: make(chan struct{})}
}

// run starts f on an idle worker or a new goroutine; it never blocks.
func (w *workers) run(f func()) {
	select {
	case w.jobs <- f:
	default:
		go w.work(f)
	}
}

func (w *workers) work(f func()) {
	idle := time.NewTimer(workerIdle)
	defer idle.Stop()
	for {
		f()
		f = nil // let the finished call's closure go while idle
		idle.Reset(workerIdle)
		select {
		case f = <-w.jobs:
		case <-idle.C:
			return
		case <-w.quit:
			return
		}
	}
}

// stop makes the idle workers exit (Server.Close); busy ones exit after
// their call.
func (w *workers) stop() {
	w.quitOnce.Do(func() { close(w.quit) })
}
