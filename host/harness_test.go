package host

import (
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/lockfile"
	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// waitTimeout bounds every wait for Neovim or the server in these tests.
// It only turns a hang into a failure, so it is as generous as
// mcptest.DefaultTimeout: the tests run in parallel, and on a loaded
// 2-core laptop a step of a few milliseconds can take seconds.
const waitTimeout = 30 * time.Second

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// env is a child Neovim with this host registered in the test process, as
// plugin.Main would register it in bin/claude-nvim.
type env struct {
	t       testing.TB
	nv      *nvimtest.Nvim
	host    *Host
	lockDir string
}

func newEnv(t testing.TB, opts ...nvimtest.Option) *env {
	t.Helper()
	nv := nvimtest.New(t, opts...)
	lockDir := filepath.Join(nv.Dir, "claude", "ide")
	// Notifications flow as soon as the test client has listed the tools.
	h := New(Options{LockDir: lockDir, Log: testLogger(t), ListenDelay: -1})
	nv.RegisterPlugin(h.Register)
	// Exit, not only Shutdown: chats and their MCP endpoint (a temp dir) go too.
	t.Cleanup(h.Exit)
	return &env{t: t, nv: nv, host: h, lockDir: lockDir}
}

func testLogger(t testing.TB) *slog.Logger {
	if _, bench := t.(*testing.B); bench {
		return nil // benchmarks measure us, not the logging
	}
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// start runs :Claude server start and returns the port and the lock file's content.
func (e *env) start() (int, lockfile.Info) {
	e.t.Helper()
	e.nv.Cmd("ClaudeStart")
	var port int
	e.nv.Lua(&port, `return require('claude').status().port or 0`)
	if port == 0 {
		e.t.Fatalf(":Claude server start did not start the server; messages:\n%s", e.nv.Messages())
	}
	info, err := lockfile.Read(e.lockPath(port))
	if err != nil {
		e.t.Fatalf("read lock file: %v", err)
	}
	return port, info
}

func (e *env) lockPath(port int) string {
	return filepath.Join(e.lockDir, itoa(port)+".lock")
}

// connect starts the server if needed and connects a client the way the
// CLI does (token from the lock file, initialize, ide_connected). It
// returns once Lua has heard of the client too: the host tells it on a
// goroutine of its own, and a command typed before that (:Claude send)
// would see no client and open a terminal for one.
func (e *env) connect() *mcptest.Client {
	e.t.Helper()
	c := e.dial()
	connected := e.nv.UserEvent("ClaudeConnected")
	c.Initialize()
	nvimtest.Next(e.t, connected, "User ClaudeConnected after the client initialized", waitTimeout)
	return c
}

// dial connects without initializing.
func (e *env) dial() *mcptest.Client {
	e.t.Helper()
	port, info := e.start()
	return mcptest.Dial(e.t, "ws://127.0.0.1:"+itoa(port), info.AuthToken)
}

func itoa(n int) string { return strconv.Itoa(n) }

// callTool calls a tool and returns its text blocks.
func callTool(t testing.TB, c *mcptest.Client, name string, args any) []string {
	t.Helper()
	res, err := c.CallTool(name, args)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		t.Fatalf("%s returned an error result: %+v", name, res.Content)
	}
	var texts []string
	for _, c := range res.Content {
		texts = append(texts, c.Text)
	}
	return texts
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// writeOnDisk writes a file behind Neovim's back, as the CLI does, with
// its modification time a few seconds ahead so Neovim's timestamp check
// sees the change however coarse the clock.
func writeOnDisk(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(5 * time.Second)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
}

// waitLine waits until line lnum (1-based) of path's buffer reads want.
func waitLine(t testing.TB, nv *nvimtest.Nvim, path string, lnum int, want, what string) {
	t.Helper()
	nvimtest.Wait(t, what, waitTimeout, func() bool {
		var line string
		nv.Lua(&line, `local path, lnum = ... return vim.fn.getbufline(vim.fn.bufnr(path), lnum)[1] or ''`, path, lnum)
		return line == want
	})
}

// commandMessages runs an Ex command that should tell the user something
// (a user error, a notice) and returns what it added to :messages. Such a
// command never fails as a Vim error: that would be a stack trace when it
// runs through lazy.nvim's stub, and a wall of red on Neovim 0.10.
func commandMessages(t testing.TB, nv *nvimtest.Nvim, cmd string) string {
	t.Helper()
	before := nv.Messages()
	if err := nv.Command(cmd); err != nil {
		t.Errorf(":%s raised %v; want a message, not an error", cmd, err)
	}
	return strings.TrimPrefix(nv.Messages(), before)
}
