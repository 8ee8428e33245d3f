package relay

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync/atomic"
	"time"

	"github.com/claude-nvim/claude.nvim/lockfile"
	"github.com/claude-nvim/claude.nvim/mcp"
)

// maxRequestHead bounds the upgrade request the relay reads before it
// decides (the CLI's is under 1 KiB); headTimeout bounds how long it waits.
const (
	maxRequestHead = 16 << 10
	headTimeout    = 10 * time.Second
	// reusePortWait bounds the wait for the previous relay's port.
	reusePortWait = 10 * time.Second
)

// Options configure Run.
type Options struct {
	Version string       // this binary's, compared with the host's
	LockDir string       // "" means lockfile.Dir(): CLAUDE_CONFIG_DIR/ide or ~/.claude/ide
	Log     *slog.Logger // nil discards
	// Stop, when closed, ends Run as the pipe's end does (a SIGTERM or
	// SIGHUP: the lock must go with the relay).
	Stop <-chan struct{}
}

// Run is `claude-nvim relay`: it reads the host's hello from in, writes the
// lock file with this process's pid, listens on 127.0.0.1 with a fresh
// token and carries each connection it accepts to the host over in and out
// until in ends (the transport went away) or the link breaks. The lock is
// removed before it returns.
func Run(in io.Reader, out io.Writer, opts Options) error {
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	in = bufio.NewReaderSize(in, MaxPayload+headerLen)
	host, err := readHello(in)
	if err != nil {
		return err
	}
	refuse := func(why string) error {
		_ = writeFrame(out, frame{kind: kindError, payload: []byte(why)})
		return errors.New(why)
	}
	if why := mismatch(host, opts.Version); why != "" {
		return refuse(why)
	}
	l, lock, token, err := listenAndLock(opts.LockDir, host)
	if err != nil {
		return refuse(err.Error())
	}
	defer lock.Remove()
	defer l.Close()
	m := newMux(out, log)
	hb := &hookBridge{m: m, waiting: map[uint32]chan []byte{}}
	hr, settings := listenHooks(hb, log)
	if hr != nil {
		defer hr.Close()
	}
	port := l.Addr().(*net.TCPAddr).Port
	mcpConfig := writeMCPConfig(settings, port, token, log)
	err = sendHello(out, helloMsg{Proto: Proto, Version: opts.Version, PID: os.Getpid(),
		Port: port, Lockfile: lock.Path(), Token: token, HookSettings: settings, MCPConfig: mcpConfig})
	if err != nil {
		return fmt.Errorf("relay: send hello: %w", err)
	}
	defer m.end()
	go accept(l, m, token, log)
	ended := make(chan error, 1)
	go func() { ended <- carry(in, m, hb) }()
	select {
	case err := <-ended:
		return err
	case <-opts.Stop:
		return nil
	}
}

// carry hands the host's frames to their connections until the pipe ends.
func carry(in io.Reader, m *mux, hb *hookBridge) error {
	for {
		f, err := readFrame(in)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil // the host or the transport closed the pipe
			}
			return fmt.Errorf("relay: read from the host: %w", err)
		}
		if f.conn == 0 || f.kind == kindOpen || f.kind == kindHello || f.kind == kindHook {
			return fmt.Errorf("relay: %w: kind %d on conn %d", errFrame, f.kind, f.conn)
		}
		if f.kind == kindHookReply {
			hb.reply(f.conn, f.payload)
			continue
		}
		m.deliver(f)
	}
}

// listenAndLock listens on the loopback and writes the lock the CLI here
// finds: our pid (the CLI deletes locks of pids it cannot see), the folders
// the host mapped to this side, a fresh token.
func listenAndLock(dir string, host helloMsg) (net.Listener, *lockfile.Lock, string, error) {
	if dir == "" {
		d, err := lockfile.Dir()
		if err != nil {
			return nil, nil, "", err
		}
		dir = d
	}
	if err := lockfile.EnsureDir(dir); err != nil {
		return nil, nil, "", err
	}
	_, _ = lockfile.RemoveStale(dir)
	token, err := lockfile.NewToken()
	if err != nil {
		return nil, nil, "", err
	}
	var l net.Listener
	// After a drop the host asks for the previous address and token: the
	// CLI there retries that address (a fresh one it would never find).
	// The previous relay may still be letting the port go (its pipe's end
	// reaches it through sshd): it is tried again for a while.
	if host.Port > 0 && lockfile.IsToken(host.Token) {
		for deadline := time.Now().Add(reusePortWait); ; {
			if l, err = net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", host.Port)); err == nil {
				token = host.Token
				break
			}
			if time.Now().After(deadline) {
				l = nil
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	if l == nil {
		if l, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
			return nil, nil, "", fmt.Errorf("listen on 127.0.0.1: %w", err)
		}
	}
	lock, err := lockfile.Create(dir, l.Addr().(*net.TCPAddr).Port, lockfile.Info{
		PID: os.Getpid(), WorkspaceFolders: host.Folders, IDEName: host.IDEName, AuthToken: token,
	})
	if err != nil {
		l.Close()
		return nil, nil, "", err
	}
	return l, lock, token, nil
}

// accept vets each connection's upgrade request here, with the checks the
// host's server makes, so nothing unauthenticated crosses the pipe; an
// accepted one is carried, its request included, to the host, which serves
// it (and checks it again).
func accept(l net.Listener, m *mux, token string, log *slog.Logger) {
	var next atomic.Uint32
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		go func() {
			head, open, ok := vet(c, token, log)
			if !ok {
				c.Close()
				return
			}
			id := next.Add(1)
			m.add(id, c, frame{conn: id, kind: kindOpen, payload: open}, frame{conn: id, kind: kindData, payload: head})
		}()
	}
}

// vet reads the request head (bounded in size and time) and checks it;
// it returns the bytes read, which the host's server reads again, and the
// open frame's payload: "" for a WebSocket upgrade (the IDE protocol),
// openHTTP for a plain request to the MCP endpoint a chat CLI there was
// given (mcpconfig.go), whose body may follow its head at once.
func vet(c net.Conn, token string, log *slog.Logger) ([]byte, []byte, bool) {
	_ = c.SetReadDeadline(time.Now().Add(headTimeout))
	var seen bytes.Buffer
	r := bufio.NewReader(io.TeeReader(io.LimitReader(c, maxRequestHead), &seen))
	req, err := http.ReadRequest(r)
	if err != nil {
		log.Debug("relay: unreadable request", "err", err)
		return nil, nil, false
	}
	var open []byte
	var status int
	var why string
	if req.Header.Get("Upgrade") == "" && req.URL.Path == mcpPath {
		open = []byte(openHTTP)
		status, why = mcp.VetHTTP(req, token)
	} else {
		status, why = mcp.VetUpgrade(req, token)
	}
	if status != 0 {
		log.Info("relay: refused a connection", "status", status, "why", why)
		fmt.Fprintf(c, "HTTP/1.1 %d %s\r\nConnection: close\r\nContent-Length: 0\r\n\r\n", status, http.StatusText(status))
		return nil, nil, false
	}
	if open == nil && (r.Buffered() > 0 || seen.Len() > maxRequestHead-1) {
		return nil, nil, false // a client that speaks before the 101 is not the CLI
	}
	_ = c.SetReadDeadline(time.Time{})
	return seen.Bytes(), open, true
}
