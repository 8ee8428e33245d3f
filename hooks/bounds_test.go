package hooks

import (
	"bytes"
	"context"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// waitFor is how long the tests wait on a condition: generous, for a busy machine.
const waitFor = 30 * time.Second

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitFor)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", waitFor, what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// hookResult is how a hook command ended.
type hookResult struct {
	out  string
	code int
	err  error
}

// startHook runs the test binary as a hook command (as hookCommand does) in the background.
func startHook(t *testing.T, socket string, event []byte, env ...string) <-chan hookResult {
	t.Helper()
	cmd := exec.Command("sh", "-c", shellQuote(os.Args[0]))
	cmd.Env = append(append(os.Environ(), "HOOKS_TEST_FORWARD="+socket, OriginEnv+"=terminal:2"), env...)
	cmd.Stdin = bytes.NewReader(event)
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	done := make(chan hookResult, 1)
	go func() {
		err := cmd.Wait()
		res := hookResult{out: out.String(), err: err}
		if exit, ok := err.(*exec.ExitError); ok {
			res.code, res.err = exit.ExitCode(), nil
		}
		done <- res
	}()
	return done
}

// ended waits for a hook command started by startHook, failing the test if it is still there
// after waitFor.
func ended(t *testing.T, what string, done <-chan hookResult) hookResult {
	t.Helper()
	select {
	case res := <-done:
		if res.err != nil {
			t.Fatalf("%s: %v", what, res.err)
		}
		return res
	case <-time.After(waitFor):
		t.Fatalf("%s: the hook command still runs after %v", what, waitFor)
		return hookResult{}
	}
}

// shortSocket is a socket path in a fresh directory short enough for sun_path.
func shortSocket(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "hk")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return filepath.Join(dir, "s.sock")
}

// Unfinished events (a process that writes part of one and waits) hold no more than the
// budget: those past it are answered at once, while their writers still wait; the budget
// comes back when they go, and an event is served again.
func TestUnfinishedEventsHoldNoMoreThanTheBudget(t *testing.T) {
	old := readTimeout
	readTimeout = time.Hour // else each unfinished event would end on its own after 10 s
	t.Cleanup(func() { readTimeout = old })
	const budgetBytes = 4 << 20
	got := make(chan Event, 1)
	r, err := listenWith("", func(ctx context.Context, e Event) Reply {
		got <- e
		return Reply{Stdout: []byte("ok")}
	}, nil, limits{serving: maxServing, bytes: budgetBytes})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })

	// Each one grows its buffer to 1 MiB: four fit, at most.
	const conns = 20
	part := append([]byte("terminal:1\n{\"hook_event_name\":\"PostToolUse\",\"tool_response\":\""), bytes.Repeat([]byte("x"), 700<<10)...)
	var answered atomic.Int32
	var open []net.Conn
	for range conns {
		c, err := net.Dial("unix", r.Socket())
		if err != nil {
			t.Fatal(err)
		}
		open = append(open, c)
		go func() { _, _ = c.Write(part) }()
		go func() {
			// Never half-closed nor closed until counted: the only way this read ends is the
			// receiver's answer, an EOF or, as it closes with the event unread, a reset.
			_, _ = io.Copy(io.Discard, c)
			answered.Add(1)
		}()
	}
	waitUntil(t, "the events past the budget to be answered", func() bool { return answered.Load() >= conns-4 })
	if peak := r.budget.maxHeld(); peak > budgetBytes {
		t.Errorf("the receiver held %d bytes of events at once; the budget is %d", peak, budgetBytes)
	}
	for _, c := range open {
		c.Close()
	}
	waitUntil(t, "the budget to come back", func() bool { return r.budget.size()-heldNow(r.budget) == budgetBytes })
	if out, code := hookCommand(t, r.Socket(), []byte(`{"hook_event_name":"Stop"}`)); code != 0 || out != "ok" {
		t.Errorf("after the flood: printed %q, exit %d", out, code)
	}
	if e := <-got; e.Name != Stop {
		t.Errorf("after the flood the handler got %+v", e)
	}
}

func heldNow(b *budget) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.held
}

