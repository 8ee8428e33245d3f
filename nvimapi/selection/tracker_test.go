package selection

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/mcp"
)

// recordingReader answers every read with the query itself as text, so a
// test sees which editor states were read and in which order.
type recordingReader struct{}

func (recordingReader) ReadSelection(_ context.Context, q Query) (*mcp.Selection, error) {
	return &mcp.Selection{FilePath: q.Path, Text: fmt.Sprintf("%c %d:%d-%d:%d", q.Kind, q.Start.Line, q.Start.Col, q.End.Line, q.End.Col)}, nil
}

func run(t *testing.T) (*Tracker, <-chan string) {
	t.Helper()
	sent := make(chan string, 16)
	tr := NewTracker(recordingReader{}, func(s *mcp.Selection) { sent <- s.Text }, nil)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go tr.Run(ctx)
	return tr, sent
}

func next(t *testing.T, sent <-chan string) string {
	t.Helper()
	select {
	case s := <-sent:
		return s
	case <-time.After(5 * time.Second):
		t.Fatal("nothing sent")
		return ""
	}
}

func ev(mode string, buf, vl, vc, cl, cc int) *Event {
	return &Event{Buf: buf, Path: fmt.Sprintf("/f%d", buf), File: true, Mode: mode, Visual: []int{buf, vl, vc, 0}, Cursor: []int{buf, cl, cc, 0}}
}

func TestAVisualSelectionLeftBeforeItWasReadIsStillSent(t *testing.T) {
	tr, sent := run(t)
	// All three events arrive before the tracker reads anything.
	tr.mu.Lock()
	tr.lastAt = time.Now().Add(time.Hour) // hold reads back
	tr.mu.Unlock()
	tr.Observe(ev("v", 1, 2, 1, 3, 4))
	tr.Observe(ev("n", 1, 3, 4, 3, 4)) // Esc
	tr.Observe(ev("n", 1, 9, 1, 9, 1)) // and a move right after
	if got := next(t, sent); got != "v 2:1-3:4" {
		t.Errorf("first sent %q, want the visual selection", got)
	}
	tr.mu.Lock()
	tr.lastAt = time.Time{}
	tr.mu.Unlock()
	tr.poke()
	if got := next(t, sent); got != "n 9:1-9:1" {
		t.Errorf("then sent %q, want the cursor after the move", got)
	}
}

func TestASelectionIsHeldWhileTheCursorStaysPut(t *testing.T) {
	tr, sent := run(t)
	tr.Observe(ev("V", 1, 2, 1, 4, 1))
	if got := next(t, sent); got != "V 2:1-4:1" {
		t.Fatalf("sent %q", got)
	}
	tr.Observe(ev("n", 1, 4, 1, 4, 1))                    // Esc
	tr.Observe(&Event{Buf: 7, Path: "term://claude"})     // to Claude's terminal
	tr.Observe(&Event{Buf: 8, Path: "/tmp/x", Mode: "n"}) // a scratch buffer (buftype=nofile)
	tr.Observe(ev("n", 1, 4, 1, 4, 1))                    // back, cursor unmoved
	tr.Observe(ev("n", 1, 5, 1, 5, 1))                    // a real move
	if got := next(t, sent); got != "n 5:1-5:1" {
		t.Errorf("after the held selection sent %q, want only the real move", got)
	}
	if latest := tr.Latest(); latest == nil || latest.Text != "n 5:1-5:1" {
		t.Errorf("Latest = %+v", latest)
	}
}

func TestTheSameStateIsReadOnce(t *testing.T) {
	tr, sent := run(t)
	tr.Observe(ev("n", 1, 3, 1, 3, 1))
	next(t, sent)
	for i := 0; i < 5; i++ {
		tr.Observe(ev("n", 1, 3, 1, 3, 1))
	}
	tr.Observe(ev("n", 2, 1, 1, 1, 1))
	if got := next(t, sent); got != "n 1:1-1:1" {
		t.Errorf("after repeats sent %q, want the next distinct state", got)
	}
}
