package host

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/claude-nvim/claude.nvim/lockfile"
	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/claude-nvim/claude.nvim/nvimapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/selection"
)

// shutdownTimeout bounds closing client connections on stop; a stuck
// client must not keep Neovim from exiting.
const shutdownTimeout = 2 * time.Second

// startOptions are ClaudeHostStart's argument, from lua/claude/init.lua.
type startOptions struct {
	IDEName string `msgpack:"ide_name"`
	PortMin int    `msgpack:"port_min"`
	PortMax int    `msgpack:"port_max"`
	Version string `msgpack:"version"` // the Lua side's; set by asynchronous starts
	// Port and Token of the server this Neovim ran before (:Claude server stop, or
	// its process died): a CLI still running holds them and reconnects if
	// the new server listens on that port and accepts that token.
	Port  int    `msgpack:"port"`
	Token string `msgpack:"token"`

	// What the server needs to know about Neovim, passed along so the
	// host never calls back for it: the lock file's pid (Neovim's: the CLI
	// deletes a lock whose pid is dead) and folders (the CLI takes a lock
	// whose folders hold its cwd), and where the user is (the first CLI to
	// connect learns the current file without waiting for a cursor move;
	// VS Code sends the active editor).
	PID     int              `msgpack:"pid"`
	Folders []string         `msgpack:"folders"`
	Where   *selection.Event `msgpack:"where"`

	// Session numbers the bridge among this Neovim's (one per terminal,
	// Lua's number); 0 means the first, 1. Cwd binds a bridge to one directory:
	// its lock file and getWorkspaceFolders name that one and do not follow
	// :cd. Empty, they follow Neovim's working directories.
	Session int    `msgpack:"session"`
	Cwd     string `msgpack:"cwd"`

	// tools.execute_code: offer executeCode, run with Python, each run
	// interrupted after ExecuteTimeout seconds (0: the default).
	ExecuteCode    bool   `msgpack:"execute_code"`
	Python         string `msgpack:"python"`
	ExecuteTimeout int    `msgpack:"execute_timeout"`

	// NoLSPTools: the terminal's CLI is not given the language-server tools (tools.lsp =
	// false), so ClaudeHostStart answers no MCPConfig.
	NoLSPTools bool `msgpack:"no_lsp_tools"`
}

// serverInfo answers ClaudeHostStart and ClaudeHostStatus.
type serverInfo struct {
	Session  int          `msgpack:"session"`
	Cwd      string       `msgpack:"cwd,omitempty"` // a bound bridge's directory
	Running  bool         `msgpack:"running"`
	Port     int          `msgpack:"port,omitempty"`
	Lockfile string       `msgpack:"lockfile,omitempty"`
	Token    string       `msgpack:"token,omitempty"` // kept by Lua to resume (startOptions)
	Clients  []clientInfo `msgpack:"clients"`
	Diffs    []string     `msgpack:"diffs"` // tab names of the proposals waiting for an answer
	// Every running bridge, the first included (ClaudeHostStatus only).
	Sessions []*serverInfo `msgpack:"sessions,omitempty"`

	// What the terminal's CLI is started with so that its hooks reach this host (hooks.go):
	// the --settings file and the hooks.OriginEnv value (ClaudeHostStart only; no settings
	// when the hooks cannot run).
	HookSettings string `msgpack:"hook_settings,omitempty"`
	HookOrigin   string `msgpack:"hook_origin,omitempty"`

	// What gives the terminal's CLI the language-server tools (chat_mcp.go): the
	// --mcp-config file of the endpoint serving them and the --allowedTools argument that lets
	// the model call them without asking (ClaudeHostStart only; none with tools.lsp = false or
	// when the endpoint cannot start).
	MCPConfig  string `msgpack:"mcp_config,omitempty"`
	MCPAllowed string `msgpack:"mcp_allowed,omitempty"`
}

