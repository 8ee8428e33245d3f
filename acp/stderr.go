package acp

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
)

// stderrTail is how much of the agent's stderr is kept for the error that reports its
// exit: its last lines say why it died (a stack trace's end, a missing CLI).
const stderrTail = 8 << 10

// stderrLine bounds one logged stderr line; a longer one is logged in pieces.
const stderrLine = 4 << 10

// tailWriter is the agent's stderr: it keeps the last stderrTail bytes and logs each line
// (at debug: claude-agent-acp writes its progress there).
type tailWriter struct {
	log *slog.Logger

	mu   sync.Mutex
	tail []byte // the last stderrTail bytes at most
	line []byte // the line being written
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.tail = append(w.tail, p...)
	if over := len(w.tail) - stderrTail; over > 0 {
		w.tail = append(w.tail[:0], w.tail[over:]...)
	}
	w.line = append(w.line, p...)
	for {
		i := bytes.IndexByte(w.line, '\n')
		if i < 0 {
			if len(w.line) >= stderrLine {
				w.logLine(w.line)
				w.line = w.line[:0]
			}
			return len(p), nil
		}
		w.logLine(w.line[:i])
		w.line = w.line[i+1:]
	}
}

func (w *tailWriter) logLine(b []byte) {
	if b = bytes.TrimRight(b, "\r"); len(b) > 0 {
		w.log.LogAttrs(context.Background(), slog.LevelDebug, "acp agent stderr", slog.String("line", string(b)))
	}
}

// String is the end of stderr so far, from a line's start where it was cut, trimmed.
func (w *tailWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	t := w.tail
	if len(t) == stderrTail {
		if i := bytes.IndexByte(t, '\n'); i >= 0 {
			t = t[i+1:]
		}
	}
	return strings.TrimSpace(string(t))
}
