package chatctl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/claude-nvim/claude.nvim/chat"
	"github.com/claude-nvim/claude.nvim/claudeconfig"
)

// writeTimeout bounds a write to a chat CLI's stdin (a turn, an answer, an interrupt): a CLI
// that stopped reading must not pile up goroutines.
const writeTimeout = 10 * time.Second

// closeTimeout bounds :Claude chat end's wait for the CLI to go.
const closeTimeout = 10 * time.Second

// Controller runs the native chats (:ClaudeChat) of one Neovim, one per workspace directory.
// It owns each chat's CLI process; lua/claude/chat.lua only renders what it pushes and sends
// what the user types. Its exported methods are the host's handlers, as Neovim calls them.
type Controller struct {
	view View
	log  *slog.Logger
	// editorTools gives the arguments that hand a CLI the editor's tools (host/chat_mcp.go):
	// the --mcp-config files and any other arguments.
	editorTools func(noLSP bool) (mcpConfigs, args []string)
	// observe sees every batch of items a chat shows, and the turns and answers the user
	// sends, as they happen (the host's attention list, host/attention.go).
	observe        func(dir string, items []Item)
	after          func(d time.Duration, f func()) // Options.After
	hooks          []chat.Hook                     // Options.Hooks
	hook           func(ctx context.Context, dir string, input json.RawMessage) (json.RawMessage, error)
	agentToolHooks func() string                         // Options.AgentToolHooks
	remote         func(name string) (RemoteChat, error) // Options.Remote

	mu    sync.Mutex // guards chats; never held while calling Neovim or the CLI
	chats map[string]*dirChat
	// runs counts the run loops still going: each cleans up after its CLI once that has
	// exited, and an exiting host waits for them (WaitGone).
	runs sync.WaitGroup
	// historySeqs stops a history search a newer one replaced (history.go).
	historySeqs historySeqs
	// trusts are the folders the user trusted in the chat (trust.go).
	trusts trusts
}

// Options configure a Controller.
type Options struct {
	View View
	Log  *slog.Logger // nil discards
	// EditorTools, when set, is asked at each CLI start for the --mcp-config files and the
	// arguments that give the CLI the editor's tools (noLSP: without the language-server
	// tools, StartArgs.NoLSPTools).
	EditorTools func(noLSP bool) (mcpConfigs, args []string)
	// Observe, when set, sees what each chat shows (as the transcript gets it) and, as "user"
	// and "answered" items it is alone to see, each turn the user sends and each answer to a
	// permission, question or plan. It runs on the chat's own goroutines and must return at
	// once: it never calls Neovim.
	Observe func(dir string, items []Item)
	// Hooks are the CLI hooks every chat CLI registers (chat.Options.Hooks); Hook answers
	// them for dir's chat (chat.HookHandler). Without Hook none are registered.
	Hooks []chat.Hook
	Hook  func(ctx context.Context, dir string, input json.RawMessage) (json.RawMessage, error)
	// AgentToolHooks, when set, names a --settings file with the PreToolUse hook alone
	// ("" when there is none): claude-agent-acp gives it to the Claude it runs, whose tools
	// then reach the hook bus before they run, asked or not (agent.go).
	AgentToolHooks func() string
	// Remote, when set, tells what a chat CLI on remote name's side needs (the remote must
	// be connected); without it StartArgs.Remote is refused.
	Remote func(name string) (RemoteChat, error)
	// After, when set, runs f once d has passed, in place of time.AfterFunc (tests run the
	// winbar's deferred refreshes when they choose: context.go).
	After func(d time.Duration, f func())
}

// New returns a controller with no chat; a chat starts when Lua calls Start.
func New(opts Options) *Controller {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	if opts.EditorTools == nil {
		opts.EditorTools = func(bool) ([]string, []string) { return nil, nil }
	}
	if opts.Observe == nil {
		opts.Observe = func(string, []Item) {}
	}
	if opts.After == nil {
		opts.After = func(d time.Duration, f func()) { time.AfterFunc(d, f) }
	}
	return &Controller{view: opts.View, log: opts.Log, editorTools: opts.EditorTools, observe: opts.Observe, after: opts.After, hooks: opts.Hooks, hook: opts.Hook, agentToolHooks: opts.AgentToolHooks, remote: opts.Remote, chats: map[string]*dirChat{}}
}