type clientInfo struct {
	PID         int    `msgpack:"pid"`
	Name        string `msgpack:"name"`
	Version     string `msgpack:"version"`
	ConnectedAt int64  `msgpack:"connected_at"` // Unix seconds; Lua shows it in local time
	Ready       bool   `msgpack:"ready"`
}

// start serves ClaudeHostStart: listen on loopback, write the lock file,
// return the port. Idempotent. It is synchronous because :Claude open must
// not launch the CLI before the lock exists; the work is a listen, a small
// directory scan and one file write (and, the first time, the hook
// receiver's listen and settings file).
func (h *Host) start(args []startOptions) (*serverInfo, error) {
	info, err := h.startBridge(args)
	if err != nil {
		return nil, err
	}
	info.HookSettings, info.HookOrigin = h.hookSettings(), terminalOrigin(info.Session)
	if len(args) > 0 && !args[0].NoLSPTools {
		info.MCPConfig, info.MCPAllowed = h.terminalMCPArgs()
	}
	return info, nil
}

// startBridge starts the bridge start asks for, unless it runs.
func (h *Host) startBridge(args []startOptions) (*serverInfo, error) {
	var opts startOptions
	if len(args) > 0 {
		opts = args[0]
	}
	if opts.Session <= 0 {
		opts.Session = firstBridge
	}
	if info := h.info(opts.Session); info.Running {
		return info, nil
	}
	if opts.PID <= 0 {
		return nil, errors.New("start: no pid (lua/claude/init.lua passes it)")
	}
	h.sweepChatLeftovers()
	h.lifecycle.Lock()
	defer h.lifecycle.Unlock()
	if info := h.info(opts.Session); info.Running {
		return info, nil
	}
	dir, err := h.prepareLockDir()
	if err != nil {
		return nil, fmt.Errorf("start: %w", err)
	}
	if opts.Cwd != "" {
		opts.Folders = []string{opts.Cwd}
	} else {
		opts.Folders = nvimapi.WithoutFolders(opts.Folders, h.boundFolders())
	}
	srv, port, token, err := h.listen(opts)
	if err != nil {
		return nil, fmt.Errorf("start: %w", err)
	}
	lock, err := writeLock(dir, port, token, opts)
	if err != nil {
		_ = srv.Close(context.Background())
		return nil, fmt.Errorf("start: %w", err)
	}
	h.run(&bridge{id: opts.Session, cwd: opts.Cwd, server: srv, lock: lock, port: port, token: token}, opts.Where)
	h.log.Info("server started", "session", opts.Session, "cwd", opts.Cwd, "port", port, "lockfile", lock.Path())
	if opts.Cwd != "" {
		h.dirChanged() // the bridges following Neovim give that folder up
	}
	return h.info(opts.Session), nil
}

// prepareLockDir returns the lock directory, private and rid of the locks
// of editors that are gone.
func (h *Host) prepareLockDir() (string, error) {
	dir := h.lockDir
	if dir == "" {
		var err error
		if dir, err = lockfile.Dir(); err != nil {
			return "", err
		}
	}
	if err := lockfile.EnsureDir(dir); err != nil {
		return "", err
	}
	if removed, err := lockfile.RemoveStale(dir); err != nil {
		h.log.Warn("removing stale lock files", "err", err)
	} else if len(removed) > 0 {
		h.log.Info("removed stale lock files", "files", removed)
	}
	return dir, nil
}

// writeLock writes the lock file through which the CLI finds the server
// on port and authenticates with token.
func writeLock(dir string, port int, token string, opts startOptions) (*lockfile.Lock, error) {
	ideName := opts.IDEName
	if ideName == "" {
		ideName = lockfile.IDEName
	}
	return lockfile.Create(dir, port, lockfile.Info{
		PID:              opts.PID,
		WorkspaceFolders: opts.Folders,
		IDEName:          ideName,
		Transport:        lockfile.Transport,
		AuthToken:        token,
	})
}

