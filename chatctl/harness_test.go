package chatctl_test

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/host"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
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

func newEnv(t testing.TB, opts ...func(*host.Options)) *env {
	t.Helper()
	nv := nvimtest.New(t)
	var log *slog.Logger
	if _, bench := t.(*testing.B); !bench { // benchmarks measure us, not the logging
		log = slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	o := host.Options{LockDir: filepath.Join(nv.Dir, "claude", "ide"), Log: log, ListenDelay: -1}
	for _, opt := range opts {
		opt(&o)
	}
	h := host.New(o)
	nv.RegisterPlugin(h.Register)
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