// dirChat is one workspace directory's chat: its running CLI process, if any, and the
// conversation a new process resumes.
type dirChat struct {
	dir          string
	proc         Backend                       // the running chat agent; nil when none runs
	conversation string                        // the stored conversation's id (the CLI's session_id)
	reviews      map[string]context.CancelFunc // edits shown as diffs, by ticket: closes the view
	edits        editBatch                     // the running message's edits (their "2 of 3")
	init         *initAnswer                   // the running CLI's initialize answer
	messages     map[string]*sentMessage       // messages sent and not done, by the CLI's uuid
	writes       toolWrites                    // the files the running turn's tools may change
	taskTools    taskTools                     // the task tools' calls, kept out of the transcript
	cliTemp      string                        // the CLI's temporary directory (clitemp.go)
	prompts      map[string]string             // the uuid each prompt Lua sent went with, by Lua's id (rewind.go)
	sentOrder    []string                      // their uuids, oldest first
	lastSent     time.Time                     // when a message was last written to the CLI
	contextAsks  int                           // the winbar's refreshes asked for (context.go)
	agent        string                        // the ACP agent proc runs, "" for the Claude CLI
	suggested    bool                          // the running CLI was asked for @-completions (suggest.go)
}

// StartArgs are ClaudeHostChatStart's argument (lua/claude/chat.lua).
type StartArgs struct {
	Dir  string            `msgpack:"dir"`
	Bin  string            `msgpack:"bin"`
	Args []string          `msgpack:"args"`
	Env  map[string]string `msgpack:"env"` // the CLI's whole environment
	// Resume, when set, continues that stored conversation, ending a CLI that runs another.
	Resume string `msgpack:"resume"`
	// New ends a running CLI and starts a new conversation.
	New bool `msgpack:"new"`
	// Revive, with Resume, continues a conversation the transcript still shows: the host
	// that ran it died (lua/claude/chat/revive.lua), so its earlier turns are not shown again.
	Revive bool `msgpack:"revive"`
	// Fork, Lua's id of a prompt sent in this chat, replaces a running CLI with one whose
	// conversation is a new stored one, forked from the chat's just before that prompt
	// (rewind.go); the original is left as it is.
	Fork string `msgpack:"fork"`
	// Relaunch replaces a running CLI with a new one for the same conversation (Resume,
	// with Revive; none before the first turn): lua/claude/chat/modes.lua starts it again
	// with --allow-dangerously-skip-permissions, which the CLI needs before it switches to
	// bypassPermissions.
	Relaunch bool `msgpack:"relaunch"`
	// Quiet, for Trusted, only answers: an untrusted folder gets no question in the
	// transcript (chat.prestart asks before the user opened the chat, and then does
	// nothing there).
	Quiet bool `msgpack:"quiet"`
	// Agent names the ACP agent of the user's configuration the chat runs (Bin, Args and
	// Env are its command); "" is the Claude CLI on stream-json. Mode is the mode an
	// agent's session is set to when it starts (the CLI takes --permission-mode in Args).
	Agent string `msgpack:"agent"`
	Mode  string `msgpack:"mode"`
	// Cwd, when set, is the chat's folder and Dir only its name: an agent's chat beside
	// the folder's Claude chat is named "DIR//AGENT" (lua/claude/agents.lua), no folder.
	Cwd string `msgpack:"cwd"`
	// NoLSPTools leaves the language-server tools out of the editor's tools (tools.lsp =
	// false).
	NoLSPTools bool `msgpack:"no_lsp_tools"`
	// Remote, when set, runs the CLI on that remote's side (remote.go).
	Remote *RemoteArgs `msgpack:"remote"`
}

// workdir is the folder a's chat runs in.
func (a StartArgs) workdir() string {
	if a.Cwd != "" {
		return a.Cwd
	}
	return a.Dir
}