// run adds a running bridge. The first one also starts what feeds every
// bridge until the last stops: the selection tracker, told first where
// the user is (nil: nowhere known), and the diagnostics notifier.
func (h *Host) run(s *bridge, where *selection.Event) {
	h.mu.Lock()
	if h.bridges == nil {
		h.bridges = map[int]*bridge{}
	}
	h.bridges[s.id] = s
	if len(h.bridges) == 1 {
		h.current = s.id // until Lua says where the user is
	}
	first := h.stopRun == nil
	var ctx context.Context
	if first {
		ctx, h.stopRun = context.WithCancel(context.Background())
	}
	h.mu.Unlock()
	if !first {
		return
	}
	h.tracker.Reset()
	if where != nil {
		h.tracker.Observe(where)
	}
	go h.tracker.Run(ctx)
	go h.diags.Run(ctx)
}

// listen starts an MCP server: on the port and with the token of the one
// this Neovim ran before when they are given and the port is free (so a
// running CLI reconnects), else on a new port with a new token.
func (h *Host) listen(opts startOptions) (srv *mcp.Server, port int, token string, err error) {
	if opts.Port > 0 && lockfile.IsToken(opts.Token) {
		srv, port, err = h.serve(opts, opts.Token, opts.Port, opts.Port)
		if err == nil {
			h.log.Info("resumed the previous server's port and token", "port", port)
			return srv, port, opts.Token, nil
		}
		h.log.Info("cannot resume the previous port; taking a new one", "port", opts.Port, "err", err)
	}
	if token, err = lockfile.NewToken(); err != nil {
		return nil, 0, "", err
	}
	srv, port, err = h.serve(opts, token, opts.PortMin, opts.PortMax)
	return srv, port, token, err
}

func (h *Host) serve(opts startOptions, token string, portMin, portMax int) (*mcp.Server, int, error) {
	var folders []string
	if opts.Cwd != "" {
		folders = []string{opts.Cwd}
	}
	id := opts.Session
	ed := h.editor.Session(id, folders, h.boundFolders)
	tools := mcp.IDETools(ed)
	if opts.ExecuteCode && h.kernels != nil {
		h.kernels.Configure(opts.Python, time.Duration(opts.ExecuteTimeout)*time.Second)
		tools = append(tools, mcp.ExecuteCodeTool(h.kernels))
	}
	srv, err := mcp.NewServer(mcp.Config{
		Token:         token,
		Tools:         tools,
		Workspace:     ed, // the variant protocol's readFile, writeFile, listFiles, …
		Name:          "claude.nvim",
		Version:       Version,
		Logger:        h.log.With("session", id),
		PortMin:       portMin,
		PortMax:       portMax,
		OnClientReady: func(c mcp.ClientInfo) { h.clientReady(id, c) },
		OnClientGone:  func(c mcp.ClientInfo) { h.clientGone(id, c) },
		OnActivity:    h.idle.Kick,
		ListenDelay:   h.listenDelay,
	})
	if err != nil {
		return nil, 0, err
	}
	port, err := srv.Start()
	if err != nil {
		return nil, 0, err
	}
	h.idle.Kick() // the start-up's pages go too if no client comes
	return srv, port, nil
}

// startAsync serves ClaudeHostStartAsync (auto_start): the same start,
// but Neovim does not wait: the answer goes to Lua's handlers.finish_start. It
// also checks the version, which a synchronous start leaves to
// ClaudeHostVersion.
func (h *Host) startAsync(args []startOptions) {
	go func() {
		var result nvimapi.StartResult
		if len(args) > 0 && args[0].Version != "" && args[0].Version != Version {
			result.Version = Version // the Lua side tells the user to rebuild
		} else if info, err := h.start(args); err != nil {
			result.Error = err.Error()
		} else {
			result.Info = info
		}
		if err := h.editor.StartFinished(context.Background(), result); err != nil {
			h.log.Warn("report asynchronous start", "err", err)
		}
	}()
}

// stop serves ClaudeHostStop: every bridge, or the one given (a second
// terminal was closed).
func (h *Host) stop(args []int) (bool, error) {
	if len(args) > 0 && args[0] > 0 {
		return h.stopBridges(args[0]) == nil, nil
	}
	return h.Shutdown() == nil, nil
}

