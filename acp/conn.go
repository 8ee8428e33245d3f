package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// ErrClosed is the error of a call the connection ended under because we closed it.
var ErrClosed = errors.New("acp: connection closed")

// Options tune a Conn.
type Options struct {
	// Logger gets what goes wrong that no caller hears of (a line skipped, an answer to
	// no request); nil discards it.
	Logger *slog.Logger
	// MaxLine bounds one incoming message; 0 is DefaultMaxLine.
	MaxLine int
}

// Conn is one ACP connection seen from the client, free of any transport: it reads
// newline-delimited JSON-RPC 2.0 messages from r and writes them to w. Requests go both
// ways: ours are the typed methods (Initialize, NewSession, Prompt, …) and Call; the
// agent's are dispatched to the Client, each on a goroutine of its own, and answered.
// Its methods are safe for concurrent use.
//
// The connection ends when r ends or fails, or on Close; every call waiting then returns
// the reason (for an agent started with Start: how it exited and the end of its stderr).
type Conn struct {
	client   Client
	log      *slog.Logger
	w        io.Writer
	maxLine  int
	handlers map[string]requestHandler

	wturn   chan struct{} // a one-slot semaphore: the holder may write
	wbroken error         // set by the holder when a write was cut short

	nextID atomic.Int64

	ctx    context.Context // ends with the connection; the parent of every handler's
	cancel context.CancelFunc
	done   chan struct{} // closed when the reader has returned

	mu       sync.Mutex
	pending  map[string]*pendingCall  // our requests waiting for an answer, by idKey
	incoming map[string]*incomingCall // the agent's requests being served, by idKey
	sessions map[string]bool          // the sessions the agent may make requests for
	init     *InitializeResult        // the agent's answer to initialize
	endErr   error                    // why the connection ended; nil while it lives
}

type pendingCall struct {
	method string
	done   chan struct{} // closed once result or err is set
	result json.RawMessage
	err    error
	// onResult, when set, runs on the reader with a successful result before anything
	// read after the answer is handled (a new session is known before its first request).
	onResult func(json.RawMessage)
}

// NewConn starts serving the connection: it reads r until it ends.
func NewConn(r io.Reader, w io.Writer, client Client, opts Options) *Conn {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	maxLine := opts.MaxLine
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	c := &Conn{
		client:   client,
		log:      log,
		w:        w,
		maxLine:  maxLine,
		handlers: handlersFor(client),
		wturn:    make(chan struct{}, 1),
		done:     make(chan struct{}),
		pending:  map[string]*pendingCall{},
		incoming: map[string]*incomingCall{},
		sessions: map[string]bool{},
	}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	go c.read(r)
	return c
}

// Done is closed when the connection has ended; Err then says why.
func (c *Conn) Done() <-chan struct{} { return c.ctx.Done() }

// Err is why the connection ended: ErrClosed, the agent's exit (*ExitError), or a read or
// write error; nil while it lives.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.endErr
}

// Close ends the connection: calls waiting return ErrClosed and the agent's requests being
// served have their context cancelled. It does not close r or w, which belong to the
// caller (Agent.Close closes the agent's).
func (c *Conn) Close() error {
	c.end(ErrClosed)
	return nil
}

// end ends the connection once, with err as the reason.
func (c *Conn) end(err error) {
	c.mu.Lock()
	if c.endErr != nil {
		c.mu.Unlock()
		return
	}
	c.endErr = err
	pending := c.pending
	c.pending = map[string]*pendingCall{}
	c.mu.Unlock()
	c.cancel()
	for _, p := range pending {
		p.err = err
		close(p.done)
	}
}

// Call sends a request and waits for its answer, decoded into result (which may be nil).
// An error answer comes back as an *RPCError. When ctx ends first, the request is withdrawn
// with $/cancel_request and ctx's error returned.
func (c *Conn) Call(ctx context.Context, method string, params, result any) error {
	return c.call(ctx, method, params, result, nil)
}

func (c *Conn) call(ctx context.Context, method string, params, result any, onResult func(json.RawMessage)) error {
	n := c.nextID.Add(1)
	id := json.RawMessage(strconv.AppendInt(nil, n, 10))
	key, _ := idKey(id)
	b, err := encodeRequest(id, method, params)
	if err != nil {
		return err
	}
	p := &pendingCall{method: method, done: make(chan struct{}), onResult: onResult}
	c.mu.Lock()
	if c.endErr != nil {
		err := c.endErr
		c.mu.Unlock()
		return fmt.Errorf("acp: %s: %w", method, err)
	}
	c.pending[key] = p
	c.mu.Unlock()

	if err := c.write(ctx, b); err != nil {
		c.forget(key)
		return fmt.Errorf("acp: %s: %w", method, err)
	}
	select {
	case <-p.done:
	case <-ctx.Done():
		if c.forget(key) {
			c.withdraw(n)
			return fmt.Errorf("acp: %s: %w", method, ctx.Err())
		}
		<-p.done // answered meanwhile
	}
	if p.err != nil {
		return fmt.Errorf("acp: %s: %w", method, p.err)
	}
	if result != nil && !isNull(p.result) {
		if err := json.Unmarshal(p.result, result); err != nil {
			return fmt.Errorf("acp: %s: decode the answer: %w", method, err)
		}
	}
	return nil
}

