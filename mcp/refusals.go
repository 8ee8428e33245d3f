package mcp

import (
	"log/slog"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// refusalLog logs refused requests without letting a flood of them flood
// the log: a local process can send thousands a second, each of which
// used to cost a WARN line (2.8 MB/s). In each window of interval, which
// opens at the first refusal after the last window closed, the first
// burst refusals are logged one by one and the rest are counted; when the
// window closes, one line gives the count by reason. So a flood costs at
// most burst+1 lines per interval, and one refusal still shows at once.
type refusalLog struct {
	log      *slog.Logger
	burst    int
	interval time.Duration

	// flushing is held for the whole of a flush, from taking the counts
	// to writing the line, so that close, which flushes too, returns only
	// once a flush the timer began has written its line.
	flushing sync.Mutex

	mu         sync.Mutex
	window     *time.Timer    // non-nil while a window is open
	logged     int            // refusals logged one by one in this window
	suppressed map[string]int // refusals counted, by reason
	closed     bool
}

func newRefusalLog(log *slog.Logger, burst int, interval time.Duration) *refusalLog {
	return &refusalLog{log: log, burst: burst, interval: interval, suppressed: map[string]int{}}
}

// note records one refused request; why must come from a small fixed set
// (it keys the summary), never from the request.
func (r *refusalLog) note(remote string, status int, why string) {
	r.mu.Lock()
	if r.window == nil && !r.closed {
		r.window = time.AfterFunc(r.interval, r.flush)
	}
	if r.logged >= r.burst && !r.closed {
		r.suppressed[why]++
		r.mu.Unlock()
		return
	}
	r.logged++
	r.mu.Unlock()
	r.log.Warn("mcp: refused connection", "remote", remote, "status", status, "reason", why)
}

// flush closes the window: the summary line, if anything was counted.
func (r *refusalLog) flush() {
	r.flushing.Lock()
	defer r.flushing.Unlock()
	r.mu.Lock()
	counts := r.suppressed
	r.suppressed = map[string]int{}
	r.window, r.logged = nil, 0
	r.mu.Unlock()
	if len(counts) == 0 {
		return
	}
	total := 0
	reasons := make([]string, 0, len(counts))
	for why, n := range counts {
		total += n
		reasons = append(reasons, why+": "+strconv.Itoa(n))
	}
	sort.Strings(reasons)
	r.log.Warn("mcp: more connections refused; not logged one by one",
		"count", total, "within", r.interval, "reasons", strings.Join(reasons, ", "))
}

// close ends the window early so that its count is not lost (Server.Close).
// It flushes whether or not the timer had already fired: a flush the timer
// began holds flushing, so this one waits for its line and then finds
// nothing left, and a flush the timer has yet to begin finds nothing left
// after this one. A refusal after close is logged on its own, since no
// window will close to count it.
func (r *refusalLog) close() {
	r.mu.Lock()
	r.closed = true
	if r.window != nil {
		r.window.Stop()
	}
	r.mu.Unlock()
	r.flush()
}
