package selection

import (
	"context"
	"fmt"
	"sync"
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

// tracker returns a tracker on clock (nil: the real one) that is not
// running yet, and what it sends.
func tracker(clock Clock) (*Tracker, <-chan string) {
	sent := make(chan string, 16)
	return NewTracker(recordingReader{}, func(s *mcp.Selection) { sent <- s.Text }, clock, nil), sent
}

func start(t *testing.T, tr *Tracker) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go tr.Run(ctx)
}

func run(t *testing.T) (*Tracker, <-chan string) {
	t.Helper()
	tr, sent := tracker(nil)
	start(t, tr)
	return tr, sent
}

// fakeClock stands still until the test moves it on.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	alarms []fakeAlarm
}

type fakeAlarm struct {
	at time.Time
	c  chan time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Alarm(at time.Time) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	if !at.After(c.now) {
		ch <- c.now
		return ch
	}
	c.alarms = append(c.alarms, fakeAlarm{at, ch})
	return ch
}

// Advance moves the clock on by d and rings the alarms that are due.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.alarms[:0]
	for _, a := range c.alarms {
		if a.at.After(c.now) {
			kept = append(kept, a)
			continue
		}
		a.c <- c.now
	}
	c.alarms = kept
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
	clock := &fakeClock{now: time.Unix(1e9, 0)}
	tr, sent := tracker(clock)
	// All three events arrive before the tracker reads anything.
	tr.Observe(ev("v", 1, 2, 1, 3, 4))
	tr.Observe(ev("n", 1, 3, 4, 3, 4)) // Esc
	tr.Observe(ev("n", 1, 9, 1, 9, 1)) // and a move right after
	start(t, tr)
	if got := next(t, sent); got != "v 2:1-3:4" {
		t.Errorf("first sent %q, want the visual selection", got)
	}
	// The clock stands still: the move waits for MinInterval to pass.
	clock.Advance(MinInterval)
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