// Start serves ClaudeHostChatStart: it starts the workspace's CLI unless it runs, and
// resumes the conversation when an earlier CLI of this chat exited. With Resume or New it
// replaces a running CLI (closed in the background; its last events are not shown). Sync, as
// Lua must know whether there is a CLI before it sends; the work is one fork and exec. It
// returns the pid of the chat's CLI (started now or running already): if this host dies, Lua
// kills that process group (lua/claude/host.lua), as nothing else would.
func (c *Controller) Start(args []StartArgs) (int, error) {
	if len(args) == 0 || args[0].Dir == "" {
		return 0, errors.New("chat start: no directory")
	}
	a := args[0]
	c.log.Debug("chat: start asked", "dir", a.Dir)
	if err := c.gate(a); err != nil {
		return 0, fmt.Errorf("chat start: %w", err)
	}
	if a.Agent != "" && a.Fork != "" {
		return 0, errAgentFork
	}
	var rc RemoteChat
	var there *chat.Remote
	if a.Remote != nil {
		if a.Agent != "" || c.remote == nil {
			return 0, errors.New("chat start: only the Claude CLI runs on a remote's side")
		}
		var err error
		if rc, err = c.remote(a.Remote.Name); err == nil {
			there, rc.MCPConfig, err = remoteStart(a, rc)
		}
		if err != nil {
			return 0, fmt.Errorf("chat start: %w", err)
		}
	}
	mcpConfigs, mcpArgs := c.editorTools(a.NoLSPTools)
	if there != nil {
		mcpConfigs, mcpArgs = nil, rc.args(a.NoLSPTools)
		if rc.MCPConfig != "" {
			mcpConfigs = []string{rc.MCPConfig}
		}
	}
	env := withCheckpoints(c.environment(a))
	c.mu.Lock()
	defer c.mu.Unlock()
	dc := c.chats[a.Dir]
	if dc == nil {
		dc = &dirChat{dir: a.Dir}
		c.chats[a.Dir] = dc
	}
	if a.Agent != dc.agent && !a.New && a.Resume == "" {
		dc.conversation = "" // another agent's conversation is not this one's to resume
	}
	replace := a.New || (a.Resume != "" && a.Resume != dc.conversation) || a.Fork != "" || a.Agent != dc.agent || a.Relaunch
	if dc.proc != nil && !replace {
		return dc.proc.PID(), nil
	}
	var fork chat.Options
	if a.Fork != "" {
		var err error
		if fork, err = forkOptions(dc, env, a.Fork); err != nil {
			return 0, err // before anything changed: the chat goes on as it was
		}
	}
	if dc.proc != nil {
		c.retireLocked(dc)
	}
	if a.New {
		dc.conversation = ""
	} else if a.Resume != "" {
		dc.conversation = a.Resume
	}
	resume := dc.conversation
	if a.Fork != "" {
		// Until the fork's first turn names it, the chat has no conversation of its own to
		// resume: not the original, which stays as it was. Nor does the fork hold the
		// prompt it was made before, or those after.
		resume, dc.conversation = fork.Resume, ""
		forgetPromptsLocked(dc, dc.prompts[a.Fork])
	}
	if a.New || a.Resume != "" || dc.prompts == nil {
		dc.prompts, dc.sentOrder = map[string]string{}, nil // another conversation: its prompts are not these
	}
	if a.Agent != "" {
		return c.startAgentLocked(dc, a, resume, agentMCPServers(mcpConfigs))
	}
	dc.agent = ""
	opts := chat.Options{
		Bin: a.Bin, Dir: a.Dir, Env: env, Args: append(mcpArgs, a.Args...),
		MCPConfig: mcpConfigs, Resume: resume, Fork: fork.Fork, ResumeAt: fork.ResumeAt,
		Logger: c.log.With("chat", a.Dir),
		Remote: there,
	}
	if there == nil {
		// The first CLI after the user's yes records it (trust.go); a remote's CLI
		// keeps its trust in its own config there.
		opts.WorkspaceTrust = c.trusts.take(claudeconfig.Folder(a.Dir))
	}
	if c.hook != nil {
		dir := a.Dir
		opts.Hooks = c.hooks
		opts.HookHandler = func(ctx context.Context, input json.RawMessage) (json.RawMessage, error) {
			if there != nil {
				input = remoteHookInput(rc.Paths, input)
			}
			return c.hook(ctx, dir, input)
		}
	}
	started, err := chat.Start(opts)
	if err != nil {
		if opts.WorkspaceTrust != "" {
			c.trusts.giveBack(opts.WorkspaceTrust)
		}
		return 0, err
	}
	var proc Backend = started
	dc.cliTemp = cliTempRoot(a.Env)
	if there != nil {
		proc = newRemoteProc(started, a.Remote.Name, rc.Paths)
		dc.cliTemp = "" // the CLI's temporary directory is there
	}
	dc.proc, dc.reviews, dc.messages = proc, map[string]context.CancelFunc{}, map[string]*sentMessage{}
	dc.suggested = false
	dc.init = c.initialize(a.Dir, proc, func(init *chat.InitializeResult, err error) {
		switch {
		case opts.WorkspaceTrust == "":
		case err != nil:
			c.trusts.giveBack(opts.WorkspaceTrust) // the next CLI records it
		default:
			c.recordTrust(a, opts.WorkspaceTrust, init)
		}
	})
	if a.Resume != "" && !a.Revive {
		go c.showHistory(a.Dir, envList(a.Env), a.Resume)
	}
	c.runs.Add(1)
	go func() {
		defer c.runs.Done()
		c.run(dc, proc)
	}()
	return proc.PID(), nil
}

