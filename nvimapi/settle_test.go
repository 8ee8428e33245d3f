package nvimapi

import (
	"context"
	"testing"
	"time"
)

func TestOnlyReloadsWhoseDiagnosticsAreStillToComeAreWaitedFor(t *testing.T) {
	e := New(nil)
	e.DiagnosticsChanged(&DiagnosticEvent{Buf: 1, Tick: 5}) // before buffer 1's reload at tick 7
	e.DiagnosticsChanged(&DiagnosticEvent{Buf: 2, Tick: 9}) // buffer 2's linter answered its reload
	tests := []struct {
		name string
		b    reloadedBuffer
		wait bool
	}{
		{"a reload with no event since", reloadedBuffer{Buf: 1, Tick: 7}, true},
		{"a reload whose diagnostics came", reloadedBuffer{Buf: 2, Tick: 9}, false},
		{"a reload nothing was heard of", reloadedBuffer{Buf: 3, Tick: 4}, true},
		{"a reload too long ago", reloadedBuffer{Buf: 3, Tick: 4, AgeMS: int(2 * reloadFreshFor / time.Millisecond)}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := len(e.diagEvents.unsettled([]reloadedBuffer{tt.b})) == 1
			if got != tt.wait {
				t.Errorf("%+v waited for: %v, want %v", tt.b, got, tt.wait)
			}
		})
	}
}

func TestTheWaitEndsWithAnEventAtTheReloadsTick(t *testing.T) {
	e := New(nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	done := make(chan struct{})
	go func() {
		e.diagEvents.await(ctx, []reloadedBuffer{{Buf: 1, Tick: 7}}, time.Hour)
		close(done)
	}()
	e.DiagnosticsChanged(&DiagnosticEvent{Buf: 1, Tick: 6})
	e.DiagnosticsChanged(&DiagnosticEvent{Buf: 1, Tick: 7})
	<-done
	if ctx.Err() != nil {
		t.Errorf("the wait ended with its context (%v), not with the event at the reload's tick", ctx.Err())
	}
}

// Diagnostics that came for a recent reload may have come after the read
// made with the reload (a linter answering a moment later): that read is
// not the answer, a fresh one is.
func TestARecentReloadIsReadAgainEvenIfItsDiagnosticsCame(t *testing.T) {
	e := New(nil)
	e.DiagnosticsChanged(&DiagnosticEvent{Buf: 2, Tick: 9})
	old := int(2 * reloadFreshFor / time.Millisecond)
	for _, tt := range []struct {
		name  string
		b     reloadedBuffer
		again bool
	}{
		{"a recent reload whose diagnostics came", reloadedBuffer{Buf: 2, Tick: 9}, true},
		{"a reload too long ago", reloadedBuffer{Buf: 2, Tick: 9, AgeMS: old}, false},
	} {
		if got := e.awaitReloaded(context.Background(), []reloadedBuffer{tt.b}); got != tt.again {
			t.Errorf("%s: read again %v, want %v", tt.name, got, tt.again)
		}
	}
}