// forget drops a pending call; false when it was answered (or failed) meanwhile.
func (c *Conn) forget(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.pending[key]; !ok {
		return false
	}
	delete(c.pending, key)
	return true
}

// withdrawWait bounds sending $/cancel_request for a call nobody waits for any more.
const withdrawWait = 5 * time.Second

// withdraw tells the agent we no longer wait for request n; its answer, if it comes, is
// dropped.
func (c *Conn) withdraw(n int64) {
	go func() {
		ctx, cancel := context.WithTimeout(c.ctx, withdrawWait)
		defer cancel()
		if err := c.Notify(ctx, "$/cancel_request", map[string]int64{"requestId": n}); err != nil {
			c.log.Debug("acp: withdrawing a request", "id", n, "err", err)
		}
	}()
}

// Notify sends a notification.
func (c *Conn) Notify(ctx context.Context, method string, params any) error {
	b, err := encodeRequest(nil, method, params)
	if err != nil {
		return err
	}
	if err := c.write(ctx, b); err != nil {
		return fmt.Errorf("acp: %s: %w", method, err)
	}
	return nil
}

// deadliner is a writer whose writes can be cut short (an *os.File pipe).
type deadliner interface {
	SetWriteDeadline(time.Time) error
}

// write sends one message as one line. ctx bounds the wait for a turn to write and, when w
// takes deadlines, the write itself: an agent that stops reading cannot block us for ever.
// A write cut short leaves half a line in the agent's input, which would garble the next
// message, so the connection then ends.
func (c *Conn) write(ctx context.Context, b []byte) error {
	select {
	case c.wturn <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	case <-c.ctx.Done():
		return c.Err()
	}
	defer func() { <-c.wturn }()
	if c.wbroken != nil {
		return c.wbroken
	}
	if c.ctx.Err() != nil {
		return c.Err()
	}
	line := append(b, '\n')
	var stop func() bool
	if d, ok := c.w.(deadliner); ok {
		stop = context.AfterFunc(ctx, func() { _ = d.SetWriteDeadline(time.Unix(1, 0)) })
	}
	n, err := c.w.Write(line)
	if stop != nil && !stop() {
		_ = c.w.(deadliner).SetWriteDeadline(time.Time{})
	}
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		err = ctx.Err()
	}
	if n > 0 {
		c.wbroken = fmt.Errorf("acp: a write to the agent was cut short after %d of %d bytes: %w", n, len(line), err)
		c.log.Warn("acp: a write was cut short; ending the connection", "written", n, "of", len(line))
		c.end(c.wbroken)
		return c.wbroken
	}
	return err
}

// read is the one reader: it handles each line in order until r ends, then ends the
// connection.
func (c *Conn) read(r io.Reader) {
	defer close(c.done)
	err := readLines(r, c.maxLine, c.handle, c.tooLong)
	switch {
	case errors.Is(err, io.EOF):
		err = errors.New("the agent closed its output")
	case err == nil:
		err = io.ErrUnexpectedEOF // readLines returns only on an error
	}
	c.end(err)
}

// handle acts on one line.
func (c *Conn) handle(line []byte) {
	if len(line) == 0 || len(trimSpace(line)) == 0 {
		return
	}
	m := decode(line)
	switch m.kind {
	case kindInvalid:
		c.log.Warn("acp: bad message from the agent", "err", m.rpcErr.Message, "line", clip(line))
		c.answerLater(encodeError(m.id, m.rpcErr))
	case kindResponse:
		c.answered(m)
	case kindNotification:
		c.notified(m)
	case kindRequest:
		c.startServing(m)
	}
}

// answerLater writes an answer from the reader without making the reader wait for the
// agent to read it.
func (c *Conn) answerLater(b []byte) {
	go func() {
		if err := c.write(c.ctx, b); err != nil {
			c.log.Debug("acp: answering", "err", err)
		}
	}()
}

// answered hands an answer to the call waiting for it.
func (c *Conn) answered(m message) {
	key, ok := idKey(m.id)
	c.mu.Lock()
	p := c.pending[key]
	delete(c.pending, key)
	c.mu.Unlock()
	if !ok || p == nil {
		// A call whose caller gave up, or an agent answering nothing we asked.
		c.log.Debug("acp: an answer to no waiting request", "id", string(m.id))
		return
	}
	p.result, p.err = m.result, nil
	if m.rpcErr != nil {
		p.err = m.rpcErr
	} else if p.onResult != nil {
		p.onResult(m.result)
	}
	close(p.done)
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r') {
		b = b[1:]
	}
	return b
}

// clip shortens a line for the log.
func clip(b []byte) string {
	const max = 300
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}
