package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"syscall"
	"time"
)

func newStdin(f *os.File, log *slog.Logger) *stdin {
	return &stdin{f: f, log: log, turn: make(chan struct{}, 1)}
}

// stdin writes whole lines to the CLI, one writer at a time.
type stdin struct {
	f   *os.File
	log *slog.Logger

	turn   chan struct{} // a one-slot semaphore: the holder may write
	mu     sync.Mutex
	closed bool
}

// writeJSON marshals v and writes it as one line. ctx bounds both the wait for a turn to
// write and the write itself: a CLI that stops reading cannot block us for ever. A write cut
// short leaves half a line in the pipe, which would garble the next message, so stdin is then
// closed (the CLI exits).
func (w *stdin) writeJSON(ctx context.Context, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("write to claude: %w", err)
	}
	b = append(b, '\n')
	select {
	case w.turn <- struct{}{}:
	case <-ctx.Done():
		return fmt.Errorf("write to claude: %w", ctx.Err())
	}
	defer func() { <-w.turn }()

	w.mu.Lock()
	closed := w.closed
	w.mu.Unlock()
	if closed {
		return fmt.Errorf("write to claude: %w", ErrExited)
	}
	stop := context.AfterFunc(ctx, func() { w.f.SetWriteDeadline(time.Unix(1, 0)) })
	n, err := w.f.Write(b)
	if !stop() {
		w.f.SetWriteDeadline(time.Time{})
	}
	if err != nil {
		if n > 0 {
			w.log.Warn("claude: a write to stdin was cut short; closing it", "written", n, "of", len(b))
			w.close()
		}
		switch {
		case ctx.Err() != nil:
			err = ctx.Err()
		case errors.Is(err, syscall.EPIPE) || errors.Is(err, os.ErrClosed):
			err = ErrExited
		}
		return fmt.Errorf("write to claude: %w", err)
	}
	return nil
}

// close closes the CLI's stdin once: the CLI finishes what it is doing and exits.
func (w *stdin) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.closed {
		w.closed = true
		w.f.Close()
	}
}
