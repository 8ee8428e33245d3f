package mcp

import (
	"runtime/debug"
	"sync"
	"time"
)

// Limits bound what a local process can make a listener hold (the
// WebSocket server's or the HTTP endpoint's; see limitedServer): one
// without the token (which only ever gets an HTTP refusal) and one with
// it (a client). A zero field takes its value from DefaultLimits.
type Limits struct {
	// Handshake bounds reading an HTTP request (headers and body), an idle
	// keep-alive connection and writing the answer or the 101. The CLI sends
	// its upgrade request at once, so this only ever cuts off a silent or
	// trickling peer.
	Handshake time.Duration
	// Initialize is how long an upgraded client has to send initialize
	// before it is closed with 1008. The CLI sends it at once; this frees
	// a client slot held by a socket that answers pings and says nothing.
	Initialize time.Duration
	// PendingConns caps connections accepted but not yet upgraded, and
	// for the HTTP endpoint all its connections (Start and
	// HTTPEndpoint.Serve only; with Handler or the endpoint mounted, the
	// caller runs the http.Server). Past it the oldest is closed, not the
	// newest: see pendingConns.
	PendingConns int
	// Clients caps upgraded connections. Only holders of the token get
	// one; past the cap the upgrade is refused with 503.
	Clients int
	// CallsInFlight caps the tools/call of one connection that are running
	// or whose answer is not yet queued for writing; past it a call is
	// answered at once with CodeServerBusy. See conn.startCall.
	CallsInFlight int
	// RefusalLogBurst refused requests are logged one by one per
	// RefusalLogInterval; the rest are counted in one line at the end of
	// the interval, so a flood costs a few lines a minute.
	RefusalLogBurst    int
	RefusalLogInterval time.Duration
}

// DefaultLimits are the limits a zero Config field means.
var DefaultLimits = Limits{
	Handshake:  10 * time.Second,
	Initialize: 30 * time.Second,
	// A legitimate connection stays pending for the microseconds between
	// accept and our reading its upgrade request; 128 leaves room for a
	// burst of reconnecting CLIs, and costs about 2 MiB when all are held.
	PendingConns: 128,
	// One CLI per terminal, a reconnect overlapping its predecessor, a
	// few other tools: far below this.
	Clients: 32,
	// The CLI has a handful of calls in flight at most: some openDiffs
	// waiting for the user, a getDiagnostics, a close_tab.
	CallsInFlight:      64,
	RefusalLogBurst:    10,
	RefusalLogInterval: time.Minute,
}

// withDefaults fills the zero (or negative) fields of l from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	l.Handshake = positiveOr(l.Handshake, d.Handshake)
	l.Initialize = positiveOr(l.Initialize, d.Initialize)
	l.PendingConns = positiveOr(l.PendingConns, d.PendingConns)
	l.Clients = positiveOr(l.Clients, d.Clients)
	l.CallsInFlight = positiveOr(l.CallsInFlight, d.CallsInFlight)
	l.RefusalLogBurst = positiveOr(l.RefusalLogBurst, d.RefusalLogBurst)
	l.RefusalLogInterval = positiveOr(l.RefusalLogInterval, d.RefusalLogInterval)
	return l
}

// positiveOr is v, or d where v is zero or negative.
func positiveOr[T int | time.Duration](v, d T) T {
	if v > 0 {
		return v
	}
	return d
}

// spikeFrameSize: a connection that read a frame this large has made the
// heap grow by at least that much (an openDiff of a big file).
const spikeFrameSize = 8 << 20

// memoryReturnInterval: debug.FreeOSMemory is a full collection; run it at
// most this often however many connections end.
const memoryReturnInterval = 10 * time.Second

// memorySettle: a request comes from the call or connection that made the
// heap grow, while it still holds its data; collect once it has let go.
const memorySettle = 500 * time.Millisecond

// bigCallArgs: a tool call with arguments this large (an openDiff of a
// big file) asks for the memory back when it ends. Without that, an idle
// host kept 25 MB resident 30 s after a burst of 5 MiB diffs: the runtime
// collects only when the heap grows again, or every two minutes.
const bigCallArgs = 1 << 20

// memoryReturner gives the heap back to the OS after a spike. The Go
// runtime would do it by itself only after its next collection, which an
// idle editor plugin may not reach for minutes, and then slowly: an
// adversarial flood left 368 MB resident 30 s after the client had gone.
type memoryReturner struct {
	mu      sync.Mutex
	last    time.Time   // when FreeOSMemory last ran
	pending *time.Timer // a run scheduled for when the interval has passed
	free    func()      // debug.FreeOSMemory; replaced in tests
}

// request frees memory now, or once the interval since the last run has
// passed; requests meanwhile share that one run.
func (m *memoryReturner) request() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.pending != nil {
		return
	}
	wait := max(time.Until(m.last.Add(memoryReturnInterval)), memorySettle)
	m.pending = time.AfterFunc(wait, m.run)
}

func (m *memoryReturner) run() {
	m.mu.Lock()
	free := m.free
	m.mu.Unlock()
	if free == nil {
		free = debug.FreeOSMemory
	}
	free()
	m.mu.Lock()
	m.last, m.pending = time.Now(), nil
	m.mu.Unlock()
}

// stop cancels a scheduled run (Server.Close).
func (m *memoryReturner) stop() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.pending != nil && m.pending.Stop() {
		m.pending = nil
	}
}
