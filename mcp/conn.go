package mcp

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/gorilla/websocket"
)

// MaxMessageSize bounds one incoming frame: a whole 64 MiB file in openDiff
// plus room for JSON escaping and the envelope. A larger frame closes that
// connection with 1009 (message too big); the CLI reconnects.
const MaxMessageSize = 64<<20 + 8<<20

const (
	// pongWait is how long a connection may stay silent; generous so a
	// suspended laptop or a busy CLI does not look dead. A missed pong only
	// costs a reconnect.
	pongWait = 2 * time.Minute
	// pingPeriod sends our ping early enough for the pong to beat pongWait.
	pingPeriod = pongWait * 9 / 10
	// writeWait bounds one write: enough to push a whole large file to a
	// busy client over loopback, short enough to notice a stuck one.
	writeWait = 30 * time.Second
	// closeGrace is how long we wait for the peer to answer our close frame.
	closeGrace = 2 * time.Second
	// lingerTimeout bounds draining an oversized frame after answering 1009,
	// so the peer reads our close frame rather than a connection reset.
	lingerTimeout = 5 * time.Second
	// maxQueuedNotes bounds the notifications waiting for one slow client;
	// past it the oldest is dropped (they are advisory, and a client that
	// far behind is stuck anyway).
	maxQueuedNotes = 256
	// replyBuffer decouples answering from writing a little; senders block
	// beyond it, which is backpressure on the client's own requests only.
	replyBuffer = 16
)

// conn is one WebSocket client. The reader goroutine (serve) decodes frames
// and dispatches them; the writer goroutine (writeLoop) is the only one that
// writes data frames.
type conn struct {
	srv *Server
	ws  *websocket.Conn
	log *slog.Logger

	// ctx ends when the connection ends. callCtx, its child, is the parent
	// of every tool call's context; Close cancels it before the close
	// handshake so calls stop at once.
	ctx        context.Context
	cancel     context.CancelFunc
	callCtx    context.Context
	callCancel context.CancelFunc

	replies    chan []byte     // JSON-RPC responses, never dropped
	wake       chan struct{}   // cap 1: notes or selection are pending
	closeReq   chan closeFrame // cap 1: the server wants us gone
	closeOnce  sync.Once       // guards closeReq
	readerDone chan struct{}   // closed when the reader has returned
	writerDone chan struct{}   // closed when the writer has returned

	// Used by the reader only.
	initTimer *time.Timer // closes the connection unless initialize comes
	closing   bool        // we sent a close frame; frames are dropped
	// spiked: this connection made the heap grow (a call refused as busy,
	// or a frame of spikeFrameSize or more); its end returns memory.
	spiked bool

	// Guarded by srv.mu, so broadcasts and readiness changes are atomic
	// with respect to each other.
	info      ClientInfo
	notify    notifyState // which notifications reach it yet
	notes     [][]byte    // queued notifications, oldest first
	dropped   int         // notes dropped since the writer last drained
	selection []byte      // the newest selection_changed not yet written

	callsMu sync.Mutex
	calls   map[string]*call // running tools/call by idKey
}

type closeFrame struct {
	code int
	text string
}

func newConn(s *Server, ws *websocket.Conn, remote string) *conn {
	id := uuid.NewString()
	c := &conn{
		srv:        s,
		ws:         ws,
		log:        s.log.With("client", id),
		replies:    make(chan []byte, replyBuffer),
		wake:       make(chan struct{}, 1),
		closeReq:   make(chan closeFrame, 1),
		readerDone: make(chan struct{}),
		writerDone: make(chan struct{}),
		info:       ClientInfo{ID: id, RemoteAddr: remote, ConnectedAt: time.Now()},
		calls:      map[string]*call{},
	}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	c.callCtx, c.callCancel = context.WithCancel(c.ctx)
	return c
}

// serve runs the reader on the calling goroutine until the connection ends,
// then tears down. register has counted it in srv.wg.
func (c *conn) serve() {
	defer c.srv.wg.Done()
	go func() {
		defer close(c.writerDone)
		c.writeLoop()
	}()

	err := c.readLoop()
	close(c.readerDone)
	c.logEnd(err)
	c.cancel()
	<-c.writerDone
	if errors.Is(err, websocket.ErrReadLimit) {
		c.linger()
	}
	c.ws.Close()
	c.srv.unregister(c)
	if c.spiked {
		c.srv.mem.request()
	}
}

func (c *conn) readLoop() error {
	c.ws.SetReadLimit(MaxMessageSize)
	_ = c.ws.SetReadDeadline(time.Now().Add(pongWait))
	c.ws.SetPongHandler(func(string) error {
		return c.ws.SetReadDeadline(time.Now().Add(pongWait))
	})
	// A client that upgraded but never initializes holds one of the few
	// client slots (Limits.Clients) for as long as it answers our pings.
	c.initTimer = time.AfterFunc(c.srv.limits.Initialize, func() {
		c.log.Info("mcp: no initialize; closing", "within", c.srv.limits.Initialize)
		c.shutdown(websocket.ClosePolicyViolation, "initialize expected")
	})
	defer c.initTimer.Stop()
	for {
		typ, r, err := c.ws.NextReader()
		if err != nil {
			return err
		}
		data, err := io.ReadAll(r)
		if err != nil {
			return err
		}
		_ = c.ws.SetReadDeadline(time.Now().Add(pongWait))
		if c.closing {
			// Our close frame is out; RFC 6455 §5.5.1: read on until the
			// peer's close frame, but act on nothing.
			continue
		}
		if len(data) >= spikeFrameSize {
			c.spiked = true
		}
		if typ != websocket.TextMessage {
			// MCP over WebSocket is text only; say so rather than guess.
			c.reply(encodeError(nil, errorf(CodeInvalidRequest, "invalid request: binary frames are not supported")))
			continue
		}
		if !utf8.Valid(data) {
			// RFC 6455 §8.1: a text frame that is not UTF-8 fails the
			// connection with 1007. (encoding/json would have read it,
			// turning the bad bytes into U+FFFD, e.g. in a file's text.)
			c.log.Warn("mcp: invalid UTF-8 in a text frame; closing with 1007")
			c.closing = true
			c.shutdown(websocket.CloseInvalidFramePayloadData, "invalid UTF-8 in a text frame")
			continue
		}
		c.handle(data)
	}
}

