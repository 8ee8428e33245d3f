// Package host is the Neovim remote plugin: it declares the handlers
// Neovim calls (functions for the Lua layer, autocmds for editor events)
// and ties them to the MCP server, the lock file and the editor. It never
// calls Neovim itself: what it needs at start comes as ClaudeHostStart's
// arguments, and everything else goes through nvimapi.Editor.
package host

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/claude-nvim/claude.nvim/attention"
	"github.com/claude-nvim/claude.nvim/changes"
	"github.com/claude-nvim/claude.nvim/kernels"
	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/claude-nvim/claude.nvim/memtrim"
	"github.com/claude-nvim/claude.nvim/nvimapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/selection"
	"github.com/neovim/go-client/nvim/plugin"
)

// Version of the plugin. lua/claude/init.lua holds the same string and
// refuses a binary that answers anything else (built from another checkout).
const Version = "0.1.0"

// Host is one Neovim's Claude integration.
type Host struct {
	log         *slog.Logger
	lockDir     string
	listenDelay time.Duration
	chatAfter   func(d time.Duration, f func()) // Options.ChatAfter

	editor    *nvimapi.Editor
	tracker   *selection.Tracker
	diags     *diagnosticsNotifier
	chats     chats             // :ClaudeChat (chat.go, chatctl)
	attention attentionList     // which session needs the user (attention.go)
	idle      *memtrim.Idle     // drops our executable's pages once quiet (memory.go)
	hookBus   hookBus           // the hook events of the CLIs we start (hooks.go)
	changes   *changes.Recorder // the change ledger, fed by hook events (changes.go)
	kernels   *kernels.Manager  // executeCode's Jupyter kernels, when tools.execute_code is on
	places    editPlaces        // where each review stands in its message (reviews.go)
	remotes   remotes           // CLIs elsewhere, through relays (remote.go)

	// lifecycle serialises starting and stopping the server; never held
	// while calling Neovim.
	lifecycle sync.Mutex

	mu      sync.Mutex // guards the fields below; never held while calling Neovim
	bridges map[int]*bridge
	current int                // the bridge selections and mentions go to
	stopRun context.CancelFunc // stops the selection and diagnostics feeds
	// remoteFeeds counts the connected remotes: they need the feeds too,
	// with no bridge running (remote.go).
	remoteFeeds int
}

// Options configure a Host.
type Options struct {
	// Log receives what the host does; nil discards.
	Log *slog.Logger
	// LockDir is where lock files go; empty means lockfile.Dir() (the
	// Claude config dir of this process's environment).
	LockDir string
	// ListenDelay is passed to the MCP server (mcp.Config.ListenDelay).
	ListenDelay time.Duration
	// HookBinary is the program the CLIs' hooks run in -hook mode; empty means this
	// process's executable (tests, whose executable is not the plugin, name it).
	HookBinary string
	// ChatAfter is chatctl.Options.After (tests); nil means time.AfterFunc.
	ChatAfter func(d time.Duration, f func())
}

// New returns a host; it does nothing until Neovim calls it.
func New(opts Options) *Host {
	if opts.Log == nil {
		opts.Log = slog.New(slog.DiscardHandler)
	}
	h := &Host{log: opts.Log, lockDir: opts.LockDir, listenDelay: opts.ListenDelay, chatAfter: opts.ChatAfter}
	h.hookBus.log, h.hookBus.binary = opts.Log, opts.HookBinary
	h.places.log = opts.Log
	h.attention.board = attention.New(nil)
	h.idle = memtrim.NewIdle(trimQuiet, h.trimMemory)
	h.changes = changes.New(opts.Log)
	h.changes.TurnEnded = h.pushMarks
	h.changes.Folders = h.sessionFolders
	h.changes.Trouble = h.changesTrouble
	return h
}

// Register declares every handler. It runs before the RPC loop starts (and
// with p.Nvim == nil when only the manifest is generated), so it only
// builds values: no calls into Neovim, no goroutines, no listeners.
func (h *Host) Register(p *plugin.Plugin) error {
	if p.Nvim != nil {
		// The first of the milestones a debug log shows on the way to a chat's first
		// token (peerbench/chatpeer's BenchmarkChatColdBreakdown reads them).
		h.log.Debug("host: registered")
		h.editor = nvimapi.New(p.Nvim)
		h.kernels = kernels.New(h.editor, h.log)
		h.tracker = selection.NewTracker(h.editor, h.sendSelection, nil, h.log)
		h.editor.SetLatestSelection(h.tracker.Latest)
		h.editor.SetEditPlace(h.places.of)
		h.editor.SetAfterLargeProposal(h.releaseMemory)
		h.diags = newDiagnosticsNotifier(h.editor, h.notifyDiagnostics, h.log)
		h.newChats(h.editor)
	} else {
		h.newChats(nil) // the manifest only needs the handlers' signatures
	}
	// The attention list first: it only notes the state, while the ledger may snapshot a
	// large work tree before the CLI goes on.
	h.hookBus.subscribe(h.attentionHook)
	h.hookBus.subscribe(h.changes.Handle) // the change ledger records every turn (changes.go)
	h.hookBus.subscribe(h.places.hook)    // "2 of 3" on the reviews of one message (reviews.go)
	h.hookBus.subscribe(h.takenBackHook)  // why hunks were taken back, with the edit's result (reviews.go)
	h.hookBus.subscribe(h.rejectedHook)   // why proposals were rejected, with the next prompt (reviews.go)

	// The functions Lua calls, one declared list (calls.go) that also writes
	// lua/claude/host_calls.lua, the list host.lua builds its wrappers from.
	for _, c := range h.calls() {
		p.HandleFunction(&plugin.FunctionOptions{Name: c.Go}, c.fn)
	}

	for _, event := range []string{"CursorMoved", "CursorMovedI", "ModeChanged", "BufEnter"} {
		p.HandleAutocmd(&plugin.AutocmdOptions{Event: event, Pattern: "*", Eval: "*"}, h.cursorEvent)
	}
	p.HandleAutocmd(&plugin.AutocmdOptions{Event: "DiagnosticChanged", Pattern: "*", Eval: "*"}, h.diagnosticChanged)
	p.HandleAutocmd(&plugin.AutocmdOptions{Event: "DirChanged", Pattern: "*"}, h.dirChanged)
	p.HandleAutocmd(&plugin.AutocmdOptions{Event: "BufWritePost", Pattern: "*", Eval: "expand('<afile>:p')"}, h.bufWritten)
	return nil
}

func (h *Host) hostVersion(args []any) (string, error) {
	return Version, nil
}

// running returns the server of the current bridge, nil when no
// bridge runs.
func (h *Host) running() *mcp.Server {
	h.mu.Lock()
	defer h.mu.Unlock()
	if s := h.currentLocked(); s != nil {
		return s.server
	}
	return nil
}
