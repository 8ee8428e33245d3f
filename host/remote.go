package host

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/claude-nvim/claude.nvim/nvimapi"
	"github.com/claude-nvim/claude.nvim/relay"
)

// Remotes (issue 41): a CLI on another machine or in a container finds
// the editor through a relay (package relay) the host starts there over a
// transport command; each relayed connection is served by an MCP server
// of its own, like a bridge's, whose editor maps paths both ways.

// remoteSessionBase numbers the remotes' editor sessions after every
// terminal's: a remote's proposals are its own, closed with it.
const remoteSessionBase = 1000

// remoteHelloTimeout bounds the transport's start (ssh's login included)
// and the relay's hello.
const remoteHelloTimeout = 60 * time.Second

// remoteOptions are ClaudeHostRemoteConnect's argument (lua/claude/remote.lua).
type remoteOptions struct {
	Name    string            `msgpack:"name"`
	Command []string          `msgpack:"command"` // the transport, ending in the relay's command
	Exec    []string          `msgpack:"exec"`    // or a prefix running a program there: the relay is put there (remote_install.go)
	Map     map[string]string `msgpack:"map"`     // remote prefix -> local directory
	// Reconnect: after a drop, connect again by itself (runRemote).
	Reconnect bool   `msgpack:"reconnect"`
	IDEName   string `msgpack:"ide_name"`
}

// remote is one configured remote while it is connecting or connected.
type remote struct {
	name    string
	session int
	paths   *relay.Map
	cancel  context.CancelFunc

	mu     sync.Mutex
	state  string // "connecting", "connected", "dropped", "failed", "stopped"
	err    string
	link   *relay.Link
	server *mcp.Server
	// lastPort and lastToken are the previous relay's of this name, asked
	// of the next one: a CLI there retries that address after a drop.
	lastPort  int
	lastToken string
	// looping while runRemote runs (connecting, connected, or dropped and
	// about to connect again); kick makes a waiting reconnect try now.
	looping bool
	kick    chan struct{}
}

type remotes struct {
	mu   sync.Mutex
	byID map[string]*remote
	next int
}

// remoteConnect serves ClaudeHostRemoteConnect: it returns at once (ssh
// may take seconds to log in) and the outcome reaches Lua through
// handlers.update_remote.
func (h *Host) remoteConnect(args []remoteOptions) (*nvimapi.RemoteState, error) {
	if len(args) == 0 || args[0].Name == "" || (len(args[0].Command) == 0 && len(args[0].Exec) == 0) {
		return nil, errors.New("remote: give a name and a command (or exec)")
	}
	opts := args[0]
	paths, err := relay.NewMap(opts.Map)
	if err != nil {
		return nil, fmt.Errorf("remote %s: %w", opts.Name, err)
	}
	h.remotes.mu.Lock()
	if r := h.remotes.byID[opts.Name]; r != nil && r.active() {
		h.remotes.mu.Unlock()
		select { // dropped and waiting to connect again: now
		case r.kick <- struct{}{}:
		default:
		}
		return r.snapshot(), nil
	}
	if h.remotes.byID == nil {
		h.remotes.byID = map[string]*remote{}
	}
	h.remotes.next++
	ctx, cancel := context.WithCancel(context.Background())
	r := &remote{name: opts.Name, session: remoteSessionBase + h.remotes.next, paths: paths, cancel: cancel, state: "connecting",
		looping: true, kick: make(chan struct{}, 1)}
	if old := h.remotes.byID[opts.Name]; old != nil {
		r.lastPort, r.lastToken = old.previous()
	}
	h.remotes.byID[opts.Name] = r
	h.remotes.mu.Unlock()
	go h.runRemote(ctx, r, opts)
	return r.snapshot(), nil
}

