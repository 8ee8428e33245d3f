package acpchat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/claude-nvim/claude.nvim/acp"
	"github.com/claude-nvim/claude.nvim/chat"
)

// setupTimeout bounds the handshake (initialize, the session, its mode): a node agent and
// the CLI it runs take a few seconds on a busy machine, one that never answers is given up.
const setupTimeout = 2 * time.Minute

// Options say which agent to run and for which chat.
type Options struct {
	Name string   // the agent's name in the user's configuration, for the transcript
	Path string   // the executable (absolute, or looked up in $PATH)
	Args []string // its arguments
	Env  []string // its whole environment; nil inherits ours
	Dir  string   // the workspace: the agent's working directory and the session's cwd
	// Resume, when set, continues that stored session (session/resume, else session/load;
	// a new session, with a line saying so, where the agent offers neither).
	Resume string
	// Mode is the mode set right after the session starts ("default": ask before edits
	// and commands). claude-agent-acp starts in "auto", which asks nothing.
	Mode   string
	Logger *slog.Logger
	// Turns, when set, sees each turn start and end (TurnHook).
	Turns TurnHook
	// Tools, when set, sees a tool the agent asks permission for before the user is asked
	// (as the CLI's PreToolUse): the change ledger follows its file outside git.
	Tools func(sessionID, toolName, toolUseID string, input json.RawMessage)
	// MCPServers are offered to the session (the editor's tools); an http or sse one only
	// where the agent's mcpCapabilities take it.
	MCPServers []acp.MCPServer
	// SessionMeta is the _meta of session/new, load and resume: what an agent may read
	// beyond the protocol (chatctl gives claude-agent-acp its Claude's PreToolUse hook).
	SessionMeta json.RawMessage
}

// Backend is one ACP agent driving one chat (chatctl.Backend).
type Backend struct {
	opts  Options
	agent *acp.Agent
	q     *queue
	log   *slog.Logger

	ready   chan struct{} // closed once the session is set up (or failed: setupErr)
	setup   *chat.InitializeResult
	setupEr error

	mu      sync.Mutex
	session string
	modes   *acp.SessionModeState
	configs []acp.ConfigOption
	usage   *acp.UsageUpdate
	tools   map[string]*toolState
	perms   map[string]*pending
	keeps   map[string]keep // tool call id -> what the user kept of its edit (keep.go)
	notes   []string        // for the agent, ahead of the next prompt
	tickets int
	turn    *turn    // the running turn; nil between turns
	waiting []queued // messages sent while a turn ran, oldest first
	closing bool
	turns   sync.WaitGroup // the turn running, if any

	done chan struct{}
}

// Start runs the agent and sets up its session in the background: the first turn waits
// for it. A missing executable fails here; anything later is shown in the transcript.
func Start(opts Options) (*Backend, error) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opts.Mode == "" {
		opts.Mode = "default"
	}
	b := &Backend{opts: opts, q: newQueue(), log: log, ready: make(chan struct{}), done: make(chan struct{}),
		tools: map[string]*toolState{}, perms: map[string]*pending{}, keeps: map[string]keep{}}
	agent, err := acp.Start(acp.Command{Path: opts.Path, Args: opts.Args, Env: opts.Env, Dir: opts.Dir, Options: acp.Options{Logger: log}}, b)
	if err != nil {
		return nil, err
	}
	b.agent = agent
	go b.start()
	go b.watch()
	return b, nil
}

// start is the handshake: initialize, the session, the user's mode.
func (b *Backend) start() {
	defer close(b.ready)
	ctx, cancel := context.WithTimeout(context.Background(), setupTimeout)
	defer cancel()
	b.setup, b.setupEr = b.handshake(ctx)
	if b.setupEr != nil {
		b.q.put(chat.Notice{Text: fmt.Sprintf("%s did not start its session: %v", b.name(), b.setupEr), IsError: true})
	}
}

func (b *Backend) handshake(ctx context.Context) (*chat.InitializeResult, error) {
	init, err := b.agent.Initialize(ctx, acp.Implementation{Name: "claude.nvim", Title: "claude.nvim", Version: "1"})
	if err != nil {
		return nil, fmt.Errorf("initialize: %w", err)
	}
	id, setup, err := b.openSession(ctx, init)
	if err != nil {
		return nil, err
	}
	b.mu.Lock()
	b.session, b.modes, b.configs = id, setup.Modes, setup.ConfigOptions
	b.mu.Unlock()
	if err := b.setMode(ctx, b.opts.Mode); err != nil && !errors.Is(err, errNoSuchMode) {
		return nil, fmt.Errorf("set mode %s: %w", b.opts.Mode, err)
	}
	b.q.put(chat.Init{SessionID: id, Model: b.currentModel(), PermissionMode: b.currentMode()})
	return &chat.InitializeResult{Models: b.models(), PID: b.agent.PID()}, nil
}

// openSession resumes opts.Resume where the agent can, else starts a new session.
func (b *Backend) openSession(ctx context.Context, init *acp.InitializeResult) (string, *acp.SessionSetup, error) {
	if id := b.opts.Resume; id != "" {
		setup, err := b.agent.ResumeSession(ctx, acp.ResumeSessionRequest{SessionID: id, Cwd: b.opts.Dir, MCPServers: b.mcpServers(init), Meta: b.opts.SessionMeta})
		if errors.Is(err, acp.ErrUnsupported) {
			setup, err = b.agent.LoadSession(ctx, acp.LoadSessionRequest{SessionID: id, Cwd: b.opts.Dir, MCPServers: b.mcpServers(init), Meta: b.opts.SessionMeta})
		}
		if err == nil {
			return id, setup, nil
		}
		b.q.put(chat.Notice{Text: fmt.Sprintf("%s could not continue conversation %s (%v): a new one starts", b.name(), id, err)})
	}
	res, err := b.agent.NewSession(ctx, acp.NewSessionRequest{Cwd: b.opts.Dir, MCPServers: b.mcpServers(init), Meta: b.opts.SessionMeta})
	if err != nil {
		return "", nil, fmt.Errorf("new session: %w", err)
	}
	return res.SessionID, &res.SessionSetup, nil
}

