package changes

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/claude-nvim/claude.nvim/hooks"
	"github.com/claude-nvim/claude.nvim/ledger"
)

// ErrNotConfigured: the editor has not said where the ledger lives yet (the host starts
// without it; lua/claude/host.lua passes it once the host answers).
var ErrNotConfigured = errors.New("changes: the ledger directory is not set (the plugin passes it when its host starts)")

// Options configure a Recorder.
type Options struct {
	// Dir holds one private repository per workspace (created 0700).
	Dir string
	// NoRevertNote turns the note after a revert off (changes.revert_note = false).
	NoRevertNote bool
	// Limits bound each store, applied when it is first opened; zero means
	// ledger.DefaultLimits.
	Limits ledger.Limits
}

// Recorder records Claude's turns from hook events, one store per workspace.
type Recorder struct {
	log *slog.Logger
	// TurnEnded, when set, is called (in its own goroutine) with a workspace root after a
	// turn there ended or a revert changed it: the editor's signs are pushed from there.
	TurnEnded func(root string)
	// Folders, when set, names the workspace folders of the session an event comes from (by
	// its origin). The ledger's root is found from the folder holding the event's cwd, never
	// from where that cwd leads git (issue 35); nil when the session is unknown.
	Folders func(origin string) []string
	// Trouble, when set, is called (in its own goroutine) once for each new reason the
	// ledger could not record a turn, with the workspace and the reason in one line, and
	// with no reason once a turn is recorded there again.
	Trouble func(root, reason string)

	mu     sync.Mutex // guards the fields below; never held during git work
	opts   Options
	stores map[string]*workspace // by root
	byCwd  map[string]*workspace // a CLI's cwd → its workspace (a cache of Open's answer)
	// running: a session's turn that has begun and not ended.
	running map[string]runningTurn
	// troubles: why each workspace (by root or folder) last failed to record, until it
	// records again (trouble.go).
	troubles map[string]string
}

// workspace is one store and what the editor did with its turns.
type workspace struct {
	store *ledger.Store
	// open serialises opening and bounding the store (Forget) with its first use.
	mu sync.Mutex
	// notes: what the user undid since the last prompt in this workspace (revert note), kept
	// on disk too (noteName) until a prompt carries it.
	notes []string
	// reviewed: hunks the user marked reviewed, by hunkKey.
	reviewed map[string]bool
	// reverted: hunks (hunkKey) and files (fileKey) the user took back.
	reverted map[string]bool
	// userSaved: per turn, the files (relative) the user saved in the editor while it ran;
	// kept for this process only.
	userSaved map[string][]string
	// summaries and hunkCache cache each ended turn's file list and hunks (the snapshots
	// never change).
	summaries map[string][]File
	hunkCache map[string]map[string][]ledger.Hunk
}

type runningTurn struct {
	ws *workspace
	id string
}

// New returns a Recorder; it records nothing until Configure gives it a directory.
func New(log *slog.Logger) *Recorder {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Recorder{log: log, stores: map[string]*workspace{}, byCwd: map[string]*workspace{}, running: map[string]runningTurn{}, troubles: map[string]string{}}
}

// Configure sets the ledger's directory and options (the editor's, at host start). The
// directory is made 0700 at once, so that nothing of the user's code lands in a directory
// others can read.
func (r *Recorder) Configure(opts Options) error {
	if opts.Dir == "" {
		return ErrNotConfigured
	}
	if err := os.MkdirAll(opts.Dir, 0o700); err != nil {
		return fmt.Errorf("changes: %w", err)
	}
	if err := os.Chmod(opts.Dir, 0o700); err != nil {
		return fmt.Errorf("changes: %w", err)
	}
	if opts.Limits == (ledger.Limits{}) {
		opts.Limits = ledger.DefaultLimits
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.opts = opts
	return nil
}

// Dir is the configured directory ("" before Configure).
func (r *Recorder) Dir() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.opts.Dir
}

// Handle is the hook bus's handler: quick for the events it does not need, and for the
// others it answers once the snapshot is on disk.
func (r *Recorder) Handle(ctx context.Context, e hooks.Event) hooks.Reply {
	switch e.Name {
	case hooks.UserPromptSubmit, hooks.PreToolUse, hooks.Stop, hooks.SessionEnd:
	default:
		return hooks.Reply{}
	}
	if e.Cwd == "" || e.SessionID == "" || r.Dir() == "" {
		return hooks.Reply{}
	}
	folder, err := r.folder(e)
	if err != nil {
		r.trouble(folder, err)
		return hooks.Reply{}
	}
	ws, err := r.workspace(ctx, folder)
	if err != nil {
		r.trouble(folder, fmt.Errorf("no ledger for this workspace: %w", err))
		return hooks.Reply{}
	}
	switch e.Name {
	case hooks.UserPromptSubmit:
		// A turn that never saw its Stop (interrupted) ends where the next begins.
		r.end(ctx, e.SessionID)
		r.begin(ctx, ws, e)
		return hooks.Reply{Stdout: r.takeNote(ws)}
	case hooks.PreToolUse:
		r.follow(ctx, ws, e)
	case hooks.Stop, hooks.SessionEnd:
		r.end(ctx, e.SessionID)
	}
	return hooks.Reply{}
}

