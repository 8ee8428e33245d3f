package nvimapi

import (
	"context"
	"sync"
	"time"
)

// After Claude writes a file the CLI asks for diagnostics within
// milliseconds, before anything has looked at the new text. When that
// question reloads a buffer, we give whoever produces its diagnostics a
// moment to publish: a language server attached to it up to
// lspSettleTimeout, any other source (linters on BufReadPost, scripts)
// otherSettleTimeout. The wait ends as soon as each reloaded buffer had a
// DiagnosticChanged.
const (
	lspSettleTimeout   = 2 * time.Second
	otherSettleTimeout = 400 * time.Millisecond
)

// diagnosticEvents counts DiagnosticChanged per file and wakes waiters.
type diagnosticEvents struct {
	mu      sync.Mutex
	count   map[string]uint64
	changed chan struct{} // closed and replaced on every event
}

func newDiagnosticEvents() *diagnosticEvents {
	return &diagnosticEvents{count: map[string]uint64{}, changed: make(chan struct{})}
}

// DiagnosticsChanged records that path's diagnostics changed (the host
// calls it from the DiagnosticChanged autocmd).
func (e *Editor) DiagnosticsChanged(path string) {
	d := e.diagEvents
	d.mu.Lock()
	d.count[path]++
	close(d.changed)
	d.changed = make(chan struct{})
	d.mu.Unlock()
}

func (d *diagnosticEvents) snapshot() map[string]uint64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	snap := make(map[string]uint64, len(d.count))
	for k, v := range d.count {
		snap[k] = v
	}
	return snap
}

// await waits until every path had an event after snap, or timeout, or ctx.
func (d *diagnosticEvents) await(ctx context.Context, snap map[string]uint64, paths []string, timeout time.Duration) {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		d.mu.Lock()
		done := true
		for _, p := range paths {
			if d.count[p] <= snap[p] {
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

type reloadedBuffer struct {
	Path string `msgpack:"path"`
	LSP  bool   `msgpack:"lsp"`
}

// awaitReloaded waits for the diagnostics of buffers just reloaded (events
// counted from snap on).
func (e *Editor) awaitReloaded(ctx context.Context, snap map[string]uint64, reloaded []reloadedBuffer) {
	timeout := otherSettleTimeout
	paths := make([]string, 0, len(reloaded))
	for _, b := range reloaded {
		paths = append(paths, b.Path)
		if b.LSP {
			timeout = lspSettleTimeout
		}
	}
	e.diagEvents.await(ctx, snap, paths, timeout)
}
