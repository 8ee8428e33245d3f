package nvimapi

import (
	"context"
	"sync"
	"time"
)

// Waiting for fresh diagnostics lives here, whole: the DiagnosticChanged
// events (the host's one handler passes them in), which reloads count as
// fresh, and how long to wait for them. Lua only reports the facts it
// alone knows: which buffers it reloaded, how long ago, and at which
// b:changedtick (lua/claude/tools.lua refresh, reload.lua take_fresh).
//
// After Claude writes a file the CLI asks for diagnostics within
// milliseconds, before anything has looked at the new text. When a buffer
// was reloaded for that write, at most reloadFreshFor ago (by the question
// itself, by the watcher after an accepted diff, or by the BufEnter of the
// diff closing when the write beat it), we give whoever produces its
// diagnostics a moment to publish: a language server attached to it up to
// lspSettleTimeout, any other source (linters on BufReadPost, scripts)
// otherSettleTimeout. The wait ends as soon as each such buffer
// had a DiagnosticChanged at or after its reload.
const (
	lspSettleTimeout   = 2 * time.Second
	otherSettleTimeout = 400 * time.Millisecond
	reloadFreshFor     = 2 * time.Second
)

// DiagnosticEvent is captured when DiagnosticChanged fires (the host's
// autocmd handler; Neovim evaluates the eval tags).
type DiagnosticEvent struct {
	Buf  int    `msgpack:"buf" eval:"str2nr(expand('<abuf>'))"`
	Path string `msgpack:"path" eval:"expand('<afile>:p')"`
	// The buffer's b:changedtick: diagnostics published at or after a
	// reload's tick are for the reloaded text.
	Tick int `msgpack:"tick" eval:"getbufvar(str2nr(expand('<abuf>')), 'changedtick')"`
	// Whether the buffer holds a file (lua/claude/tools.lua is_file_buf,
	// the plugin's one rule).
	File bool `msgpack:"file" eval:"v:lua.require'claude.handlers'.is_file_buf(str2nr(expand('<abuf>')))"`
}

// diagnosticEvents remembers, per buffer, the b:changedtick of its latest
// DiagnosticChanged, and wakes waiters on every event.
type diagnosticEvents struct {
	mu      sync.Mutex
	tick    map[int]int   // buffer -> b:changedtick at its latest event
	changed chan struct{} // closed and replaced on every event
}

func newDiagnosticEvents() *diagnosticEvents {
	return &diagnosticEvents{tick: map[int]int{}, changed: make(chan struct{})}
}

// DiagnosticsChanged records a DiagnosticChanged (the host passes every
// one, whether the server runs or not).
func (e *Editor) DiagnosticsChanged(ev *DiagnosticEvent) {
	d := e.diagEvents
	d.mu.Lock()
	if ev.Tick > d.tick[ev.Buf] {
		d.tick[ev.Buf] = ev.Tick
	}
	close(d.changed)
	d.changed = make(chan struct{})
	d.mu.Unlock()
}

// reloadedBuffer is a buffer Lua reloaded because its file changed on disk.
type reloadedBuffer struct {
	Buf   int  `msgpack:"buf"`
	Tick  int  `msgpack:"tick"`   // b:changedtick right after the reload
	LSP   bool `msgpack:"lsp"`    // a language server is attached: it will publish
	AgeMS int  `msgpack:"age_ms"` // how long ago it was reloaded
}

// unsettled keeps the buffers reloaded recently enough whose diagnostics
// have not changed since.
func (d *diagnosticEvents) unsettled(reloaded []reloadedBuffer) []reloadedBuffer {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []reloadedBuffer
	for _, b := range reloaded {
		if time.Duration(b.AgeMS)*time.Millisecond <= reloadFreshFor && d.tick[b.Buf] < b.Tick {
			out = append(out, b)
		}
	}
	return out
}

// await waits until every buffer had an event at or after its reload, or
// timeout, or ctx.
func (d *diagnosticEvents) await(ctx context.Context, bufs []reloadedBuffer, timeout time.Duration) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		d.mu.Lock()
		done := true
		for _, b := range bufs {
			if d.tick[b.Buf] < b.Tick {
				done = false
				break
			}
		}
		wake := d.changed
		d.mu.Unlock()
		if done {
			return
		}
		select {
		case <-wake:
		case <-deadline.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// awaitReloaded waits for the diagnostics of buffers just reloaded, and
// reports whether what was read with the reload may be stale: it is when
// a buffer was reloaded recently, even if its diagnostics have come
// already, since they may have come after that read (a linter answering a
// moment after the reload, heard of before we looked: the stale read was
// the answer, seen under load).
func (e *Editor) awaitReloaded(ctx context.Context, reloaded []reloadedBuffer) bool {
	recent := false
	for _, b := range reloaded {
		recent = recent || time.Duration(b.AgeMS)*time.Millisecond <= reloadFreshFor
	}
	if !recent {
		return false
	}
	waiting := e.diagEvents.unsettled(reloaded)
	if len(waiting) == 0 {
		return true
	}
	timeout := otherSettleTimeout
	for _, b := range waiting {
		if b.LSP {
			timeout = lspSettleTimeout
		}
	}
	e.diagEvents.await(ctx, waiting, timeout)
	return true
}