// workspace opens (once) the store cwd belongs to, bounding it to the limits.
func (r *Recorder) workspace(ctx context.Context, cwd string) (*workspace, error) {
	r.mu.Lock()
	if ws := r.byCwd[cwd]; ws != nil {
		r.mu.Unlock()
		return ws, nil
	}
	opts := r.opts
	r.mu.Unlock()
	store, err := ledger.Open(ctx, opts.Dir, cwd)
	if err != nil {
		return nil, err
	}
	store.SetLog(r.log)
	store.SetLimits(opts.Limits)
	r.mu.Lock()
	ws := r.stores[store.Root()]
	fresh := ws == nil
	if fresh {
		ws = &workspace{store: store, reviewed: map[string]bool{}, reverted: map[string]bool{}, userSaved: map[string][]string{}, summaries: map[string][]File{}, hunkCache: map[string]map[string][]ledger.Hunk{}}
		r.stores[store.Root()] = ws
	}
	r.byCwd[cwd] = ws
	r.mu.Unlock()
	if fresh {
		ws.mu.Lock()
		err := store.Forget(ctx, opts.Limits)
		ws.mu.Unlock()
		if err != nil {
			r.log.Warn("changes: bounding the ledger", "root", store.Root(), "err", err)
		}
		ws.loadReviewed()
		ws.loadNotes()
	}
	return ws, nil
}

// source names where a CLI runs, for the list: "terminal" or "chat" (from the hook's
// origin), "" for a CLI the plugin did not start.
func source(e hooks.Event) string {
	origin, _, _ := strings.Cut(e.Origin, ":")
	return origin
}

func (r *Recorder) begin(ctx context.Context, ws *workspace, e hooks.Event) {
	t := ledger.Turn{Session: e.SessionID, Source: source(e), Prompt: e.Prompt}
	if path := e.FilePath(); path != "" && !ws.store.Repository() {
		t.Files = []string{absolute(e.Cwd, path)}
	}
	t, err := ws.store.Begin(ctx, t)
	if err != nil {
		r.trouble(ws.store.Root(), fmt.Errorf("the turn's start could not be recorded: %w", err))
		return
	}
	r.recorded(ws.store.Root())
	r.mu.Lock()
	r.running[e.SessionID] = runningTurn{ws: ws, id: t.ID}
	r.mu.Unlock()
}

// follow makes sure a "before" exists for the file a tool is about to change: outside git
// the file joins the turn; a session with no turn (its prompt hook was missed) begins one.
func (r *Recorder) follow(ctx context.Context, ws *workspace, e hooks.Event) {
	r.mu.Lock()
	run, ok := r.running[e.SessionID]
	r.mu.Unlock()
	if !ok || run.ws != ws {
		r.end(ctx, e.SessionID)
		r.begin(ctx, ws, e)
		return
	}
	path := e.FilePath()
	if path == "" || ws.store.Repository() {
		return
	}
	if err := ws.store.Follow(ctx, run.id, []string{absolute(e.Cwd, path)}); err != nil {
		r.log.Warn("changes: follow", "path", path, "err", err)
	}
}

func (r *Recorder) end(ctx context.Context, session string) {
	r.mu.Lock()
	run, ok := r.running[session]
	delete(r.running, session)
	r.mu.Unlock()
	if !ok {
		return
	}
	if _, err := run.ws.store.End(ctx, run.id); err != nil {
		r.trouble(run.ws.store.Root(), fmt.Errorf("the turn's end could not be recorded: %w", err))
		return
	}
	r.recorded(run.ws.store.Root())
	r.changed(run.ws)
	r.bound(run.ws)
}

// changed tells the editor a workspace's changes are new, and keeps what the user reviewed.
func (r *Recorder) changed(ws *workspace) {
	if err := ws.saveReviewed(); err != nil {
		r.log.Warn("changes: keeping the reviewed marks", "root", ws.store.Root(), "err", err)
	}
	if f := r.TurnEnded; f != nil {
		go f(ws.store.Root())
	}
}

// UserSaved notes that the user saved path in the editor: a turn running in its workspace
// then holds the user's change as well as Claude's, and that file is only reverted hunk by
// hunk (the list says so).
func (r *Recorder) UserSaved(path string) {
	r.mu.Lock()
	runs := make([]runningTurn, 0, len(r.running))
	for _, run := range r.running {
		runs = append(runs, run)
	}
	r.mu.Unlock()
	for _, run := range runs {
		rel, err := filepath.Rel(run.ws.store.Root(), path)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		rel = filepath.ToSlash(rel)
		run.ws.mu.Lock()
		if !slices.Contains(run.ws.userSaved[run.id], rel) {
			run.ws.userSaved[run.id] = append(run.ws.userSaved[run.id], rel)
		}
		run.ws.mu.Unlock()
	}
}

func absolute(cwd, path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(cwd, path)
}