// No more events are handled at once than the limit; one more is answered empty at once
// (its hook exits 0, printing nothing) instead of waiting, and the rest are served.
func TestTooManyEventsAtOnceAreAnsweredEmptyAtOnce(t *testing.T) {
	const serving = 3
	var in, most atomic.Int32
	release := make(chan struct{})
	r, err := listenWith("", func(ctx context.Context, e Event) Reply {
		n := in.Add(1)
		defer in.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		select {
		case <-release:
		case <-ctx.Done():
		}
		return Reply{Stdout: []byte("served")}
	}, nil, limits{serving: serving, bytes: eventBudget})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	var releaseOnce sync.Once
	t.Cleanup(func() { releaseOnce.Do(func() { close(release) }) })
	event := []byte(`{"hook_event_name":"PreToolUse","tool_name":"Edit"}`)
	var first []<-chan hookResult
	for range serving {
		first = append(first, startHook(t, r.Socket(), event))
	}
	waitUntil(t, "the first events to be handled", func() bool {
		if in.Load() == serving {
			return true
		}
		// A hook that ended before its event was handled (it could not connect, or its
		// event was refused) would leave this waiting: say so at once, with how it ended.
		for i, done := range first {
			select {
			case res := <-done:
				t.Fatalf("hook %d ended before the receiver answered it (%d of %d in its handler): printed %q, exit %d, %v",
					i, in.Load(), serving, res.out, res.code, res.err)
			default:
			}
		}
		return false
	})
	for i := range 5 {
		// Without a silence that would end it: only the receiver's answer does.
		res := ended(t, "an event past the limit", startHook(t, r.Socket(), event, "HOOKS_TEST_SILENCE=1h"))
		if res.code != 0 || res.out != "" {
			t.Errorf("event %d past the limit: printed %q, exit %d; want nothing, exit 0", i, res.out, res.code)
		}
	}
	releaseOnce.Do(func() { close(release) })
	for _, done := range first {
		if res := ended(t, "an event within the limit", done); res.code != 0 || res.out != "served" {
			t.Errorf("an event within the limit: printed %q, exit %d", res.out, res.code)
		}
	}
	if m := most.Load(); m > serving {
		t.Errorf("%d events were handled at once; the limit is %d", m, serving)
	}
}

// A host that is stopped (SIGSTOP) still has its socket accept: its kernel queues the
// connection and takes what fits of the event. The hook ends anyway, printing nothing and
// exiting 0, well before the CLI's 60 s, whether the event fits in the socket's buffer or not.
func TestAStoppedHostDoesNotHoldTheHook(t *testing.T) {
	socket := shortSocket(t)
	ln, err := net.Listen("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var mu sync.Mutex
	var accepted []net.Conn // never read, never answered
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			accepted = append(accepted, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range accepted {
			c.Close()
		}
	})
	small := []byte(`{"hook_event_name":"UserPromptSubmit","prompt":"go"}`)
	big := []byte(`{"hook_event_name":"PostToolUse","tool_response":"` + strings.Repeat("x", 2<<20) + `"}`)
	for name, event := range map[string][]byte{"a small event": small, "an event past the socket's buffer": big} {
		res := ended(t, name, startHook(t, socket, event, "HOOKS_TEST_SILENCE=2s"))
		if res.code != 0 || res.out != "" {
			t.Errorf("%s to a stopped host: printed %q, exit %d; want nothing, exit 0", name, res.out, res.code)
		}
	}
}

// A host at work (a snapshot of a large tree) says so while its handler runs: the hook waits
// past the silence it would take for a stopped host, and prints the reply.
func TestAHostAtWorkKeepsTheHookWaiting(t *testing.T) {
	old := keepaliveEvery
	keepaliveEvery = 100 * time.Millisecond
	t.Cleanup(func() { keepaliveEvery = old })
	const silence = 2 * time.Second
	r := listen(t, func(ctx context.Context, e Event) Reply {
		select {
		case <-time.After(3 * silence): // the slow snapshot, longer than the silence
		case <-ctx.Done():
		}
		return Reply{Stdout: []byte("You reverted a.txt.\n")}
	})
	res := ended(t, "a slow handler's hook", startHook(t, r.Socket(), []byte(`{"hook_event_name":"UserPromptSubmit"}`), "HOOKS_TEST_SILENCE="+silence.String()))
	if res.code != 0 || res.out != "You reverted a.txt.\n" {
		t.Errorf("a slow handler: the hook printed %q, exit %d", res.out, res.code)
	}
}

// A reply cut short (the host stopped while writing it) is not printed in part: a part of a
// UserPromptSubmit reply would reach the model as if whole.
func TestAReplyCutShortPrintsNothing(t *testing.T) {
	socket := shortSocket(t)
	ln, err := net.Listen("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	hold := make(chan struct{})
	t.Cleanup(func() { close(hold) })
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		_, _ = io.Copy(io.Discard, c)
		_, _ = c.Write([]byte("\x00\x00You reverted a.txt; do not"))
		<-hold // then nothing more, the connection left open
	}()
	res := ended(t, "a reply cut short", startHook(t, socket, []byte(`{"hook_event_name":"UserPromptSubmit"}`), "HOOKS_TEST_SILENCE=2s"))
	if res.code != 0 || res.out != "" {
		t.Errorf("a reply cut short: printed %q, exit %d; want nothing, exit 0", res.out, res.code)
	}
}
