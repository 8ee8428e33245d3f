//go:build go1.25

package memtrim

import (
	"io"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// The clock is synctest's: time only moves when every goroutine of the bubble waits, so the
// spells and pauses below are exact however busy the machine is.

func TestIdleTrimsOnceQuietAfterTheLastKick(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		trims := 0
		idle := NewIdle(time.Second, func() { trims++ })
		defer idle.Stop()
		for range 5 {
			idle.Kick()
			time.Sleep(900 * time.Millisecond) // busy: never a full second without a kick
		}
		synctest.Wait()
		if trims != 0 {
			t.Fatalf("%d trims while kicks kept coming", trims)
		}
		time.Sleep(200 * time.Millisecond)
		synctest.Wait()
		if trims != 1 {
			t.Fatalf("%d trims a second after the last kick, want 1", trims)
		}
		time.Sleep(time.Hour)
		synctest.Wait()
		if trims != 1 {
			t.Fatalf("%d trims after an hour idle, want still 1", trims)
		}
		idle.Kick()
		time.Sleep(time.Second)
		synctest.Wait()
		if trims != 2 {
			t.Fatalf("%d trims after a second spell of activity, want 2", trims)
		}
	})
}

func TestIdleDoesNothingBeforeTheFirstKickOrAfterStop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		trims := 0
		idle := NewIdle(time.Second, func() { trims++ })
		time.Sleep(time.Hour)
		synctest.Wait()
		if trims != 0 {
			t.Fatalf("%d trims with no activity", trims)
		}
		idle.Kick()
		idle.Stop()
		idle.Kick()
		time.Sleep(time.Hour)
		synctest.Wait()
		if trims != 0 {
			t.Fatalf("%d trims after Stop", trims)
		}
	})
}

// What Neovim sends the host (an autocmd's notification, a handler call) is activity: each
// read that brings data delays the trim, and the trim follows the last of them.
func TestEveryReadOfTheRPCStreamCountsAsActivity(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		trims := 0
		idle := NewIdle(time.Second, func() { trims++ })
		defer idle.Stop()
		r := idle.KickingReader(strings.NewReader("a cursor moved, twice"))
		buf := make([]byte, 8)
		for range 3 {
			if n, err := r.Read(buf); n == 0 || err != nil {
				t.Fatalf("read %d bytes: %v", n, err)
			}
			time.Sleep(900 * time.Millisecond)
		}
		synctest.Wait()
		if trims != 0 {
			t.Fatalf("%d trims while reads kept coming", trims)
		}
		if n, err := r.Read(buf); n != 0 || err != io.EOF { // the end: no data, no kick
			t.Fatalf("read %d bytes at the end: %v", n, err)
		}
		time.Sleep(200 * time.Millisecond)
		synctest.Wait()
		if trims != 1 {
			t.Fatalf("%d trims a second after the last read, want 1", trims)
		}
	})
}
