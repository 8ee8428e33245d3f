package nvimtest

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/neovim/go-client/nvim/plugin"
)

// RegisterPlugin registers a remote plugin's handlers in the test process, as
// plugin.Main would register them in bin/claude-nvim, so the test drives them
// through this Neovim (:Command, doautocmd) rather than by calling Go.
// register is the plugin's register function (host.Host.Register).
func (n *Nvim) RegisterPlugin(register func(*plugin.Plugin) error) {
	n.t.Helper()
	p := plugin.New(n.Nvim)
	if err := register(p); err != nil {
		n.t.Fatalf("register: %v", err)
	}
	// The Lua side starts no Go process of its own: the handlers are here.
	n.Lua(nil, `vim.g.claude_test_host = true`)
	if err := p.RegisterForTests(); err != nil {
		n.t.Fatalf("register for tests: %v", err)
	}
}

// ReportQuantiles reports p50, p99 and the maximum of samples, in
// milliseconds, as custom metrics of b named unit-p50-ms, unit-p99-ms and
// unit-max-ms: the benchmarks against a child Neovim report tails, not
// means.
func ReportQuantiles(b *testing.B, samples []time.Duration, unit string) {
	b.Helper()
	if len(samples) == 0 {
		return
	}
	slices.Sort(samples)
	q := func(p float64) time.Duration {
		return samples[max(int(math.Ceil(p*float64(len(samples))))-1, 0)]
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	b.ReportMetric(ms(q(0.50)), unit+"-p50-ms")
	b.ReportMetric(ms(q(0.99)), unit+"-p99-ms")
	b.ReportMetric(ms(samples[len(samples)-1]), unit+"-max-ms")
}

// ProbeStalls asks Neovim, through eval, for a trivial value every
// millisecond until the returned stop is called, which gives back each
// round trip: how long the editor's loop kept a request waiting. The
// benchmarks report its tail (ReportQuantiles) or its maximum as the
// editor's stalls.
func ProbeStalls(eval func(expr string, result any) error) (stop func() []time.Duration) {
	done, out := make(chan struct{}), make(chan []time.Duration, 1)
	go func() {
		var samples []time.Duration
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				out <- samples
				return
			case <-tick.C:
			}
			t := time.Now()
			var one int
			_ = eval("1", &one)
			samples = append(samples, time.Since(t))
		}
	}()
	return func() []time.Duration {
		close(done)
		return <-out
	}
}
