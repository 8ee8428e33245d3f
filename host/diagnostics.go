package host

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/claude-nvim/claude.nvim/mcp"
)

// diagnosticsDelay coalesces the bursts of DiagnosticChanged a language
// server produces while the user types (one per publish, per namespace).
const diagnosticsDelay = 100 * time.Millisecond

// diagnosticsReader is the part of the editor the notifier needs.
type diagnosticsReader interface {
	ReadDiagnostics(ctx context.Context, path string) ([]mcp.FileDiagnostics, error)
}

// diagnosticsNotifier sends diagnostics_changed for files whose
// diagnostics changed, at most once per delay per burst.
type diagnosticsNotifier struct {
	read diagnosticsReader
	send func(mcp.FileDiagnostics)
	log  *slog.Logger

	mu      sync.Mutex
	changed map[string]bool
	wake    chan struct{}
}

func newDiagnosticsNotifier(r diagnosticsReader, send func(mcp.FileDiagnostics), log *slog.Logger) *diagnosticsNotifier {
	return &diagnosticsNotifier{read: r, send: send, log: log, changed: map[string]bool{}, wake: make(chan struct{}, 1)}
}

// Changed records that path's diagnostics changed; it never blocks.
func (n *diagnosticsNotifier) Changed(path string) {
	n.mu.Lock()
	n.changed[path] = true
	n.mu.Unlock()
	select {
	case n.wake <- struct{}{}:
	default:
	}
}

// Run reads and sends changed diagnostics until ctx ends.
func (n *diagnosticsNotifier) Run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-n.wake:
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(diagnosticsDelay):
		}
		n.mu.Lock()
		paths := n.changed
		n.changed = map[string]bool{}
		n.mu.Unlock()
		for path := range paths {
			files, err := n.read.ReadDiagnostics(ctx, path)
			if err != nil {
				n.log.Debug("read diagnostics", "path", path, "err", err)
				continue
			}
			for _, fd := range files {
				n.send(fd)
			}
		}
	}
}
