package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Config configures a Server.
type Config struct {
	// Token is the secret the CLI sends in X-Claude-Code-Ide-Authorization
	// (the lock file's authToken). Required.
	Token string
	// Tools are served in this order by tools/list; names must be unique.
	Tools []Tool
	// Workspace, when set, answers the variant protocol's direct methods (readFile,
	// writeFile, listFiles, getWorkspaceInfo, getOpenFiles, getCurrentFile); without it
	// they are -32601 like any unknown method.
	Workspace Workspace
	// Name and Version are the serverInfo answered to initialize
	// (defaults "claude.nvim" and "dev").
	Name, Version string
	// Logger receives connection and error events; nil discards them.
	Logger *slog.Logger
	// PortMin and PortMax bound the port Start listens on, tried in random
	// order; both 0 means any free port.
	PortMin, PortMax int
	// OnClientReady runs once a client has sent ide_connected (the CLI has
	// finished starting); OnClientGone runs when a client's connection has
	// ended. Both run on one goroutine of their own, in event order, never
	// while the server holds a lock, so they may call back into the Server.
	OnClientReady func(ClientInfo)
	OnClientGone  func(ClientInfo)
	// OnActivity, when set, runs after each message a client sent has been
	// handled and after each tool call has ended, on the connection's or
	// the call's goroutine: it must return at once (the host uses it to
	// learn when it has gone quiet).
	OnActivity func()
	// ListenDelay is how long after answering tools/list the server waits
	// before sending a client at_mentioned (and the current selection
	// again); 0 means DefaultListenDelay, negative means not at all.
	ListenDelay time.Duration
	// Limits bound connections, calls and refusal logging; zero fields
	// mean DefaultLimits.
	Limits Limits
}

// DefaultListenDelay: the CLI installs its selection_changed and
// at_mentioned handlers only once the tools/list answer has reached its UI
// state, and silently drops what comes earlier (2.1.197: a mention sent
// 30 ms after the answer was lost, 50 ms was shown, on an idle machine; the
// UI thread is slower under load).
const DefaultListenDelay = 500 * time.Millisecond

func listenDelay(d time.Duration) time.Duration {
	switch {
	case d == 0:
		return DefaultListenDelay
	case d < 0:
		return 0
	}
	return d
}

// listenFallback: a client that initialized but never asks for tools/list
// (not the CLI) is assumed to listen after this long.
const listenFallback = time.Second

// ClientInfo describes one connected client.
type ClientInfo struct {
	ID          string // a fresh UUID per connection
	PID         int    // the CLI's pid from ide_connected; 0 until then
	Name        string // clientInfo.name from initialize
	Version     string // clientInfo.version from initialize
	RemoteAddr  string
	ConnectedAt time.Time
	Ready       bool // ide_connected received
}

// ErrServerClosed is returned by Start after Close.
var ErrServerClosed = errors.New("mcp server closed")

// Server is the WebSocket MCP server. Its methods are safe for concurrent
// use.
type Server struct {
	guard     guard
	disp      *dispatcher
	log       *slog.Logger
	portMin   int
	portMax   int
	upgrader  websocket.Upgrader
	callbacks callbackQueue
	onReady   func(ClientInfo)
	onGone    func(ClientInfo)
	activity  func() // Config.OnActivity, or a no-op
	listenIn  time.Duration
	limits    Limits
	pending   *pendingConns
	refusals  *refusalLog
	mem       memoryReturner
	workers   *workers // run tool calls (workers.go)

	// wg counts connection goroutines, tool calls and the callback runner,
	// so Close can wait for all of them.
	wg sync.WaitGroup

	// mu guards everything below and the queue state of every conn (see
	// conn); the lock order is Server.mu before conn.callsMu.
	mu            sync.Mutex
	closed        bool
	conns         map[*conn]struct{}
	clients       int // upgrades under way and conns, capped by limits.Clients
	httpSrv       *http.Server
	lastSelection []byte   // the newest selection_changed, for clients that become ready later
	mentions      [][]byte // at_mentioned frames waiting for the first ready client
}

