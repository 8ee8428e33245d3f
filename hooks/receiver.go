package hooks

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
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
// and nothing the plugin reads lies beyond the first fields.
const maxEvent = 4 << 20

// handleTimeout: a handler's context ends here, before the longest hook timeout Settings
// writes (snapshotTimeout), so that an answer still reaches the hook.
const handleTimeout = 50 * time.Second

// maxSocketPath: sun_path holds 108 bytes on Linux, 104 on macOS, with the final NUL.
const maxSocketPath = 104

// readTimeout: a connected hook sends its event at once.
const readTimeout = 10 * time.Second

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
}

// Listen makes a private directory under parent (os.TempDir() when empty) and listens in it.
func Listen(parent string, handle Handler, log *slog.Logger) (*Receiver, error) {
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
	r := &Receiver{dir: dir, ln: ln, handle: handle, log: log, ctx: ctx, cancel: cancel}
	r.wg.Add(1)
	go r.accept()
	return r, nil
}

// Socket is the path hooks connect to.
func (r *Receiver) Socket() string { return r.ln.Addr().String() }

// Close stops listening, cancels the handlers running, waits for them and removes the
// directory.
func (r *Receiver) Close() error {
	var err error
	r.closeMu.Do(func() {
		r.cancel()
		err = r.ln.Close()
		r.wg.Wait()
		if rmErr := os.RemoveAll(r.dir); err == nil {
			err = rmErr
		}
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
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			defer conn.Close()
			r.serve(conn)
		}()
	}
}

// serve reads one event (to the client's half-close), handles it and writes the reply.
func (r *Receiver) serve(conn net.Conn) {
	_ = conn.SetReadDeadline(time.Now().Add(readTimeout))
	data, err := io.ReadAll(io.LimitReader(conn, maxEvent))
	if err == nil {
		// Past the limit: drain the rest, so the hook's write ends and it reads our answer.
		_, err = io.Copy(io.Discard, conn)
	}
	if err != nil {
		r.log.Debug("hooks: read", "err", err)
		return
	}
	e, err := parseEvent(data)
	if err != nil {
		r.log.Debug("hooks: bad event", "err", err, "bytes", len(data))
		return
	}
	ctx, cancel := context.WithTimeout(r.ctx, handleTimeout)
	defer cancel()
	reply := r.handle(ctx, e)
	_ = conn.SetWriteDeadline(time.Now().Add(readTimeout))
	if _, err := conn.Write(reply.Stdout); err != nil {
		r.log.Debug("hooks: reply", "err", err)
	}
}
