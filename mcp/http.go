package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"
	"unicode/utf8"
)

// HTTPEndpoint serves MCP over streamable HTTP (MCP 2025-06-18,
// "Transports"), stateless and with JSON answers only: every POST carries
// one message and, for a request, gets its answer in the response. It is
// what a Claude CLI in print mode (the chat) reaches through an
// --mcp-config server of type "http"; print mode never dials the IDE
// WebSocket.
//
// The rules are the WebSocket server's, from the same code: the guard
// (loopback Host, no Origin, the token, in that order; here as
// "Authorization: Bearer <token>"), the dispatcher (versions, tools/list,
// tools/call's checks and error boundary) and the listener's limits.
// What HTTP adds:
//
//   - POST only; anything else is 405 with Allow: POST (no server stream
//     to GET, no session to DELETE: the endpoint keeps no state).
//   - A request is answered 200 with Content-Type application/json, also
//     when the answer is a JSON-RPC error; a notification or a response
//     gets 202 Accepted and no body.
//   - One message per POST: a batch is one -32600 error, as on the
//     WebSocket (MCP 2025-06-18 dropped batching; the CLI sends one
//     message per POST).
//   - A body over httpBodyLimit is 413; an MCP-Protocol-Version header
//     naming a version we do not answer is 400, as the spec asks.
//   - A tools/call runs in its request, bounded by HTTPConfig.CallTimeout;
//     the client closing the connection cancels it.
type HTTPEndpoint struct {
	guard       guard
	disp        *dispatcher
	log         *slog.Logger
	limits      Limits
	callTimeout time.Duration
	pending     *pendingConns
	refusals    *refusalLog

	mu     sync.Mutex
	srv    *http.Server
	closed bool
}

// HTTPConfig configures an HTTPEndpoint.
type HTTPConfig struct {
	// Token is the secret a client sends as "Authorization: Bearer
	// <token>". Required.
	Token string
	// Tools are served in this order by tools/list; names must be unique.
	Tools []Tool
	// Name and Version are the serverInfo answered to initialize
	// (defaults "claude.nvim" and "dev").
	Name, Version string
	// Logger receives refusals and errors; nil discards them.
	Logger *slog.Logger
	// Limits bound what Serve's listener holds (Handshake, PendingConns,
	// the refusal log); zero fields mean DefaultLimits.
	Limits Limits
	// CallTimeout bounds one tools/call; 0 means DefaultHTTPCallTimeout.
	CallTimeout time.Duration
}

// DefaultHTTPCallTimeout: the tools served over HTTP read the editor and
// answer within milliseconds; one that takes this long has a stuck
// editor behind it, and the model is better told so.
const DefaultHTTPCallTimeout = 30 * time.Second

// httpBodyLimit bounds a POST body. The tools served over HTTP take small
// arguments (the chat's getDiagnostics takes a URI); raise it with the
// first that takes a file.
const httpBodyLimit = 1 << 20

// NewHTTPEndpoint checks cfg and builds an endpoint; nothing listens until
// Serve, or until it is mounted as an http.Handler.
func NewHTTPEndpoint(cfg HTTPConfig) (*HTTPEndpoint, error) {
	if cfg.Token == "" {
		return nil, errors.New("new mcp http endpoint: empty token")
	}
	// No server-to-client stream, so no notifications/tools/list_changed.
	disp, err := newDispatcher(cfg.Name, cfg.Version, cfg.Tools, false)
	if err != nil {
		return nil, fmt.Errorf("new mcp http endpoint: %w", err)
	}
	e := &HTTPEndpoint{
		guard:       newGuard("Authorization", "Bearer ", cfg.Token),
		disp:        disp,
		log:         cfg.Logger,
		limits:      cfg.Limits.withDefaults(),
		callTimeout: positiveOr(cfg.CallTimeout, DefaultHTTPCallTimeout),
	}
	if e.log == nil {
		e.log = slog.New(slog.DiscardHandler)
	}
	e.pending = newPendingConns(e.limits.PendingConns)
	e.refusals = newRefusalLog(e.log, e.limits.RefusalLogBurst, e.limits.RefusalLogInterval)
	return e, nil
}

