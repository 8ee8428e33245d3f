//go:build unix

// Package tmuxterm runs a terminal program in a detached tmux session so a test can read its
// screen and type into it. Each Term has its own tmux server (its own socket), so tests never
// see each other's sessions or the user's.
package tmuxterm

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/procstat"
)

const (
	// pollInterval is how often WaitFor re-reads the screen; tmux answers in about a millisecond.
	pollInterval = 100 * time.Millisecond
	// closeTimeout is how long Close lets the hung-up program shut down before killing it.
	closeTimeout = 10 * time.Second
)

// Options says where and how to run the program.
type Options struct {
	// Dir is the working directory.
	Dir string
	// Env is the program's whole environment (KEY=VALUE); nothing else is inherited.
	// TERM defaults to tmux-256color.
	Env []string
	// Width and Height are the terminal size; 0 means 120×40.
	Width, Height int
}

// Term is a program running in a tmux pane.
type Term struct {
	tmuxDir string // holds the server socket
	socket  string
	target  string
}

// Start runs argv in a new detached tmux session. The session is killed when the test ends,
// and if the test failed its last screen is logged.
func Start(t testing.TB, opts Options, argv ...string) *Term {
	t.Helper()
	if len(argv) == 0 {
		t.Fatal("tmuxterm: Start needs a command")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatalf("tmuxterm: tmux is not installed (apt-get install tmux): %v", err)
	}
	if opts.Width == 0 {
		opts.Width = 120
	}
	if opts.Height == 0 {
		opts.Height = 40
	}
	// A short directory of our own: a Unix socket path may not exceed about 100 bytes, and
	// t.TempDir() paths grow with the test name.
	dir, err := os.MkdirTemp("", "tmuxterm")
	if err != nil {
		t.Fatalf("tmuxterm: %v", err)
	}
	tm := &Term{tmuxDir: dir, socket: dir + "/sock", target: "e2e:0.0"}

	env := opts.Env
	if !hasKey(env, "TERM") {
		env = append(env, "TERM=tmux-256color")
	}
	// env -i gives the program exactly opts.Env, whatever the tmux server inherited.
	cmd := append([]string{"env", "-i"}, env...)
	cmd = append(cmd, argv...)
	args := []string{"new-session", "-d", "-s", "e2e", "-x", fmt.Sprint(opts.Width), "-y", fmt.Sprint(opts.Height)}
	if opts.Dir != "" {
		args = append(args, "-c", opts.Dir)
	}
	args = append(args, "--")
	args = append(args, cmd...)
	// The options are set in the same tmux invocation as the session starts, before the
	// program can draw: keep the pane after the program exits (to read its last words), keep
	// the size fixed although no client is attached, and pass focus events through (the CLI
	// otherwise prints a hint about them in its footer).
	args = append(args,
		";", "set-option", "-g", "remain-on-exit", "on",
		";", "set-option", "-g", "window-size", "manual",
		";", "set-option", "-g", "focus-events", "on",
		";", "set-option", "-g", "history-limit", "10000")
	if out, err := tm.tmux(args...); err != nil {
		os.RemoveAll(dir)
		t.Fatalf("tmuxterm: start %q: %v: %s", argv, err, out)
	}
	t.Cleanup(func() {
		if t.Failed() {
			if s, err := tm.Scrollback(); err == nil {
				t.Logf("tmuxterm: last screen of %q (with scrollback):\n%s", argv[0], s)
			}
		}
		tm.Close()
	})
	return tm
}

// Screen returns the visible screen as text, one line per row (no colours).
func (tm *Term) Screen() (string, error) {
	out, err := tm.tmux("capture-pane", "-p", "-t", tm.target)
	if err != nil {
		return "", fmt.Errorf("tmuxterm: capture-pane: %w: %s", err, out)
	}
	return out, nil
}

// Scrollback returns the scrollback history followed by the visible screen.
func (tm *Term) Scrollback() (string, error) {
	out, err := tm.tmux("capture-pane", "-p", "-S", "-", "-t", tm.target)
	if err != nil {
		return "", fmt.Errorf("tmuxterm: capture-pane: %w: %s", err, out)
	}
	return out, nil
}

// WaitFor polls the screen until re matches and returns that screen. On timeout the error
// carries the last screen.
func (tm *Term) WaitFor(ctx context.Context, re *regexp.Regexp) (string, error) {
	return tm.waitScreen(ctx, re.String(), re.MatchString)
}

// WaitUntil polls the screen until ok accepts it, and returns that screen; what names the
// wait in the error, which carries the last screen.
func (tm *Term) WaitUntil(ctx context.Context, what string, ok func(string) bool) (string, error) {
	return tm.waitScreen(ctx, what, ok)
}

// WaitForText is WaitFor for a plain substring.
func (tm *Term) WaitForText(ctx context.Context, text string) (string, error) {
	return tm.waitScreen(ctx, fmt.Sprintf("%q", text), func(s string) bool { return strings.Contains(s, text) })
}

// WaitGone polls until re no longer matches the screen.
func (tm *Term) WaitGone(ctx context.Context, re *regexp.Regexp) (string, error) {
	return tm.waitScreen(ctx, "no "+re.String(), func(s string) bool { return !re.MatchString(s) })
}

