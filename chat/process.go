package chat

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// ErrExited is returned for a request the CLI can no longer answer because it is gone.
var ErrExited = errors.New("claude exited")

// ErrClosing is Send after Close began: the message is not written, so it cannot start a
// turn nobody will see.
var ErrClosing = errors.New("the chat is closing")

// Process is one running chat CLI (claude -p in stream-json mode): the conversation it
// holds is stored by the CLI (Conversation) and outlives it. Its methods are safe for concurrent use; Next is
// meant for one consumer.
type Process struct {
	cmd   *exec.Cmd
	log   *slog.Logger
	grace time.Duration
	batch *batcher
	in    *stdin
	ctl   *controls
	perms *permissions
	// workspaceTrust is Options.WorkspaceTrust, for Initialize.
	workspaceTrust string

	turns atomic.Int32 // user turns sent whose result has not come
	// lifecycle is set once the CLI reported a MessageState: a message is then counted
	// done by its own completed or cancelled, as queued ones may share a turn's result.
	lifecycle atomic.Bool
	// unstarted are the messages sent with SendAs that no turn has taken in yet. Without
	// lifecycle lines, they are forgotten when no turn is left.
	unstarted *unstarted
	done      chan struct{} // closed when the CLI has exited and everything is read
	exit      Exited

	closeOnce sync.Once
	// closing is set when Close begins; Send refuses from then on (see SendAs for the order
	// that leaves no message unseen by both).
	closing atomic.Bool
}

// Start spawns the CLI. A missing executable fails here (exec.ErrNotFound, wrapped); a CLI
// that dies right after starting is reported as Exited by Next.
func Start(opts Options) (*Process, error) {
	bin := opts.Bin
	if bin == "" {
		bin = "claude"
	}
	args := opts.args()
	if r := opts.Remote; r != nil {
		if len(r.Transport) == 0 || r.Dir == "" {
			return nil, errors.New("start claude there: no transport or no directory")
		}
		bin, args = r.command(args)
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		return nil, fmt.Errorf("start claude: %w", err)
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	window := opts.BatchWindow
	if window == 0 {
		window = DefaultBatchWindow
	}
	grace := opts.CloseGrace
	if grace <= 0 {
		grace = DefaultCloseGrace
	}

	// Our own pipe for stdin, not cmd.StdinPipe: an *os.File from os.Pipe takes write
	// deadlines, which is how a write honours its context.
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start claude: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("start claude: %w", err)
	}
	stderr := &logWriter{log: log}
	cmd := exec.Command(path, args...)
	cmd.Dir = opts.Dir
	cmd.Env = opts.Env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, stderr
	// Wait returns this long after the CLI exits even if a grandchild (a Bash tool's
	// background job) still holds stderr open.
	cmd.WaitDelay = grace
	setProcessGroup(cmd)
	if err := cmd.Start(); err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("start claude: %w", err)
	}
	// The child has its copies; ours would keep the pipes open after it exits.
	inR.Close()
	outW.Close()

	s := &Process{
		cmd: cmd, log: log, grace: grace,
		batch: newBatcher(window),
		in:    newStdin(inW, log),
		done:  make(chan struct{}),

		unstarted: newUnstarted(),
	}
	s.ctl = newControls(s.in, log)
	s.workspaceTrust = opts.WorkspaceTrust
	if opts.HookHandler != nil {
		s.ctl.hooks, s.ctl.handleHook = opts.Hooks, opts.HookHandler
	}
	s.perms = newPermissions()
	log.Info("claude started", "pid", cmd.Process.Pid, "dir", opts.Dir, "args", loggedArgs(cmd.Args[1:]))
	go s.read(outR, stderr)
	return s, nil
}

// PID is the CLI's process id.
func (s *Process) PID() int { return s.cmd.Process.Pid }

// Next waits for the next batch of events (see Event). After the CLI exited, and the batch
// with Exited was taken, it returns io.EOF.
func (s *Process) Next(ctx context.Context) ([]Event, error) { return s.batch.next(ctx) }

// Done is closed once the CLI has exited and its output has been read.
func (s *Process) Done() <-chan struct{} { return s.done }

// read is the one reader of the CLI's stdout; when stdout ends it reaps the CLI and reports
// how it went.
func (s *Process) read(out *os.File, stderr *logWriter) {
	defer close(s.done)
	p := newParser(s.emit)
	p.control = s.ctl.incoming
	err := readLines(out, maxStreamLine, func(line []byte) bool {
		if err := p.parse(line); err != nil {
			s.log.Warn("claude: skipped a line", "err", err, "line", clip(line))
		}
		return true
	}, s.skipped)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, os.ErrClosed) {
		s.log.Warn("claude: reading stdout", "err", err)
	}
	out.Close()
	werr := s.cmd.Wait()
	stderr.flush()
	s.in.close()
	s.exit = exitOf(s.cmd.ProcessState, s.turns.Load() > 0)
	if s.exit.Code != 0 {
		s.exit.Stderr = stderr.lastLine()
	}
	if werr != nil && s.cmd.ProcessState == nil {
		s.log.Warn("claude: wait", "err", werr)
	}
	s.log.Info("claude exited", "code", s.exit.Code, "signal", s.exit.Signal, "mid_turn", s.exit.MidTurn)
	s.ctl.fail(ErrExited)
	s.batch.add(s.exit)
	s.batch.close()
}

