package chat

import (
	"bytes"
	"context"
	"log/slog"
	"sync"
)

// stderrMax bounds one logged stderr line; a longer one is logged in pieces.
const stderrMax = 4096

// logWriter is the CLI's stderr: it logs each complete line.
type logWriter struct {
	log  *slog.Logger
	mu   sync.Mutex
	buf  []byte
	last string // the last line, for Exited (a CLI that refuses to start says why there)
}

func (w *logWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	for {
		i := bytes.IndexByte(w.buf, '\n')
		if i < 0 {
			if len(w.buf) >= stderrMax {
				w.line(w.buf)
				w.buf = w.buf[:0]
			}
			return len(p), nil
		}
		w.line(w.buf[:i])
		w.buf = w.buf[i+1:]
	}
}

// flush logs a last line that had no newline.
func (w *logWriter) flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.line(w.buf)
	w.buf = nil
}

func (w *logWriter) line(b []byte) {
	if b = bytes.TrimRight(b, "\r"); len(b) > 0 {
		w.last = clip(b)
		w.log.LogAttrs(context.Background(), slog.LevelWarn, "claude stderr", slog.String("line", string(b)))
	}
}

// lastLine is the last line the CLI wrote to stderr, clipped; "" when none.
func (w *logWriter) lastLine() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.last
}
