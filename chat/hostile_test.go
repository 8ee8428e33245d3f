package chat

import (
	"context"
	"runtime"
	"testing"
	"time"
)

// A CLI that floods unknown control requests and reads none of the answers left one
// goroutine per request, for ever (issue 23.7: 200,000 took the host to 1 GiB). The answers
// being written are capped; the rest are logged and dropped.
func TestAFloodOfUnknownControlRequestsHoldsABoundedNumberOfGoroutines(t *testing.T) {
	const flood = 3000 // answers of ~110 bytes: far more than a pipe's 64 KiB holds
	bin := fakeCLI(t, `
i=0
while [ $i -lt 3000 ]; do
  printf '{"type":"control_request","request_id":"h%d","request":{"subtype":"hook_callback"}}\n' $i
  i=$((i+1))
done
echo '{"type":"user","message":{"role":"user","content":[{"type":"text","text":"flooded"}]}}'
exec sleep 600`)
	before := runtime.NumGoroutine()
	s, err := Start(Options{Bin: bin, Dir: t.TempDir(), CloseGrace: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(context.Background()) })
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for seen := false; !seen; {
		evs, err := s.Next(ctx)
		if err != nil {
			t.Fatalf("next: %v before the line after the flood", err)
		}
		for _, ev := range evs {
			seen = seen || ev == Event(UserText{Text: "flooded"})
		}
	}
	// The reader handled every request before the line after them.
	held := runtime.NumGoroutine() - before
	t.Logf("after %d unknown control requests the process holds %d goroutines", flood, held)
	if held > maxReplying+10 {
		t.Errorf("after %d unknown control requests the process holds %d goroutines, want at most %d answering and a few of its own", flood, held, maxReplying)
	}
}