// Serve serves l (which the caller opened on 127.0.0.1) with the limits
// of every listener of this package, until Close. It returns nil after
// Close.
func (e *HTTPEndpoint) Serve(l net.Listener) error {
	srv := limitedServer(e, e.limits, e.pending, e.log)
	e.mu.Lock()
	if e.closed || e.srv != nil {
		closed := e.closed
		e.mu.Unlock()
		l.Close()
		if closed { // Close came first: nothing to serve, nothing wrong
			return nil
		}
		return errors.New("mcp http endpoint serving already")
	}
	e.srv = srv
	e.mu.Unlock()
	if err := srv.Serve(acceptor{l}); !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve mcp http endpoint: %w", err)
	}
	return nil
}

// Close stops Serve: it waits until ctx ends for the calls under way to
// answer, then closes every connection.
func (e *HTTPEndpoint) Close(ctx context.Context) error {
	e.mu.Lock()
	e.closed = true
	srv := e.srv
	e.mu.Unlock()
	defer e.refusals.close()
	if srv == nil {
		return nil
	}
	if err := srv.Shutdown(ctx); err != nil {
		srv.Close()
		return fmt.Errorf("close mcp http endpoint: %w", err)
	}
	return nil
}

// ServeHTTP answers one POSTed message.
func (e *HTTPEndpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if status, why := e.guard.vet(r); status != 0 {
		// A refused connection is not kept: only a process without the
		// token gets here, and it must not hold what it opened.
		w.Header().Set("Connection", "close")
		e.refusals.note(r.RemoteAddr, status, why)
		http.Error(w, http.StatusText(status), status)
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "only POST: this endpoint is stateless and streams nothing", http.StatusMethodNotAllowed)
		return
	}
	if v := r.Header.Get("Mcp-Protocol-Version"); v != "" && !knownVersion(v) {
		http.Error(w, "unsupported MCP-Protocol-Version "+short(v), http.StatusBadRequest)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, httpBodyLimit))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			w.Header().Set("Connection", "close") // the rest of the body is not read
			http.Error(w, fmt.Sprintf("body over %d bytes", httpBodyLimit), http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "reading the body: "+err.Error(), http.StatusBadRequest)
		return
	}
	out := e.answer(r.Context(), body)
	if out == nil {
		w.WriteHeader(http.StatusAccepted)
		return
	}
	// The write deadline ran from the end of the request (Limits.Handshake);
	// a tool call may have used it up.
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(e.limits.Handshake))
	w.Header().Set("Content-Type", "application/json")
	w.Write(out)
}

// answer is the answer to one message, nil for none.
func (e *HTTPEndpoint) answer(ctx context.Context, body []byte) []byte {
	if !utf8.Valid(body) {
		// As on the WebSocket (where such a frame closes the connection
		// with 1007): encoding/json would read the bad bytes as U+FFFD.
		return encodeError(nil, errorf(CodeParseError, "parse error: invalid UTF-8"))
	}
	return e.disp.handle(body, &httpExchange{ctx: ctx, e: e}, e.log)
}

// httpExchange is the transport of one POST.
type httpExchange struct {
	ctx context.Context // the request's: ends when the client goes
	e   *HTTPEndpoint
}

func (x *httpExchange) initialized(client ClientInfo, protocol string) {
	x.e.log.Debug("mcp http: initialize", "client_name", client.Name, "client_version", client.Version, "protocol", protocol)
}

func (x *httpExchange) toolsListed() {}

// notified: the endpoint keeps no state for a notification to change. A
// cancellation arrives as the request's connection closing.
func (x *httpExchange) notified(m message) {
	x.e.log.Debug("mcp http: ignoring notification", "method", short(m.method))
}

func (x *httpExchange) call(m message, t *toolEntry, args json.RawMessage) []byte {
	ctx, cancel := context.WithTimeout(x.ctx, x.e.callTimeout)
	defer cancel()
	return invoke(ctx, x.e.log, m.id, t, args)
}