// NewServer checks cfg and builds a Server; nothing listens until Start or
// until Handler is mounted.
func NewServer(cfg Config) (*Server, error) {
	if cfg.OnActivity == nil {
		cfg.OnActivity = func() {}
	}
	if cfg.Token == "" {
		return nil, errors.New("new mcp server: empty token")
	}
	if cfg.PortMin < 0 || cfg.PortMax > 65535 || cfg.PortMin > cfg.PortMax {
		return nil, fmt.Errorf("new mcp server: bad port range [%d,%d]", cfg.PortMin, cfg.PortMax)
	}
	disp, err := newDispatcher(cfg.Name, cfg.Version, cfg.Tools, true)
	if err == nil && cfg.Workspace != nil {
		err = disp.addDirect(cfg.Workspace)
	}
	if err != nil {
		return nil, fmt.Errorf("new mcp server: %w", err)
	}
	s := &Server{
		guard:    newGuard(authHeader, "", cfg.Token),
		disp:     disp,
		log:      cfg.Logger,
		portMin:  cfg.PortMin,
		portMax:  cfg.PortMax,
		onReady:  cfg.OnClientReady,
		onGone:   cfg.OnClientGone,
		activity: cfg.OnActivity,
		listenIn: listenDelay(cfg.ListenDelay),
		limits:   cfg.Limits.withDefaults(),
		conns:    map[*conn]struct{}{},
		workers:  newWorkers(),
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.callbacks.wg = &s.wg
	s.callbacks.log = s.log
	s.pending = newPendingConns(s.limits.PendingConns)
	s.refusals = newRefusalLog(s.log, s.limits.RefusalLogBurst, s.limits.RefusalLogInterval)

	s.upgrader = websocket.Upgrader{
		HandshakeTimeout: s.limits.Handshake,
		// Agreed when offered, as the CLI does (see the package doc), but not
		// required: a client without it (websocat, another MCP client, an
		// older CLI) is served. Refusing would protect nothing: the header
		// is the client's to choose, and the token and the Origin and Host
		// checks are what keep strangers out.
		Subprotocols: []string{"mcp"},
		// serveHTTP has already refused every request with an Origin;
		// this replaces gorilla's same-origin check, which would let a
		// DNS-rebinding page through.
		CheckOrigin: func(r *http.Request) bool { return r.Header.Get("Origin") == "" },
		// Compression stays off: on loopback it only costs CPU, and gorilla
		// applies the read limit to compressed bytes, so a small frame could
		// inflate far past MaxMessageSize.
		EnableCompression: false,
	}
	return s, nil
}

// Handler serves the WebSocket endpoint on any path; use it with
// httptest.NewServer or an http.Server of your own.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(s.serveHTTP)
}

// Start listens on 127.0.0.1 (a free port, or one from the configured
// range) and serves in the background until Close.
func (s *Server) Start() (port int, err error) {
	l, err := s.listen()
	if err != nil {
		return 0, err
	}
	if err := s.Serve(l); err != nil {
		return 0, err
	}
	port = l.Addr().(*net.TCPAddr).Port
	s.log.Info("mcp: listening", "port", port)
	return port, nil
}

// Serve serves the connections l accepts in the background until Close,
// which closes l. Start uses it with a loopback listener; the host uses it
// with the connections a relay carries from another machine (package
// relay), whose listener is on the CLI's loopback there.
func (s *Server) Serve(l net.Listener) error {
	srv := limitedServer(s.Handler(), s.limits, s.pending, s.log)
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		l.Close()
		return ErrServerClosed
	}
	if s.httpSrv != nil {
		s.mu.Unlock()
		l.Close()
		return errors.New("mcp server already started")
	}
	s.httpSrv = srv
	s.wg.Add(1) // under mu, so a concurrent Close cannot be in Wait yet
	s.mu.Unlock()

	go func() {
		defer s.wg.Done()
		if err := srv.Serve(acceptor{l}); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("mcp: serve", "err", err)
		}
	}()
	return nil
}

