package relay

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
)

// maxStreams bounds the connections one relay may have open on the host:
// a hostile or broken relay cannot make the host hold more.
const maxStreams = 64

// HostHello is what the host tells the relay.
type HostHello struct {
	Version string   // the host's build; the relay refuses another
	Folders []string // the lock's workspace folders, as the remote side names them
	IDEName string
	// Port and Token, when set, are a previous relay's: after a drop the
	// new relay listens there again with the same token if it can, so the
	// CLI there, which retries the address it knew, comes back by itself.
	Port  int
	Token string
}

// RelayInfo is what the relay answered: where the CLI there finds it.
type RelayInfo struct {
	PID      int    // the relay's pid, in the lock
	Port     int    // on the remote loopback
	Lockfile string // its path on the remote side
	Token    string // the lock's authToken: the host's server checks it too
	// HookSettings is the --settings file there whose hooks reach OnHook
	// ("" when the relay has none).
	HookSettings string
	// MCPConfig is the --mcp-config file there whose server is HTTP ("" when
	// the relay has none): a chat CLI started there with it reaches the
	// endpoint the host serves on HTTP().
	MCPConfig string
}

// Link is the host's end of a relay: a net.Listener whose connections are
// the ones the relay accepted on the remote loopback, for an mcp.Server to
// Serve. It ends when the pipe does (Done, Err).
type Link struct {
	Info RelayInfo

	m        *mux
	closer   io.Closer
	accepted chan net.Conn
	http     chan net.Conn // the MCP endpoint's connections (openHTTP)
	hooking  chan struct{} // one per hook event being handled
	done     chan struct{}
	once     sync.Once
	mu       sync.Mutex
	err      error
	onHook   func(context.Context, []byte) []byte
}

// Connect says hello over a pipe to a relay just started (r its stdout, w
// its stdin) and returns the link once the relay has written its lock.
// closer ends the transport (Close and a broken pipe call it).
func Connect(r io.Reader, w io.Writer, closer io.Closer, h HostHello, log *slog.Logger) (*Link, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if err := sendHello(w, helloMsg{Proto: Proto, Version: h.Version, Folders: h.Folders, IDEName: h.IDEName, Port: h.Port, Token: h.Token}); err != nil {
		return nil, fmt.Errorf("relay: say hello: %w", err)
	}
	br := bufio.NewReaderSize(r, MaxPayload+headerLen)
	got, err := readHello(br)
	if err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("the relay ended before answering (is claude-nvim installed on the remote side, and does the command run it?): %w", err)
		}
		return nil, err
	}
	if why := mismatch(got, h.Version); why != "" {
		return nil, errors.New(why) // a relay of another build that did not refuse
	}
	if got.PID <= 0 || got.Port <= 0 || got.Token == "" {
		return nil, fmt.Errorf("relay hello: %w: no pid, port or token", errFrame)
	}
	l := &Link{
		Info:     RelayInfo{PID: got.PID, Port: got.Port, Lockfile: got.Lockfile, Token: got.Token, HookSettings: got.HookSettings, MCPConfig: got.MCPConfig},
		m:        newMux(w, log),
		closer:   closer,
		accepted: make(chan net.Conn, maxStreams),
		http:     make(chan net.Conn, maxStreams),
		hooking:  make(chan struct{}, maxHostHooks),
		done:     make(chan struct{}),
	}
	go l.read(br)
	return l, nil
}

// read hands the relay's frames out until the pipe ends.
func (l *Link) read(r io.Reader) {
	for {
		f, err := readFrame(r)
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = errors.New("the relay's pipe closed")
			}
			l.end(err)
			return
		}
		switch {
		case f.conn == 0 && f.kind == kindError:
			l.end(&RefusedError{Reason: string(f.payload)})
			return
		case f.conn == 0 || f.kind == kindHello || f.kind == kindError:
			l.end(fmt.Errorf("%w: kind %d on conn %d", errFrame, f.kind, f.conn))
			return
		case f.kind == kindOpen:
			to := l.accepted
			if string(f.payload) == openHTTP {
				to = l.http
			}
			l.open(f.conn, to)
		case f.kind == kindHook:
			l.hook(f)
		case f.kind == kindHookReply:
			l.end(fmt.Errorf("%w: kind %d from the relay", errFrame, f.kind))
			return
		default:
			l.m.deliver(f)
		}
	}
}

