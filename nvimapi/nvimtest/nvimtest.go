// Package nvimtest starts a real, isolated Neovim for a test, the way
// net/http/httptest starts a real server: each test gets a fresh child
// process (--clean --embed --headless) with its own XDG directories and this
// repository on 'runtimepath', so plugin/claude.lua and lua/claude load as
// they would for a user.
//
// The binary comes from $NVIM (the Makefile sets it once per supported
// version); without it the newest Neovim under .deps/ is used.
//
// A test that starts a Neovim runs in parallel with the other such tests
// of its package (New calls t.Parallel): the child shares nothing with
// them, and a test spends most of its time waiting on the child, so two
// cores run several at once. go test's -parallel (GOMAXPROCS by default)
// bounds how many. A test that needs the process to itself (t.Setenv,
// t.Chdir, process-wide figures) passes Serial.
package nvimtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/neovim/go-client/nvim"
)

// Nvim is a child Neovim owned by one test.
type Nvim struct {
	*nvim.Nvim
	t       testing.TB
	Dir     string // the test's temporary root: XDG dirs and Cwd live below it
	Cwd     string // Neovim's working directory, empty at start
	Version string // "0.10.4", "0.12.1", ...
}

type options struct {
	env    []string
	args   []string
	serial bool
}

// Option adjusts how the child starts.
type Option func(*options)

// WithEnv adds KEY=VALUE entries to the child's environment.
func WithEnv(kv ...string) Option {
	return func(o *options) { o.env = append(o.env, kv...) }
}

// WithArgs adds command-line arguments (after ours).
func WithArgs(args ...string) Option {
	return func(o *options) { o.args = append(o.args, args...) }
}

// Serial keeps the test from running in parallel with others (see the
// package comment).
func Serial() Option {
	return func(o *options) { o.serial = true }
}

// AlreadyParallel is for tests that decide their parallelism themselves
// (the e2e scenarios call t.Parallel where their CLI allows, before their
// helpers start a Neovim): New leaves t as it is, since a second
// t.Parallel panics.
func AlreadyParallel() Option {
	return func(o *options) { o.serial = true }
}

// parallelTests holds the tests New has made parallel: t.Parallel may be
// called once per test, and a test may start several Neovims.
var parallelTests sync.Map

// parallel makes t a parallel test, once. A benchmark is left alone: it
// measures one Neovim at a time.
func parallel(t testing.TB) {
	pt, ok := t.(*testing.T)
	if !ok {
		return
	}
	if _, done := parallelTests.LoadOrStore(pt, true); done {
		return
	}
	pt.Cleanup(func() { parallelTests.Delete(pt) })
	pt.Parallel()
}

// Binary returns the Neovim executable tests run, or fails the test with the
// command that installs one.
func Binary(t testing.TB) string {
	t.Helper()
	if bin := os.Getenv("NVIM"); bin != "" {
		return bin
	}
	bin := filepath.Join(RepoRoot(), ".deps", "nvim-0.12", "bin", "nvim")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("no Neovim to test with: set NVIM=/path/to/nvim or run `make deps` (wanted %s)", bin)
	}
	return bin
}

// RepoRoot is the root of this repository (where go.mod is).
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// BaseEnv is the environment of an isolated child: the parent's PATH and
// terminal settings, XDG directories and HOME under root, and nothing that
// would make Neovim or a child of it talk to the network or a real config.
func BaseEnv(root string) []string {
	env := []string{
		"HOME=" + filepath.Join(root, "home"),
		"XDG_CONFIG_HOME=" + filepath.Join(root, "config"),
		"XDG_DATA_HOME=" + filepath.Join(root, "data"),
		"XDG_STATE_HOME=" + filepath.Join(root, "state"),
		"XDG_CACHE_HOME=" + filepath.Join(root, "cache"),
		"XDG_RUNTIME_DIR=" + filepath.Join(root, "run"),
		"CLAUDE_CONFIG_DIR=" + filepath.Join(root, "claude"),
		"NVIM_LOG_FILE=/dev/null",
		"PATH=" + os.Getenv("PATH"),
		"LANG=C.UTF-8",
		"TERM=xterm-256color",
	}
	for _, d := range []string{"home", "config", "data", "state", "cache", "run"} {
		_ = os.MkdirAll(filepath.Join(root, d), 0o700)
	}
	return env
}