// sessionID waits for the session (the handshake runs in the background).
func (b *Backend) sessionID(ctx context.Context) (string, error) {
	select {
	case <-b.ready:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	if b.setupEr != nil {
		return "", b.setupEr
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.session, nil
}

// watch turns the agent's exit into the chat's last event.
func (b *Backend) watch() {
	<-b.agent.Exited()
	b.mu.Lock()
	mid := b.turn != nil
	b.closing = true // no queued message starts a turn now
	b.mu.Unlock()
	// The turn's end (its Prompt fails with the exit) comes before the exit itself.
	b.turns.Wait()
	ex := chat.Exited{MidTurn: mid}
	if e := b.agent.ExitErr(); e != nil {
		ex.Code, ex.Signal = e.Code, e.Signal
		if mid || e.Code != 0 || e.Signal != "" {
			// One line (the transcript shows an error's first): how it ended and the last
			// thing it said; the whole end of its stderr is in the log.
			how := fmt.Sprintf("exited with status %d", e.Code)
			if e.Signal != "" {
				how = "was killed by signal " + e.Signal
			}
			if last := lastLine(e.Stderr); last != "" {
				how += ": " + last
			}
			b.log.Warn("acpchat: the agent ended", "err", e)
			b.q.put(chat.Notice{Text: fmt.Sprintf("%s %s", b.name(), how), IsError: true})
		}
	}
	b.failPermissions()
	b.q.put(ex)
	close(b.done)
}

func (b *Backend) name() string {
	if b.opts.Name != "" {
		return "the agent " + b.opts.Name
	}
	return "the agent"
}

// PID is the agent's process id (its process group's).
func (b *Backend) PID() int { return b.agent.PID() }

// Next returns the next batch of events; io.EOF after chat.Exited.
func (b *Backend) Next(ctx context.Context) ([]chat.Event, error) { return b.q.next(ctx) }

// Done is closed once the agent has exited.
func (b *Backend) Done() <-chan struct{} { return b.done }

// sessionEndWait bounds how long Close lets the session end before the agent's stdin
// closes: claude-agent-acp's SDK gives its CLI 2 s after the CLI's stdin closes.
const sessionEndWait = 3 * time.Second

// Close ends the agent: the session first, then the agent (its stdin closes, and it is
// killed if it stays: acp.Agent.Close).
//
// Where the agent offers session/close, the session is closed and the agent's child
// processes are let exit before its stdin closes. claude-agent-acp 0.101.0 answers
// session/close by closing its Claude CLI's stdin, and the CLI writes the conversation's
// last messages as it exits, some tens of milliseconds after the turn's end; but an agent
// whose stdin closes exits at once and SIGTERMs the CLI on its way out, which then never
// writes them. A new conversation started right after an answer lost the one before (not
// in the agent's session/list, nothing left to resume).
func (b *Backend) Close(ctx context.Context) error {
	b.mu.Lock()
	b.closing = true
	id := b.session
	b.mu.Unlock()
	b.endSession(ctx, id)
	return b.agent.Close(ctx)
}

// endSession closes session id where the agent offers it, and waits for what the agent runs
// for it to exit: at most sessionEndWait, and half the time ctx leaves, so that the agent
// still has the other half to exit on its own (an exiting editor gives us little).
func (b *Backend) endSession(ctx context.Context, id string) {
	init := b.agent.Agent()
	if id == "" || init == nil || !init.AgentCapabilities.SessionCapabilities.CanClose() {
		return
	}
	wait := sessionEndWait
	if deadline, ok := ctx.Deadline(); ok {
		wait = min(wait, time.Until(deadline)/2)
	}
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	if err := b.agent.CloseSession(ctx, id); err != nil {
		b.log.Debug("acp chat: session/close", "session", id, "err", err)
		return
	}
	if err := b.agent.WaitChildren(ctx); err != nil {
		b.log.Debug("acp chat: the agent's processes outlived its session", "session", id, "err", err)
	}
}

// Initialize waits for the session and returns the models its config options offer. The
// commands come later, as the agent sends them (chat.Commands).
func (b *Backend) Initialize(ctx context.Context) (*chat.InitializeResult, error) {
	if _, err := b.sessionID(ctx); err != nil {
		return nil, err
	}
	return b.setup, nil
}

// mcpServers are the Options' MCP servers the agent can take: stdio ones always, http and
// sse ones where its mcpCapabilities say so.
func (b *Backend) mcpServers(init *acp.InitializeResult) []acp.MCPServer {
	out := []acp.MCPServer{}
	caps := init.AgentCapabilities.MCPCapabilities
	for _, s := range b.opts.MCPServers {
		if (s.Type == "http" && !caps.HTTP) || (s.Type == "sse" && !caps.SSE) {
			b.log.Debug("acpchat: the agent takes no MCP server of this type", "type", s.Type, "name", s.Name)
			continue
		}
		out = append(out, s)
	}
	return out
}

// lastLine is s's last line that is not blank.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