func (tm *Term) waitScreen(ctx context.Context, what string, ok func(string) bool) (string, error) {
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	var last string
	for {
		s, err := tm.Screen()
		if err != nil {
			return last, err
		}
		last = s
		if ok(s) {
			return s, nil
		}
		if dead, status := tm.Exited(); dead {
			// It may have printed what we wait for between the capture above and its exit.
			if s, err := tm.Screen(); err == nil && ok(s) {
				return s, nil
			}
			return s, fmt.Errorf("tmuxterm: waiting for %s: the program exited (status %d); screen:\n%s", what, status, s)
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
			return s, fmt.Errorf("tmuxterm: waiting for %s: %w; screen:\n%s", what, ctx.Err(), s)
		}
	}
}

// Type sends text literally, as if typed (no key names are interpreted).
func (tm *Term) Type(text string) error {
	if out, err := tm.tmux("send-keys", "-t", tm.target, "-l", "--", text); err != nil {
		return fmt.Errorf("tmuxterm: type %q: %w: %s", text, err, out)
	}
	return nil
}

// Send sends tmux key names, e.g. "Enter", "Escape", "C-c", "Down", "1".
func (tm *Term) Send(keys ...string) error {
	args := append([]string{"send-keys", "-t", tm.target, "--"}, keys...)
	if out, err := tm.tmux(args...); err != nil {
		return fmt.Errorf("tmuxterm: send %q: %w: %s", keys, err, out)
	}
	return nil
}

// Exited reports whether the program has ended, and its exit status (128+n for a program
// killed by signal n).
func (tm *Term) Exited() (bool, int) {
	// tmux marks the pane dead when the terminal closes and records the status only when it
	// has reaped the process, a moment later: until then the pane does not count as dead.
	out, err := tm.tmux("display-message", "-p", "-t", tm.target, "#{pane_dead} s#{pane_dead_status} g#{pane_dead_signal}")
	if err != nil {
		return false, 0
	}
	f := strings.Fields(out)
	if len(f) != 3 || f[0] != "1" {
		return false, 0
	}
	var status, signal int
	if _, err := fmt.Sscan(strings.TrimPrefix(f[1], "s"), &status); err == nil {
		return true, status
	}
	if _, err := fmt.Sscan(strings.TrimPrefix(f[2], "g"), &signal); err == nil {
		return true, 128 + signal
	}
	// tmux 3.3 sometimes misses the SIGCHLD of a program that exits right away and never
	// records its status; the unreaped zombie still holds it.
	if pid, err := tm.PID(); err == nil {
		if status, ok := zombieStatus(pid); ok {
			return true, status
		}
	}
	return false, 0
}

// zombieStatus reads the exit status of an exited, unreaped process from /proc (the
// exit_code field, in wait(2) form).
func zombieStatus(pid int) (int, bool) {
	st, err := procstat.Read(pid)
	// exit_code is field 52.
	if err != nil || st.Field(3) != "Z" || st.Field(52) == "" {
		return 0, false
	}
	var code int
	if _, err := fmt.Sscan(st.Field(52), &code); err != nil {
		return 0, false
	}
	if sig := code & 0x7f; sig != 0 {
		return 128 + sig, true
	}
	return code >> 8 & 0xff, true
}

// PID is the process id of the program (the env wrapper execs it, so it is the program's).
func (tm *Term) PID() (int, error) {
	out, err := tm.tmux("display-message", "-p", "-t", tm.target, "#{pane_pid}")
	if err != nil {
		return 0, fmt.Errorf("tmuxterm: pane pid: %w: %s", err, out)
	}
	var pid int
	if _, err := fmt.Sscan(out, &pid); err != nil {
		return 0, fmt.Errorf("tmuxterm: pane pid %q: %w", out, err)
	}
	return pid, nil
}

// Close kills the tmux server, which hangs up on the program, and waits (up to
// closeTimeout, then SIGKILL) until the program has exited, so that it no longer writes into
// directories the test is about to remove. It is safe to call twice.
func (tm *Term) Close() {
	pid, _ := tm.PID()
	tm.tmux("kill-server")
	os.RemoveAll(tm.tmuxDir)
	if pid <= 0 {
		return
	}
	deadline := time.Now().Add(closeTimeout)
	for Alive(pid) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			deadline = time.Now().Add(closeTimeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Alive reports whether pid runs; a zombie counts as gone (in a container PID 1 may never
// reap the orphan).
func Alive(pid int) bool {
	st, err := procstat.Read(pid)
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	state := st.Field(3)
	return state != "Z" && state != "X"
}

func (tm *Term) tmux(args ...string) (string, error) {
	// -f /dev/null: the user's ~/.tmux.conf must not change what tests see.
	cmd := exec.Command("tmux", append([]string{"-S", tm.socket, "-f", "/dev/null"}, args...)...)
	cmd.Env = append(os.Environ(), "TMUX=") // also works when the tests run inside tmux
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func hasKey(env []string, key string) bool {
	for _, kv := range env {
		if strings.HasPrefix(kv, key+"=") {
			return true
		}
	}
	return false
}