// New starts a child Neovim for t and stops it when t ends.
func New(t testing.TB, opts ...Option) *Nvim {
	t.Helper()
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if !o.serial {
		parallel(t)
	}
	root := t.TempDir()
	cwd := filepath.Join(root, "work")
	if err := os.MkdirAll(cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	// Resolve symlinks so paths Neovim reports compare equal to ours.
	if resolved, err := filepath.EvalSymlinks(cwd); err == nil {
		cwd = resolved
	}
	args := []string{"--clean", "--embed", "--headless", "-n", "-i", "NONE",
		"--cmd", "set rtp^=" + escapeOption(RepoRoot())}
	args = append(args, o.args...)

	ctx, cancel := context.WithCancel(context.Background())
	v, err := nvim.NewChildProcess(
		nvim.ChildProcessCommand(Binary(t)),
		nvim.ChildProcessArgs(args...),
		nvim.ChildProcessEnv(append(BaseEnv(root), o.env...)),
		nvim.ChildProcessDir(cwd),
		nvim.ChildProcessContext(ctx),
		nvim.ChildProcessLogf(t.Logf),
	)
	if err != nil {
		cancel()
		t.Fatalf("start nvim: %v", err)
	}
	n := &Nvim{Nvim: v, t: t, Dir: root, Cwd: cwd}
	t.Cleanup(func() {
		// Closing stdin makes Neovim exit; the context kill is the backstop.
		done := make(chan struct{})
		go func() { _ = v.Close(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Logf("nvim did not exit; killing it")
		}
		cancel()
	})
	if err := v.ExecLua(`return tostring(vim.version())`, &n.Version); err != nil {
		t.Fatalf("nvim did not answer: %v", err)
	}
	return n
}

// Cmd runs an Ex command and fails the test if it errors.
func (n *Nvim) Cmd(cmd string) {
	n.t.Helper()
	if err := n.Command(cmd); err != nil {
		n.t.Fatalf("nvim :%s: %v", cmd, err)
	}
}

// Lua runs Lua code (arguments available as ...) and decodes its return
// value into result (which may be nil). It fails the test on error.
func (n *Nvim) Lua(result any, code string, args ...any) {
	n.t.Helper()
	if err := n.ExecLua(code, result, args...); err != nil {
		n.t.Fatalf("nvim lua %q: %v", firstLine(code), err)
	}
}

// Keys feeds keys as if typed (nvim_input is asynchronous; follow it with
// any synchronous call to be sure they were processed).
func (n *Nvim) Keys(keys string) {
	n.t.Helper()
	if _, err := n.Input(keys); err != nil {
		n.t.Fatalf("nvim input %q: %v", keys, err)
	}
	// A blocking call returns only after the input queue was processed,
	// unless Neovim waits for more keys (a pending operator).
	var mode map[string]any
	if err := n.Call("nvim_get_mode", &mode); err != nil {
		n.t.Fatalf("nvim get mode: %v", err)
	}
}

// Messages returns :messages output, handy in failure messages.
func (n *Nvim) Messages() string {
	out, _ := n.Exec("messages", true)
	return out
}

// WriteFile creates a file under the test's working directory and returns
// its absolute path.
func (n *Nvim) WriteFile(name, content string) string {
	n.t.Helper()
	path := filepath.Join(n.Cwd, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		n.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		n.t.Fatal(err)
	}
	return path
}

func escapeOption(s string) string {
	return strings.NewReplacer(`\`, `\\`, ` `, `\ `, `,`, `\,`).Replace(s)
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// Wait polls cond every few milliseconds until it is true or the deadline
// passes. Use it only for state that Neovim cannot push to us; prefer
// channels fed by handlers.
func Wait(t testing.TB, what string, timeout time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", timeout, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// UserEvents delivers the data of every `User <pattern>` autocmd Neovim
// fires from now on, so tests wait on editor events instead of polling.
func (n *Nvim) UserEvents(pattern string) <-chan map[string]any {
	n.t.Helper()
	return n.userEvents(pattern, 64, false)
}

// UserEvent delivers the data of the next `User <pattern>` autocmd only:
// for waiting once, as a helper does each time it is called, without
// leaving an autocmd behind.
func (n *Nvim) UserEvent(pattern string) <-chan map[string]any {
	n.t.Helper()
	return n.userEvents(pattern, 1, true)
}

func (n *Nvim) userEvents(pattern string, size int, once bool) <-chan map[string]any {
	n.t.Helper()
	ch := make(chan map[string]any, size)
	method := fmt.Sprintf("nvimtest_user_%s_%d", pattern, userEventSeq.Add(1))
	if err := n.RegisterHandler(method, func(data map[string]any) {
		select {
		case ch <- data:
		default:
			n.t.Errorf("nvimtest: too many unread User %s events", pattern)
		}
	}); err != nil {
		n.t.Fatal(err)
	}
	n.Lua(nil, `
		local pattern, chan, method, once = ...
		vim.api.nvim_create_autocmd("User", {
			pattern = pattern,
			once = once,
			callback = function(ev)
				vim.rpcnotify(chan, method, type(ev.data) == "table" and ev.data or vim.empty_dict())
			end,
		})`, pattern, n.ChannelID(), method, once)
	return ch
}

// userEventSeq names each event handler uniquely (the clock's nanoseconds
// can repeat between two calls on a coarse clock).
var userEventSeq atomic.Int64

// Next waits for the next value on ch.
func Next[T any](t testing.TB, ch <-chan T, what string, timeout time.Duration) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(timeout):
		t.Fatalf("timed out after %v waiting for %s", timeout, what)
		var zero T
		return zero
	}
}

// StandInCLI writes, in dir, an executable `claude` for tests that must not
// run the real CLI: it answers --version like the real one, and otherwise
// records its arguments, working directory, whether the lock file of
// $CLAUDE_CODE_SSE_PORT existed when it started, and its environment, then
// waits on its input as the CLI would. ReadRecord returns what it recorded.
func StandInCLI(t testing.TB, dir string) (script, record string) {
	t.Helper()
	record = filepath.Join(dir, "cli-record")
	script = filepath.Join(dir, "claude")
	body := `#!/bin/sh
if [ "$1" = --version ]; then echo "2.1.197 (Claude Code)"; exit 0; fi
{
  printf 'args'; for a in "$@"; do printf ' [%s]' "$a"; done; echo
  echo "cwd $(pwd)"
  if [ -f "$CLAUDE_CONFIG_DIR/ide/$CLAUDE_CODE_SSE_PORT.lock" ]; then echo "lock present"; fi
  env | sed 's/^/env /'
} > "` + record + `.tmp"
mv "` + record + `.tmp" "` + record + `"
exec cat
`
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	return script, record
}

// ReadRecord waits for a StandInCLI to have started and returns its record,
// one line per entry ("args [a] [b]", "cwd …", "lock present", "env K=V").
func ReadRecord(t testing.TB, record string) []string {
	t.Helper()
	Wait(t, "the stand-in CLI to start", 30*time.Second, func() bool {
		_, err := os.Stat(record)
		return err == nil
	})
	data, err := os.ReadFile(record)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(data), "\n")
}

// Int converts a number decoded from msgpack into an `any` (int64, uint64
// or float64, depending on its value) to an int.
func Int(v any) int {
	switch n := v.(type) {
	case int64:
		return int(n)
	case uint64:
		return int(n)
	case int:
		return n
	case float64:
		return int(n)
	}
	return 0
}

// ShownLines returns what the window showing buf displays, line by line: a
// closed fold shows as its first line only.
func (n *Nvim) ShownLines(buf int) []string {
	n.t.Helper()
	var shown []string
	n.Lua(&shown, `
		local win = vim.fn.bufwinid(...)
		return vim.api.nvim_win_call(win, function()
			local out, l = {}, 1
			while l <= vim.fn.line('$') do
				table.insert(out, vim.fn.getline(l))
				l = vim.fn.foldclosedend(l) ~= -1 and vim.fn.foldclosedend(l) + 1 or l + 1
			end
			return out
		end)`, buf)
	return shown
}
