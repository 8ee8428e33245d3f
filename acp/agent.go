package acp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// DefaultCloseGrace is how long an agent gets to exit after its stdin closes before it is
// killed: long enough for claude-agent-acp to end its Claude CLI.
const DefaultCloseGrace = 5 * time.Second

// Command is how to start an agent.
type Command struct {
	Path string   // the executable: an absolute path, or a name looked up in $PATH
	Args []string // its arguments, without the name
	Env  []string // its whole environment; nil inherits ours
	Dir  string   // its working directory; empty is ours
	// Options tune the connection; Options.Logger also gets the agent's stderr lines (at
	// debug level).
	Options Options
	// CloseGrace is how long Close waits for the agent to exit on its own; 0 is
	// DefaultCloseGrace.
	CloseGrace time.Duration
}

// Agent is an agent process and the connection over its stdin and stdout. Its stderr is
// logged and its end kept for the error that reports its exit. It runs in a process group
// of its own, killed as a whole once the agent is gone, so that nothing it started (the
// Claude CLI, MCP servers, commands) outlives it.
type Agent struct {
	*Conn
	cmd    *exec.Cmd
	stdin  *os.File
	stderr *tailWriter
	grace  time.Duration
	log    *slog.Logger

	exited  chan struct{} // closed once the process is reaped
	exitErr *ExitError    // set before exited is closed
}

// ExitError is how the agent ended: the reason its connection ended and every call
// waiting failed, when it exited on its own.
type ExitError struct {
	Code   int    // the exit status, -1 when killed by a signal
	Signal string // the signal that killed it, if one did
	Stderr string // the end of its stderr
}

func (e *ExitError) Error() string {
	s := "the agent exited with status " + strconv.Itoa(e.Code)
	if e.Signal != "" {
		s = "the agent was killed by signal " + e.Signal
	}
	if e.Stderr != "" {
		s += "; the end of its stderr:\n" + lastLines(e.Stderr, 10, 2048)
	}
	return s
}

// Start runs the agent and serves the connection to it. A missing executable fails here;
// an agent that dies right away fails the first call with its ExitError.
func Start(c Command, client Client) (*Agent, error) {
	path, err := exec.LookPath(c.Path)
	if err != nil {
		return nil, fmt.Errorf("acp: start the agent: %w", err)
	}
	log := c.Options.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	grace := c.CloseGrace
	if grace <= 0 {
		grace = DefaultCloseGrace
	}
	// Our own pipes rather than StdinPipe and StdoutPipe: an *os.File takes write
	// deadlines (a write honours its context), and Wait does not close our stdout
	// reader under the connection's reader.
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("acp: start the agent: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("acp: start the agent: %w", err)
	}
	stderr := &tailWriter{log: log}
	cmd := exec.Command(path, c.Args...)
	cmd.Env, cmd.Dir = c.Env, c.Dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, stderr
	// Wait returns this long after the agent exits even if something it started still
	// holds stderr open.
	cmd.WaitDelay = grace
	setProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("acp: start the agent: %w", err)
	}
	// The child has its copies; ours would keep the pipes open after it exits.
	inR.Close()
	outW.Close()

	a := &Agent{cmd: cmd, stdin: inW, stderr: stderr, grace: grace, log: log, exited: make(chan struct{})}
	go a.reap()
	log.Info("acp: agent started", "pid", cmd.Process.Pid, "path", path, "dir", c.Dir)
	a.Conn = NewConn(&exitReader{f: outR, a: a}, inW, client, c.Options)
	return a, nil
}

// PID is the agent's process id.
func (a *Agent) PID() int { return a.cmd.Process.Pid }

// Exited is closed once the agent process is gone.
func (a *Agent) Exited() <-chan struct{} { return a.exited }

// ExitErr is how the agent exited, nil while it runs.
func (a *Agent) ExitErr() *ExitError {
	select {
	case <-a.exited:
		return a.exitErr
	default:
		return nil
	}
}

// Stderr is the end of the agent's stderr so far.
func (a *Agent) Stderr() string { return a.stderr.String() }

// reap waits for the agent, then kills what is left of its process group.
func (a *Agent) reap() {
	err := a.cmd.Wait()
	ps := a.cmd.ProcessState
	e := &ExitError{Code: -1, Stderr: a.stderr.String()}
	if ps != nil {
		e.Code, e.Signal = ps.ExitCode(), signalOf(ps)
	} else {
		a.log.Warn("acp: waiting for the agent", "err", err)
	}
	killGroup(a.cmd)
	a.stdin.Close()
	a.exitErr = e
	a.log.Info("acp: agent exited", "pid", a.cmd.Process.Pid, "code", e.Code, "signal", e.Signal)
	close(a.exited)
}

// Close ends the connection (calls waiting return ErrClosed), then closes the agent's
// stdin, which makes it exit, and kills it if it is still there after the grace period.
// It returns once the agent is gone; ctx bounds the wait after the kill too.
func (a *Agent) Close(ctx context.Context) error {
	a.Conn.Close()
	a.stdin.Close()
	t := time.NewTimer(a.grace)
	defer t.Stop()
	select {
	case <-a.exited:
		return nil
	case <-t.C:
	case <-ctx.Done():
	}
	a.log.Warn("acp: the agent did not exit after its stdin closed; killing it", "pid", a.PID())
	killGroup(a.cmd)
	select {
	case <-a.exited:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("acp: close the agent: %w", ctx.Err())
	}
}

// childPoll is how often WaitChildren looks at the agent's child processes.
const childPoll = 10 * time.Millisecond

// WaitChildren waits until the agent has no child process left, or ctx ends (its error
// then). After a session/close, claude-agent-acp has ended its Claude CLI's stdin, and the
// CLI writes the conversation's last messages as it exits; but an agent whose own stdin
// closes exits at once and SIGTERMs the CLI on its way out. Waiting here first keeps the
// conversation whole. Where the children cannot be listed (not Linux) it returns at once.
func (a *Agent) WaitChildren(ctx context.Context) error {
	t := time.NewTicker(childPoll)
	defer t.Stop()
	for {
		if has, known := hasChildren(a.PID()); !has || !known {
			return nil
		}
		select {
		case <-a.exited:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

// exitReader is the agent's stdout as the connection reads it: at its end, it waits for
// the agent to exit (killing it after the grace period if it closed stdout and stayed)
// and ends with how it exited instead of io.EOF.
type exitReader struct {
	f *os.File
	a *Agent
}

func (r *exitReader) Read(p []byte) (int, error) {
	n, err := r.f.Read(p)
	if errors.Is(err, io.EOF) {
		r.f.Close()
		return n, r.a.waitExit()
	}
	return n, err
}

func (a *Agent) waitExit() error {
	t := time.NewTimer(a.grace)
	defer t.Stop()
	select {
	case <-a.exited:
	case <-t.C:
		a.log.Warn("acp: the agent closed its stdout but did not exit; killing it", "pid", a.PID())
		killGroup(a.cmd)
		<-a.exited
	}
	return a.exitErr
}

// lastLines is the last n lines of s, at most max bytes of them (cut on a character
// boundary).
func lastLines(s string, n, max int) string {
	start := len(s)
	for k := 0; k < n; k++ {
		j := strings.LastIndexByte(s[:start], '\n')
		if j < 0 {
			start = -1
			break
		}
		start = j
	}
	start++ // past the newline, or 0
	if len(s)-start > max {
		start = len(s) - max
		for start < len(s) && !utf8.RuneStart(s[start]) {
			start++
		}
	}
	return s[start:]
}