func (s *Server) listen() (net.Listener, error) {
	if s.portMin == 0 && s.portMax == 0 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("listen on 127.0.0.1: %w", err)
		}
		return l, nil
	}
	lo := max(s.portMin, 1)
	var lastErr error
	for _, i := range rand.Perm(s.portMax - lo + 1) {
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(lo+i)))
		if err == nil {
			return l, nil
		}
		lastErr = err
	}
	return nil, fmt.Errorf("listen on 127.0.0.1 ports %d-%d: %w", lo, s.portMax, lastErr)
}

// Close stops listening, closes every WebSocket with 1001 "going away",
// cancels running tool calls and waits for the server's goroutines until
// ctx ends. Removing the lock file is the caller's job, after Close.
func (s *Server) Close(ctx context.Context) error {
	s.mu.Lock()
	s.closed = true
	srv := s.httpSrv
	conns := make([]*conn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()

	var err error
	if srv != nil {
		// Close, not Shutdown: hijacked connections are ours to close, and
		// a half-done upgrade should not delay exit.
		err = srv.Close()
	}
	s.refusals.close()
	s.mem.stop()
	s.workers.stop()
	for _, c := range conns {
		c.shutdown(websocket.CloseGoingAway, "going away")
	}
	done := make(chan struct{})
	go func() {
		s.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		return fmt.Errorf("close mcp server: %w", ctx.Err())
	}
	if err != nil {
		return fmt.Errorf("close mcp server: %w", err)
	}
	return nil
}

// Clients lists the connected clients, oldest first.
func (s *Server) Clients() []ClientInfo {
	s.mu.Lock()
	out := make([]ClientInfo, 0, len(s.conns))
	for c := range s.conns {
		out = append(out, c.info)
	}
	s.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].ConnectedAt.Before(out[j].ConnectedAt) })
	return out
}

// serveHTTP vets the request, upgrades it and serves the connection until
// it ends.
func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	// Every answer but a 101 ends the connection: nothing but an upgrade
	// is served here, so keeping a refused connection alive would only
	// let a process without the token hold it.
	w.Header().Set("Connection", "close")
	if status, why := s.guard.vet(r); status != 0 {
		s.refusals.note(r.RemoteAddr, status, why)
		http.Error(w, http.StatusText(status), status)
		return
	}
	if why := s.reserveClient(); why != "" {
		s.refusals.note(r.RemoteAddr, http.StatusServiceUnavailable, why)
		http.Error(w, http.StatusText(http.StatusServiceUnavailable), http.StatusServiceUnavailable)
		return
	}
	ws, err := s.upgrader.Upgrade(w, r, nil)
	if err != nil {
		// Upgrade has answered the request already.
		s.releaseClient()
		s.log.Debug("mcp: upgrade failed", "remote", r.RemoteAddr, "err", err)
		return
	}
	c := newConn(s, ws, r.RemoteAddr)
	if !s.register(c) {
		s.releaseClient()
		c.closeNow(websocket.CloseGoingAway, "going away")
		return
	}
	c.log.Info("mcp: client connected", "remote", r.RemoteAddr, "subprotocol", ws.Subprotocol())
	c.serve()
}

// reserveClient takes one of the limits.Clients slots for an upgrade, or
// says why not. The slot is the conn's until unregister.
func (s *Server) reserveClient() (why string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return "server closing"
	case s.clients >= s.limits.Clients:
		return "too many clients"
	}
	s.clients++
	return ""
}

func (s *Server) releaseClient() {
	s.mu.Lock()
	s.clients--
	s.mu.Unlock()
}

// register adds c unless the server is closing; wg.Add happens under the
// same lock Close takes before waiting, so Close never misses a conn.
func (s *Server) register(c *conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.conns[c] = struct{}{}
	s.wg.Add(1)
	return true
}

// unregister removes c and reports it gone.
func (s *Server) unregister(c *conn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.clients--
	c.notify.stop()
	info := c.info
	s.mu.Unlock()
	c.log.Info("mcp: client disconnected", "pid", info.PID)
	if s.onGone != nil {
		s.callbacks.push(func() { s.onGone(info) })
	}
}