// open starts serving a connection the relay accepted, unless too many are.
func (l *Link) open(id uint32, to chan net.Conn) {
	l.m.mu.Lock()
	n := len(l.m.streams)
	l.m.mu.Unlock()
	if n >= maxStreams {
		_ = l.m.send(frame{conn: id, kind: kindClose})
		return
	}
	ours, theirs := net.Pipe()
	if !l.m.add(id, theirs) {
		ours.Close()
		return
	}
	select {
	case to <- ours:
	default:
		ours.Close() // the server is not accepting: the stream ends
	}
}

func (l *Link) end(err error) {
	l.once.Do(func() {
		l.mu.Lock()
		l.err = err
		l.mu.Unlock()
		close(l.done)
		l.m.end()
		if l.closer != nil {
			l.closer.Close()
		}
	})
}

// OnHook sets what handles the hook events of the CLI there (hooks.Event's
// JSON, as the relay read it; the return is what the hook prints). Events
// before it is set, past maxHostHooks at once, or after the link ended are
// answered empty.
func (l *Link) OnHook(handle func(ctx context.Context, event []byte) []byte) {
	l.mu.Lock()
	l.onHook = handle
	l.mu.Unlock()
}

func (l *Link) hook(f frame) {
	l.mu.Lock()
	handle := l.onHook
	l.mu.Unlock()
	if handle == nil {
		_ = l.m.send(frame{conn: f.conn, kind: kindHookReply})
		return
	}
	select {
	case l.hooking <- struct{}{}:
	default:
		_ = l.m.send(frame{conn: f.conn, kind: kindHookReply})
		return
	}
	go func() {
		defer func() { <-l.hooking }()
		ctx, cancel := context.WithTimeout(context.Background(), hookTimeout)
		defer cancel()
		go func() {
			select {
			case <-l.done:
				cancel()
			case <-ctx.Done():
			}
		}()
		out := handle(ctx, f.payload)
		if len(out) > MaxPayload {
			out = out[:MaxPayload]
		}
		_ = l.m.send(frame{conn: f.conn, kind: kindHookReply, payload: out})
	}()
}

// Accept returns the next relayed connection (net.Listener).
func (l *Link) Accept() (net.Conn, error) {
	select {
	case c := <-l.accepted:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

// Close ends the link and the transport; the relay removes its lock when
// its stdin closes.
func (l *Link) Close() error {
	l.end(errors.New("closed"))
	return nil
}

// Addr names the relay's listener on the remote loopback (net.Listener).
func (l *Link) Addr() net.Addr { return relayAddr(fmt.Sprintf("relay:127.0.0.1:%d", l.Info.Port)) }

// Done is closed when the link has ended; Err then says why.
func (l *Link) Done() <-chan struct{} { return l.done }

// Err is why the link ended, nil while it runs.
func (l *Link) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

type relayAddr string

func (a relayAddr) Network() string { return "relay" }
func (a relayAddr) String() string  { return string(a) }

// HTTP is the listener of the relayed requests to the MCP endpoint of
// Info.MCPConfig (a chat CLI's editor tools), for an mcp.HTTPEndpoint to
// Serve; Accept and Close as the Link's own.
func (l *Link) HTTP() net.Listener { return httpListener{l} }

type httpListener struct{ l *Link }

func (h httpListener) Accept() (net.Conn, error) {
	select {
	case c := <-h.l.http:
		return c, nil
	case <-h.l.done:
		return nil, net.ErrClosed
	}
}

func (h httpListener) Close() error   { return h.l.Close() }
func (h httpListener) Addr() net.Addr { return h.l.Addr() }
