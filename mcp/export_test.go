package mcp

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
)

// Helpers shared with the external tests (package mcp_test), which cannot
// import unexported identifiers.

// NewTestLogger returns a debug logger whose output is shown only if the
// test fails, so every log call is exercised without cluttering passing
// runs. Create it before the server so its cleanup runs after the server's.
func NewTestLogger(t testing.TB) *slog.Logger {
	w := &LogBuffer{}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("server log:\n%s", w.String())
		}
	})
	return w.Logger()
}

// LogBuffer collects a server's log as text; it is safe for concurrent
// writes.
type LogBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *LogBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *LogBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// Logger logs every level to w, as text.
func (w *LogBuffer) Logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// Lines returns the lines whose message is msg.
func (w *LogBuffer) Lines(msg string) []string {
	var out []string
	for _, line := range strings.Split(w.String(), "\n") {
		if strings.Contains(line, `msg="`+msg+`"`) {
			out = append(out, line)
		}
	}
	return out
}

// QueuedFor reports how many notifications and selections are waiting for
// the writer of client id, so tests can check a stalled client's queue
// stays bounded.
func (s *Server) QueuedFor(id string) (notes int, selection bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		if c.info.ID == id {
			return len(c.notes), c.selection != nil
		}
	}
	return 0, false
}

// PendingConns is how many accepted connections have not been upgraded or
// closed yet (servers run by Start only).
func (s *Server) PendingConns() int { return s.pending.len() }

// OnMemoryReturned replaces debug.FreeOSMemory with f.
func (s *Server) OnMemoryReturned(f func()) {
	s.mem.mu.Lock()
	s.mem.free = f
	s.mem.mu.Unlock()
}
