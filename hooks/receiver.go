package hooks

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// Reply is the plugin's answer to one event.
type Reply struct {
	// Stdout is what the hook prints. For UserPromptSubmit and SessionStart the CLI adds it to
	// the model's context; for other events it is shown only in the CLI's transcript mode.
	Stdout []byte
}

// Handler handles one event. It may take its time (a snapshot of a large work tree): the
// CLI waits for the hook, up to the timeout Settings gives it; ctx ends a little before.
type Handler func(ctx context.Context, e Event) Reply

// maxEvent bounds what is read of one event; a PostToolUse carries the tool's whole result,
// and nothing the plugin reads lies beyond the first fields, which are read from an event
// cut there (parseEvent).
const maxEvent = 4 << 20

// handleTimeout: a handler's context ends here, before the longest hook timeout Settings
// writes (snapshotTimeout), so that an answer still reaches the hook.
const handleTimeout = 50 * time.Second

// maxSocketPath: sun_path holds 108 bytes on Linux, 104 on macOS, with the final NUL.
const maxSocketPath = 104

// readTimeout: a connected hook sends its event at once.
var readTimeout = 10 * time.Second

// keepaliveEvery: while a handler runs, the receiver sends a NUL this often, so that
// Forward tells a host at work (a snapshot of a large tree) from one that is stopped or
// stuck (see silenceTimeout). The reply itself is text: it never starts with a NUL.
var keepaliveEvery = time.Second

// Receiver listens for hook events on a Unix socket in a directory of its own (0700).
type Receiver struct {
	dir     string
	ln      net.Listener
	handle  Handler
	log     *slog.Logger
	ctx     context.Context
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	closeMu sync.Once

	slots  chan struct{} // one per connection being served
	budget *budget
	warned [2]atomic.Bool // overSlots, overBudget: each logged once as a warning

	mu    sync.Mutex // guards conns
	conns map[net.Conn]bool
}

const (
	overSlots = iota
	overBudget
)

// Listen makes a private directory under parent (os.TempDir() when empty) and listens in it.
func Listen(parent string, handle Handler, log *slog.Logger) (*Receiver, error) {
	return listenWith(parent, handle, log, limits{serving: maxServing, bytes: eventBudget})
}

func listenWith(parent string, handle Handler, log *slog.Logger, lim limits) (*Receiver, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	dir, err := os.MkdirTemp(parent, "claude-nvim-hooks-*")
	if err != nil {
		return nil, fmt.Errorf("hooks: %w", err)
	}
	// MkdirTemp makes it 0700: no other user can reach the socket inside.
	socket := filepath.Join(dir, "hooks.sock")
	if len(socket) >= maxSocketPath {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("hooks: the socket path %s is too long for a Unix socket; set TMPDIR to a shorter directory", socket)
	}
	ln, err := net.Listen("unix", socket)
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("hooks: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &Receiver{dir: dir, ln: ln, handle: handle, log: log, ctx: ctx, cancel: cancel,
		slots: make(chan struct{}, lim.serving), budget: newBudget(lim.bytes), conns: map[net.Conn]bool{}}
	r.wg.Add(1)
	go r.accept()
	return r, nil
}

// Socket is the path hooks connect to.
func (r *Receiver) Socket() string { return r.ln.Addr().String() }

// Close stops listening, cancels the handlers running, removes the directory and waits for
// the handlers. The directory goes before the wait, and the connections being read are
// closed: Neovim kills an exiting host 2 s after asking, and a directory left then waits for
// the next host's sweep.
func (r *Receiver) Close() error {
	var err error
	r.closeMu.Do(func() {
		r.cancel()
		err = r.ln.Close()
		r.mu.Lock()
		for conn := range r.conns {
			conn.Close()
		}
		r.conns = nil
		r.mu.Unlock()
		if rmErr := os.RemoveAll(r.dir); err == nil {
			err = rmErr
		}
		r.wg.Wait()
	})
	return err
}

func (r *Receiver) accept() {
	defer r.wg.Done()
	for {
		conn, err := r.ln.Accept()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				r.log.Warn("hooks: accept", "err", err)
			}
			return
		}
		select {
		case r.slots <- struct{}{}:
		default:
			// Answered empty at once: the hook prints nothing and Claude goes on.
			conn.Close()
			r.refused(overSlots, "hooks: too many events at once; answered empty", "limit", cap(r.slots))
			continue
		}
		if !r.track(conn) {
			conn.Close()
			<-r.slots
			return
		}
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			defer func() { <-r.slots }()
			defer r.untrack(conn)
			r.serve(conn)
		}()
	}
}

// track notes conn for Close; false once closed.
func (r *Receiver) track(conn net.Conn) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.conns == nil {
		return false
	}
	r.conns[conn] = true
	return true
}

func (r *Receiver) untrack(conn net.Conn) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.conns, conn)
	conn.Close()
}

// refused logs an event answered empty for lack of room: the first time of each kind as a
// warning (the user's log shows what happened), later ones for debugging only, as a flood
// would fill the log.
func (r *Receiver) refused(kind int, msg string, args ...any) {
	if r.warned[kind].CompareAndSwap(false, true) {
		r.log.Warn(msg+" (logged once)", args...)
		return
	}
	r.log.Debug(msg, args...)
}

// serve reads one event (to the client's half-close), handles it and writes the reply,
// after a NUL every keepaliveEvery while the handler runs.
func (r *Receiver) serve(conn net.Conn) {
	_ = conn.SetReadDeadline(time.Now().Add(readTimeout))
	data, held, cut, err := readEvent(conn, r.budget)
	defer func() { r.budget.give(held) }()
	if errors.Is(err, errOverBudget) {
		r.refused(overBudget, "hooks: events past the memory budget; answered empty", "budget", r.budget.size())
		return
	}
	if err != nil {
		r.log.Debug("hooks: read", "err", err)
		return
	}
	e, err := parseEvent(data, cut)
	if err != nil {
		r.log.Debug("hooks: bad event", "err", err, "bytes", len(data))
		return
	}
	// The buffer goes; the budget keeps what the event holds while it is handled.
	data = nil
	if keep := e.size(); keep < held {
		r.budget.give(held - keep)
		held = keep
	}
	ctx, cancel := context.WithTimeout(r.ctx, handleTimeout)
	defer cancel()
	stop := keepalive(conn)
	reply := r.handle(ctx, e)
	stop()
	_ = conn.SetWriteDeadline(time.Now().Add(readTimeout))
	if _, err := conn.Write(reply.Stdout); err != nil {
		r.log.Debug("hooks: reply", "err", err)
	}
}

// keepalive writes a NUL to conn every keepaliveEvery until stop, which returns once the
// writes are over (the reply follows on the same connection).
func keepalive(conn net.Conn) (stop func()) {
	done, over := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(over)
		tick := time.NewTicker(keepaliveEvery)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				_ = conn.SetWriteDeadline(time.Now().Add(readTimeout))
				if _, err := conn.Write([]byte{0}); err != nil {
					return
				}
			}
		}
	}()
	return func() {
		close(done)
		<-over
	}
}