func (c *conn) logEnd(err error) {
	var ce *websocket.CloseError
	switch {
	case errors.As(err, &ce):
		c.log.Debug("mcp: client closed", "code", ce.Code, "text", ce.Text)
	case errors.Is(err, websocket.ErrReadLimit):
		c.log.Warn("mcp: message too big; closing with 1009", "limit", MaxMessageSize)
	case isTimeout(err):
		c.log.Info("mcp: client silent past pongWait; closing")
	case c.callCtx.Err() != nil:
		// We are shutting down; the read error is our own doing.
	default:
		c.log.Debug("mcp: read ended", "err", err)
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// writeLoop is the only writer of data frames. It exits when the
// connection ends, a write fails, or after a requested close.
func (c *conn) writeLoop() {
	ping := time.NewTicker(pingPeriod)
	defer ping.Stop()
	for {
		select {
		case b := <-c.replies:
			if !c.write(b) {
				return
			}
		case <-c.wake:
			notes, sel := c.takeQueued()
			for _, b := range notes {
				if !c.write(b) {
					return
				}
			}
			if sel != nil && !c.write(sel) {
				return
			}
		case <-ping.C:
			if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(writeWait)); err != nil {
				c.abort()
				return
			}
		case f := <-c.closeReq:
			_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(f.code, f.text), time.Now().Add(writeWait))
			// The peer answers with its own close frame, which ends the
			// reader; a peer that does not is cut off after closeGrace.
			t := time.NewTimer(closeGrace)
			defer t.Stop()
			select {
			case <-c.readerDone:
			case <-t.C:
				c.abort()
			}
			return
		case <-c.ctx.Done():
			// Only serve cancels ctx, after the reader has returned.
			return
		}
	}
}

// write sends one data frame; on failure it aborts the connection.
func (c *conn) write(b []byte) bool {
	_ = c.ws.SetWriteDeadline(time.Now().Add(writeWait))
	if err := c.ws.WriteMessage(websocket.TextMessage, b); err != nil {
		c.log.Debug("mcp: write failed", "err", err)
		c.abort()
		return false
	}
	return true
}

// abort closes the socket under the reader so that it returns and serve
// tears the connection down.
func (c *conn) abort() {
	_ = c.ws.NetConn().Close()
}

// takeQueued hands the writer everything queued since its last turn.
func (c *conn) takeQueued() (notes [][]byte, sel []byte) {
	c.srv.mu.Lock()
	notes, sel, dropped := c.notes, c.selection, c.dropped
	c.notes, c.selection, c.dropped = nil, nil, 0
	c.srv.mu.Unlock()
	if dropped > 0 {
		c.log.Warn("mcp: client too slow; dropped notifications", "dropped", dropped)
	}
	return notes, sel
}

// enqueueLocked queues a notification; srv.mu is held.
func (c *conn) enqueueLocked(b []byte) {
	if len(c.notes) >= maxQueuedNotes {
		c.notes = c.notes[1:]
		c.dropped++
	}
	c.notes = append(c.notes, b)
	c.signal()
}

// setSelectionLocked replaces any unsent selection; srv.mu is held.
func (c *conn) setSelectionLocked(b []byte) {
	c.selection = b
	c.signal()
}

func (c *conn) signal() {
	select {
	case c.wake <- struct{}{}:
	default: // already signalled; the writer drains everything at once
	}
}

// reply hands a response to the writer, waiting while the client is slow
// to read (which stops the reader too: backpressure on a client that
// sends without reading), and gives up if the connection ends or the
// writer has given up on it.
func (c *conn) reply(b []byte) {
	select {
	case c.replies <- b:
	case <-c.ctx.Done():
	case <-c.writerDone:
	}
}

// shutdown asks the writer to close the connection with a close frame and
// cancels the running calls at once. It never blocks.
func (c *conn) shutdown(code int, text string) {
	c.callCancel()
	c.closeOnce.Do(func() { c.closeReq <- closeFrame{code, text} })
}

// closeNow closes a connection whose goroutines never started.
func (c *conn) closeNow(code int, text string) {
	_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, text), time.Now().Add(writeWait))
	c.cancel()
	c.ws.Close()
}

// linger drains what the client is still sending of an oversized frame,
// so that closing the socket does not reset the connection before the
// client has read our 1009 close frame.
func (c *conn) linger() {
	nc := c.ws.NetConn()
	if hc, ok := nc.(interface{ CloseWrite() error }); ok {
		_ = hc.CloseWrite()
	}
	_ = nc.SetReadDeadline(time.Now().Add(lingerTimeout))
	_, _ = io.Copy(io.Discard, io.LimitReader(nc, 2*MaxMessageSize))
}