// emit is the parser's output: it keeps the process's state in step, then queues the event.
func (s *Process) emit(ev Event) {
	switch ev := ev.(type) {
	case TurnEnd:
		if !s.lifecycle.Load() {
			s.endTurn()
			if s.turns.Load() == 0 {
				s.unstarted.forget("")
			}
		}
	case MessageState:
		s.lifecycle.Store(true)
		if ev.State == "queued" {
			s.unstarted.cliQueued(ev.ID)
		} else {
			s.unstarted.forget(ev.ID)
		}
		if ev.State == "completed" || ev.State == "cancelled" {
			s.endTurn()
		}
	case PermissionRequest:
		r, why, message := s.perms.add(ev)
		if why != "" {
			s.refuse(ev, why, message)
			return
		}
		s.batch.add(r)
		return
	case PermissionCancelled:
		ev.Ticket = s.perms.withdraw(ev.RequestID)
		s.batch.add(ev)
		return
	}
	s.batch.add(ev)
}

// endTurn counts a result line; never below zero, as a result may come without a turn of ours
// (a slash command's).
func (s *Process) endTurn() {
	for {
		n := s.turns.Load()
		if n <= 0 || s.turns.CompareAndSwap(n, n-1) {
			return
		}
	}
}

func exitOf(ps *os.ProcessState, midTurn bool) Exited {
	e := Exited{Code: -1, MidTurn: midTurn}
	if ps == nil {
		return e
	}
	e.Code = ps.ExitCode()
	e.Signal = signalOf(ps)
	return e
}

// Close ends the conversation: it closes the CLI's stdin, which makes it exit (code 0), and
// kills it if it is still there after the grace period. It returns once the CLI is gone and
// its output read; Next then hands out what is left and Exited. ctx bounds the wait after
// the kill too.
//
// Mid-turn, the turn is interrupted first: a CLI whose stdin closes while a permission
// waits takes that as a failed request and asks the model again (2.1.332), which can answer
// with a tool the mode allows, run with nobody to see it. Interrupted, it ends the turn as
// the user's interrupt would, and the stored conversation says so. A Send after Close began
// fails with ErrClosing.
func (s *Process) Close(ctx context.Context) error {
	s.closeOnce.Do(func() {
		s.closing.Store(true)
		if s.turns.Load() > 0 {
			s.stopForClose(ctx)
		}
		s.in.close()
	})
	select {
	case <-s.done:
		return nil
	case <-time.After(s.grace):
	case <-ctx.Done():
	}
	s.log.Warn("claude did not exit after its stdin closed; killing it", "pid", s.PID())
	killProcess(s.cmd)
	select {
	case <-s.done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("close claude: %w", ctx.Err())
	}
}

// stopForClose withdraws the messages waiting behind the turn, which would otherwise run as
// the next one (both CLIs, an interrupt or not), then interrupts the turn, then withdraws
// any the interrupt left queued. It waits at most closeInterruptWait for the CLI's answers:
// one that does not answer is killed after the grace period anyway.
func (s *Process) stopForClose(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, closeInterruptWait)
	defer cancel()
	s.log.Debug("chat: closing mid-turn: withdrawing and interrupting", "pid", s.PID(), "unstarted", len(s.unstarted.ids()))
	if s.lifecycle.Load() {
		s.unstarted.awaitQueued(ctx)
	}
	s.withdrawUnstarted(ctx)
	if err := s.Interrupt(ctx); err != nil {
		s.log.Warn("chat: interrupting the turn before closing", "pid", s.PID(), "err", err)
	}
	s.withdrawUnstarted(ctx)
	s.log.Debug("chat: closing mid-turn: interrupted", "pid", s.PID(), "unstarted", len(s.unstarted.ids()))
}

func (s *Process) withdrawUnstarted(ctx context.Context) {
	for _, id := range s.unstarted.ids() {
		withdrawn, err := s.Withdraw(ctx, id)
		if err != nil {
			s.log.Warn("chat: withdrawing a queued message before closing", "pid", s.PID(), "id", id, "err", err)
		} else if withdrawn && !s.lifecycle.Load() {
			// 2.1.197 says nothing of a message it dropped, where 2.1.332 sends its
			// "cancelled" line: say it, or the chat takes the message for the next
			// turn's and never gives it back.
			s.batch.add(MessageState{ID: id, State: "cancelled"})
		}
	}
}

// closeInterruptWait bounds what Close does mid-turn before it closes stdin. The CLI answers
// at once (a few milliseconds); the bound is for one that is stuck.
const closeInterruptWait = 2 * time.Second

// clip shortens a line for the log.
func clip(b []byte) string {
	const max = 300
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}

// loggedArgs is the command line as the log shows it: --mcp-config values can carry a
// server's token, so they are left out.
func loggedArgs(args []string) []string {
	out := slices.Clone(args)
	for i := 1; i < len(out); i++ {
		if out[i-1] == "--mcp-config" {
			out[i] = "…"
		}
	}
	return out
}