// Shutdown closes every client connection and removes the lock files. It
// is safe to call more than once and from any goroutine (Neovim exiting, a
// signal, :Claude server stop).
func (h *Host) Shutdown() error {
	return h.stopBridges(0)
}

// stopBridges stops bridge id, or every bridge for 0.
func (h *Host) stopBridges(id int) error {
	// A second caller (Neovim's SIGTERM racing its closed stdin) waits for
	// the first to finish, so the process never exits with a lock left.
	h.lifecycle.Lock()
	defer h.lifecycle.Unlock()
	h.mu.Lock()
	var stopping []*bridge
	for sid, s := range h.bridges {
		if id == 0 || sid == id {
			stopping = append(stopping, s)
			delete(h.bridges, sid)
		}
	}
	var cancel context.CancelFunc
	if len(h.bridges) == 0 && h.remoteFeeds == 0 {
		cancel, h.stopRun = h.stopRun, nil
	}
	h.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	var errs []error
	bound := false
	for _, s := range stopping {
		errs = append(errs, s.stop())
		bound = bound || s.cwd != ""
		h.log.Info("server stopped", "session", s.id)
	}
	if bound && id != 0 {
		h.dirChanged() // its folder is Neovim's again
	}
	return errors.Join(errs...)
}

// status serves ClaudeHostStatus: the first bridge, and all of them.
func (h *Host) status(args []any) (*serverInfo, error) {
	info := h.info(firstBridge)
	h.mu.Lock()
	ids := make([]int, 0, len(h.bridges))
	for id := range h.bridges {
		ids = append(ids, id)
	}
	h.mu.Unlock()
	slices.Sort(ids)
	for _, id := range ids {
		if s := h.info(id); s.Running {
			info.Sessions = append(info.Sessions, s)
		}
	}
	return info, nil
}

func (h *Host) info(id int) *serverInfo {
	h.mu.Lock()
	s := h.bridges[id]
	h.mu.Unlock()
	info := &serverInfo{Session: id, Clients: []clientInfo{}, Diffs: []string{}}
	if s == nil {
		return info
	}
	srv := s.server
	info.Running, info.Port, info.Lockfile, info.Token, info.Cwd = true, s.port, s.lock.Path(), s.token, s.cwd
	for _, c := range srv.Clients() {
		info.Clients = append(info.Clients, clientInfo{
			PID: c.PID, Name: c.Name, Version: c.Version, Ready: c.Ready,
			ConnectedAt: c.ConnectedAt.Unix(),
		})
	}
	if h.editor != nil {
		info.Diffs = h.editor.PendingDiffs(id)
	}
	return info
}

func (h *Host) clientReady(id int, c mcp.ClientInfo) {
	h.log.Info("client connected", "session", id, "pid", c.PID, "name", c.Name, "version", c.Version)
	h.pushClientState(id, c, true)
}

func (h *Host) clientGone(id int, c mcp.ClientInfo) {
	h.log.Info("client disconnected", "session", id, "pid", c.PID, "name", c.Name)
	h.pushClientState(id, c, false)
}

// pushClientState keeps lua/claude/state.lua (statusline, User events)
// current without Lua ever asking. It runs on the server's callback
// goroutine, so connects and disconnects reach Lua in order.
func (h *Host) pushClientState(id int, c mcp.ClientInfo, connected bool) {
	h.mu.Lock()
	s := h.bridges[id]
	h.mu.Unlock()
	n := 0
	if s != nil {
		for _, ci := range s.server.Clients() {
			if ci.Ready {
				n++
			}
		}
	}
	err := h.editor.ClientChanged(context.Background(), nvimapi.ClientChange{
		Session: id, Connected: connected, Clients: n, PID: c.PID, Name: c.Name, Version: c.Version,
	})
	if err != nil {
		h.log.Debug("push client state", "err", err)
	}
}