// connectOnce starts the transport, serves the link until it ends, and
// closes what the remote had open (its proposals); it returns how it ended
// (failed, dropped after it was connected, stopped) and why.
func (h *Host) connectOnce(ctx context.Context, r *remote, opts remoteOptions) (string, error) {
	log := h.log.With("remote", r.name)
	if len(opts.Command) == 0 {
		ictx, done := context.WithTimeout(ctx, remoteHelloTimeout)
		command, err := ensureRelay(ictx, opts.Exec)
		done()
		if err != nil {
			return "failed", fmt.Errorf("the relay on the remote side: %w", err)
		}
		opts.Command = command
	}
	cmd := exec.CommandContext(ctx, opts.Command[0], opts.Command[1:]...)
	stdin, err1 := cmd.StdinPipe()
	// Stopped, the transport is first asked to end by its stdin's end (the
	// relay then removes its lock), and killed only if it lingers.
	cmd.Cancel = func() error { return stdin.Close() }
	cmd.WaitDelay = shutdownTimeout
	stdout, err2 := cmd.StdoutPipe()
	cmd.Stderr = logWriter{log}
	if err := errors.Join(err1, err2); err != nil {
		return "failed", err
	}
	if err := cmd.Start(); err != nil {
		return "failed", fmt.Errorf("start %q: %w", opts.Command[0], err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	// The transport's end is its stdin and its process: ssh and docker exec
	// end when the relay's pipe does, and are killed if they linger.
	closer := closerFunc(func() error {
		stdin.Close()
		go func() {
			select {
			case <-exited:
			case <-time.After(shutdownTimeout):
				_ = cmd.Process.Kill()
			}
		}()
		return nil
	})
	ideName := opts.IDEName
	if ideName == "" {
		ideName = "Neovim"
	}
	r.mu.Lock()
	hello := relay.HostHello{Version: Version, Folders: r.paths.RemoteRoots(), IDEName: ideName, Port: r.lastPort, Token: r.lastToken}
	r.mu.Unlock()
	type result struct {
		link *relay.Link
		err  error
	}
	got := make(chan result, 1)
	go func() {
		l, err := relay.Connect(stdout, stdin, closer, hello, log)
		got <- result{l, err}
	}()
	var res result
	select {
	case res = <-got:
	case <-time.After(remoteHelloTimeout):
		res.err = fmt.Errorf("no answer from the relay in %s", remoteHelloTimeout)
	case <-ctx.Done():
		res.err = errors.New("stopped")
	}
	if res.err != nil {
		closer()
		return "failed", res.err
	}
	link := res.link
	srv, err := h.serveRemote(r, link, log)
	if err != nil {
		link.Close()
		return "failed", err
	}
	link.OnHook(h.remoteHook(r))
	chatTools, err := h.serveRemoteChatTools(r, link)
	if err != nil {
		log.Info("remote: no editor tools for a chat there", "err", err)
	}
	r.mu.Lock()
	r.state, r.link, r.server = "connected", link, srv
	r.mu.Unlock()
	log.Info("remote connected", "relay_pid", link.Info.PID, "port", link.Info.Port, "lockfile", link.Info.Lockfile)
	h.pushRemote(r)
	h.feedsUp()
	defer h.feedsDown()
	if sel := h.tracker.Latest(); sel != nil {
		r.sendSelection(sel)
	}

	select {
	case <-link.Done():
	case <-ctx.Done():
		link.Close()
	}
	closeCtx, done := context.WithTimeout(context.Background(), shutdownTimeout)
	_ = srv.Close(closeCtx)
	if chatTools != nil {
		_ = chatTools.Close(closeCtx)
	}
	done()
	// A review open for this remote cannot be answered any more: its view
	// closes and nothing is written.
	if _, err := h.editor.Session(r.session, nil, nil).CloseAllDiffs(context.Background()); err != nil {
		log.Debug("close the remote's proposals", "err", err)
	}
	if ctx.Err() != nil {
		return "stopped", nil
	}
	return "dropped", link.Err()
}

func (h *Host) serveRemote(r *remote, link *relay.Link, log interface {
	Info(string, ...any)
}) (*mcp.Server, error) {
	editor := relay.MapEditor(h.editor.Session(r.session, r.paths.RemoteRoots(), nil), r.paths)
	srv, err := mcp.NewServer(mcp.Config{
		Token:         link.Info.Token,
		Tools:         mcp.IDETools(editor),
		Name:          "claude.nvim",
		Version:       Version,
		Logger:        h.log.With("remote", r.name),
		OnClientReady: func(mcp.ClientInfo) { h.pushRemote(r) },
		OnClientGone:  func(mcp.ClientInfo) { h.pushRemote(r) },
		OnActivity:    h.idle.Kick,
		ListenDelay:   h.listenDelay,
	})
	if err != nil {
		return nil, err
	}
	if err := srv.Serve(link); err != nil {
		return nil, err
	}
	return srv, nil
}

func (h *Host) remoteEnded(r *remote, state string, err error) {
	r.mu.Lock()
	r.state, r.server = state, nil
	r.err = ""
	if err != nil {
		r.err = err.Error()
	}
	r.mu.Unlock()
	h.log.Info("remote ended", "remote", r.name, "state", state, "err", err)
	h.pushRemote(r)
}

func (h *Host) pushRemote(r *remote) {
	if h.editor == nil {
		return
	}
	if err := h.editor.RemoteChanged(context.Background(), *r.snapshot()); err != nil {
		h.log.Debug("push remote state", "err", err)
	}
}

// remoteStop serves ClaudeHostRemoteStop: the relay's pipe is closed, and
// the relay removes its lock.
func (h *Host) remoteStop(args []string) (bool, error) {
	if len(args) == 0 {
		return false, errors.New("remote stop: no name")
	}
	h.remotes.mu.Lock()
	r := h.remotes.byID[args[0]]
	h.remotes.mu.Unlock()
	if r == nil || !r.active() {
		return false, nil
	}
	r.cancel()
	return true, nil
}

// remoteStatus serves ClaudeHostRemoteStatus (:checkhealth, :Claude status).
func (h *Host) remoteStatus(args []any) ([]*nvimapi.RemoteState, error) {
	h.remotes.mu.Lock()
	out := make([]*nvimapi.RemoteState, 0, len(h.remotes.byID))
	for _, r := range h.remotes.byID {
		out = append(out, r.snapshot())
	}
	h.remotes.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// stopRemotes ends every remote (the host exits).
func (h *Host) stopRemotes() {
	h.remotes.mu.Lock()
	for _, r := range h.remotes.byID {
		r.cancel()
	}
	h.remotes.mu.Unlock()
}

// sendRemoteSelections tells each connected remote where the user is, in
// its own names; a file outside a remote's map is not sent to it.
func (h *Host) sendRemoteSelections(sel *mcp.Selection) {
	for _, r := range h.allRemotes() {
		r.sendSelection(sel)
	}
}

// allRemotes is a snapshot of the configured remotes, taken under the lock so
// that what is done with each (a send, a mapping) runs without it.
func (h *Host) allRemotes() []*remote {
	h.remotes.mu.Lock()
	defer h.remotes.mu.Unlock()
	all := make([]*remote, 0, len(h.remotes.byID))
	for _, r := range h.remotes.byID {
		all = append(all, r)
	}
	return all
}

// mentionRemotes sends an at-mention to the remotes whose map holds the
// path; it reports whether one was connected to take it.
func (h *Host) mentionRemotes(m mcp.Mention) (sent bool, refused []string) {
	for _, r := range h.allRemotes() {
		srv := r.running()
		if srv == nil {
			continue
		}
		p, err := r.paths.ToRemote(m.Path)
		if err != nil {
			refused = append(refused, r.name)
			continue
		}
		if len(m.Path) > 0 && m.Path[len(m.Path)-1] == '/' {
			p += "/" // a directory stays one
		}
		srv.Mention(mcp.Mention{Path: p, LineStart: m.LineStart, LineEnd: m.LineEnd})
		sent = true
	}
	return sent, refused
}

func (r *remote) running() *mcp.Server {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.server
}

func (r *remote) sendSelection(sel *mcp.Selection) {
	if srv := r.running(); srv != nil {
		if mapped := relay.MapSelection(r.paths, sel); mapped != nil {
			srv.SendSelection(mapped)
		}
	}
}

// active: connecting, connected, or dropped with a reconnect to come.
func (r *remote) active() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.looping
}

func (r *remote) snapshot() *nvimapi.RemoteState {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := &nvimapi.RemoteState{Name: r.name, State: r.state, Error: r.err, Session: r.session, Roots: r.paths.RemoteRoots()}
	if r.link != nil {
		s.PID, s.Port, s.Lockfile = r.link.Info.PID, r.link.Info.Port, r.link.Info.Lockfile
		s.HookSettings, s.MCPConfig = r.link.Info.HookSettings, r.link.Info.MCPConfig
	}
	if r.server != nil {
		for _, c := range r.server.Clients() {
			if c.Ready {
				s.Clients++
			}
		}
	}
	s.Roots = slices.Clip(s.Roots)
	return s
}

type closerFunc func() error

func (f closerFunc) Close() error { return f() }

// logWriter puts the transport's stderr (ssh's messages, the relay's log)
// in the host's log, a line at a time as it comes.
type logWriter struct {
	log interface{ Info(string, ...any) }
}

func (w logWriter) Write(p []byte) (int, error) {
	w.log.Info("remote stderr", "text", string(p))
	return len(p), nil
}

var _ io.Writer = logWriter{}

// feedsUp starts the selection tracker and the diagnostics notifier for a
// remote when no bridge runs them; feedsDown stops them with the last user.
func (h *Host) feedsUp() {
	h.mu.Lock()
	h.remoteFeeds++
	first := h.stopRun == nil
	var ctx context.Context
	if first {
		ctx, h.stopRun = context.WithCancel(context.Background())
	}
	h.mu.Unlock()
	if first {
		h.tracker.Reset()
		go h.tracker.Run(ctx)
		go h.diags.Run(ctx)
	}
}

func (h *Host) feedsDown() {
	h.mu.Lock()
	h.remoteFeeds--
	var cancel context.CancelFunc
	if h.remoteFeeds == 0 && len(h.bridges) == 0 {
		cancel, h.stopRun = h.stopRun, nil
	}
	h.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// feedsRunning reports whether the feeds run (for a remote, say).
func (h *Host) feedsRunning() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.stopRun != nil
}

// notifyRemoteDiagnostics tells each connected remote that a file of its
// map has new diagnostics, under its own name; other files are not its.
func (h *Host) notifyRemoteDiagnostics(fd mcp.FileDiagnostics) {
	for _, r := range h.allRemotes() {
		srv := r.running()
		if srv == nil {
			continue
		}
		p, err := r.paths.ToRemote(fd.Path)
		if err != nil {
			continue
		}
		mapped := fd
		mapped.Path = p
		srv.Notify("diagnostics_changed", mcp.DiagnosticsChangedParams(mapped))
	}
}
