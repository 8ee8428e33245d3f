package chatctl_test

import (
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/host"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
	"github.com/neovim/go-client/nvim/plugin"
)

// The chat is driven as a user drives it: through a child Neovim with the whole host
// registered in the test process (the controller is reached only through its handlers).

// waitTimeout bounds every wait for Neovim or the CLI in these tests; generous so slow
// machines fail only on real hangs.
const waitTimeout = 30 * time.Second

// env is a child Neovim with a host registered, as plugin.Main would register it.
type env struct {
	t    testing.TB
	nv   *nvimtest.Nvim
	host *host.Host
}

func newEnv(t testing.TB) *env {
	t.Helper()
	nv := nvimtest.New(t)
	var log *slog.Logger
	if _, bench := t.(*testing.B); !bench { // benchmarks measure us, not the logging
		log = slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	h := host.New(host.Options{LockDir: filepath.Join(nv.Dir, "claude", "ide"), Log: log, ListenDelay: -1})
	p := plugin.New(nv.Nvim)
	if err := h.Register(p); err != nil {
		t.Fatalf("register: %v", err)
	}
	nv.Lua(nil, `vim.g.claude_test_host = true`)
	if err := p.RegisterForTests(); err != nil {
		t.Fatalf("register for tests: %v", err)
	}
	// Exit, not only Shutdown: chats and their MCP endpoint (a temp dir) go too.
	t.Cleanup(h.Exit)
	return &env{t: t, nv: nv, host: h}
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// commandMessages runs an Ex command that should tell the user something and returns what
// it added to :messages; such a command never fails as a Vim error.
func commandMessages(t testing.TB, nv *nvimtest.Nvim, cmd string) string {
	t.Helper()
	before := nv.Messages()
	if err := nv.Command(cmd); err != nil {
		t.Errorf(":%s raised %v; want a message, not an error", cmd, err)
	}
	return strings.TrimPrefix(nv.Messages(), before)
}

// quantiles reports p50/p99/max of samples in milliseconds.
func quantiles(b *testing.B, samples []time.Duration, unit string) {
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