// retireLocked ends dc's running CLI in the background; run stops rendering it once dc.proc
// is another one. Called with c.mu held.
func (c *Controller) retireLocked(dc *dirChat) {
	old := dc.proc
	c.forgetLocked(dc)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
		defer cancel()
		if err := old.Close(ctx); err != nil {
			c.log.Warn("chat: close", "dir", dc.dir, "err", err)
		}
	}()
}

// forgetLocked drops what dc knew of its running CLI, withdrawing its diff reviews. Called
// with c.mu held.
func (c *Controller) forgetLocked(dc *dirChat) {
	for _, cancel := range dc.reviews {
		cancel()
	}
	dc.proc, dc.reviews, dc.init = nil, nil, nil
}

// environment is the whole environment of a's CLI: Lua's (this process's when Lua sent none).
func (c *Controller) environment(a StartArgs) []string {
	if a.Env == nil {
		return os.Environ()
	}
	return envList(a.Env)
}

// envList turns the environment Lua sends into KEY=VALUE pairs, sorted so logs compare.
func envList(env map[string]string) []string {
	if env == nil {
		return nil
	}
	list := make([]string, 0, len(env))
	for k, v := range env {
		list = append(list, k+"="+v)
	}
	sort.Strings(list)
	return list
}

// running returns the running CLI of dir's chat, or nil.
func (c *Controller) running(dir string) Backend {
	c.mu.Lock()
	defer c.mu.Unlock()
	if dc := c.chats[dir]; dc != nil {
		return dc.proc
	}
	return nil
}

// fail shows a failed chat operation in the transcript.
func (c *Controller) fail(dir, what string, err error) {
	c.log.Warn("chat: "+what, "dir", dir, "err", err)
	c.show(context.Background(), dir, Item{Kind: "error", Text: fmt.Sprintf("%s: %v", what, err)})
}

// show hands items to dir's transcript; a failure is only logged, as nobody waits on it.
func (c *Controller) show(ctx context.Context, dir string, items ...Item) {
	c.observe(dir, items)
	if err := c.view.ChatEvents(ctx, dir, items); err != nil {
		c.log.Warn("chat: render", "dir", dir, "err", err)
	}
}

// Close ends every chat's CLI, for a host that is exiting with Neovim: each gets its stdin
// closed and is killed when ctx ends, so none goes on with a turn nobody sees.
func (c *Controller) Close(ctx context.Context) {
	// First, as the MCP token goes first (host/exit.go): Neovim kills an exiting host 2 s
	// after its SIGTERM, which under load came before WaitGone's cleanup. The CLIs are about
	// to end; an empty directory is nothing they need for that. WaitGone cleans again.
	c.removeScratch()
	c.mu.Lock()
	var procs []Backend
	for _, dc := range c.chats {
		if dc.proc != nil {
			procs = append(procs, dc.proc)
		}
	}
	c.mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = p.Close(ctx)
		}()
	}
	wg.Wait()
}

// WaitGone waits, at most d, until every chat's CLI is gone (reaped, its output read): an
// exiting host must not return while one still runs (issue 23.8). Then it removes the CLIs'
// empty scratch directories (clitemp.go): the host may be gone before the run loops get to
// it, and a CLI still exiting could still be using them.
func (c *Controller) WaitGone(d time.Duration) {
	defer c.removeScratch()
	c.mu.Lock()
	var done []<-chan struct{}
	for _, dc := range c.chats {
		if dc.proc != nil {
			done = append(done, dc.proc.Done())
		}
	}
	c.mu.Unlock()
	runs := make(chan struct{})
	go func() {
		c.runs.Wait()
		close(runs)
	}()
	done = append(done, runs)
	timeout := time.NewTimer(d)
	defer timeout.Stop()
	for _, gone := range done {
		select {
		case <-gone:
		case <-timeout.C:
			return
		}
	}
}

// removeScratch removes the empty scratch directories of each chat's last conversation.
func (c *Controller) removeScratch() {
	c.mu.Lock()
	var leftovers [][3]string
	for _, dc := range c.chats {
		leftovers = append(leftovers, [3]string{dc.cliTemp, dc.dir, dc.conversation})
	}
	c.mu.Unlock()
	for _, l := range leftovers {
		removeCLITemp(l[0], l[1], []string{l[2]})
	}
}
