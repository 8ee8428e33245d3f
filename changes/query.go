package changes

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/claude-nvim/claude.nvim/ledger"
)

// listLimit: the list shows the newest turns; older ones stay in the ledger for its limits.
const listLimit = 100

// Turn is one turn as :ClaudeChanges lists it.
type Turn struct {
	ID      string `msgpack:"id"`
	Started int64  `msgpack:"started"` // Unix seconds; Lua shows it in local time
	Prompt  string `msgpack:"prompt"`
	Source  string `msgpack:"source"`
	Running bool   `msgpack:"running"` // not ended yet: no files to show
	Files   []File `msgpack:"files"`
}

// File is one file a turn changed.
type File struct {
	Path    string `msgpack:"path"` // relative to the root
	OldPath string `msgpack:"old_path,omitempty"`
	Status  string `msgpack:"status"` // A, M, D, R or T
	Added   int    `msgpack:"added"`
	Deleted int    `msgpack:"deleted"`
	Binary  bool   `msgpack:"binary"`
	// TooLarge: over the ledger's file size limit, so not recorded: listed, never reverted.
	TooLarge bool `msgpack:"too_large"`
	// Reverted: the user took the whole file back; else RevertedHunks of Hunks were (both 0
	// when none was).
	Reverted      bool `msgpack:"reverted"`
	RevertedHunks int  `msgpack:"reverted_hunks"`
	Hunks         int  `msgpack:"hunks"`
	// UserSaved: the user saved this file in the editor while the turn ran, so the turn's
	// change holds theirs too; it is reverted hunk by hunk only.
	UserSaved bool `msgpack:"user_saved"`
}

// Listing is :ClaudeChanges' content for a workspace.
type Listing struct {
	Root       string `msgpack:"root"`
	Repository bool   `msgpack:"repository"`
	Turns      []Turn `msgpack:"turns"` // newest first
	// Trouble: why the last turn here could not be recorded, until one is again.
	Trouble string `msgpack:"trouble,omitempty"`
	// Scope: "" for the turns, else the scope of the one pseudo-turn listed (scope.go).
	Scope string `msgpack:"scope"`
}

// List gives the newest turns of the workspace cwd is in, with the files each changed; with
// a scope, the one change of that scope (scope.go).
func (r *Recorder) List(ctx context.Context, cwd string, scope ...string) (Listing, error) {
	ws, err := r.open(ctx, cwd)
	if err != nil {
		return Listing{}, err
	}
	if len(scope) > 0 && scope[0] != "" {
		return r.listScope(ctx, ws, scope[0])
	}
	turns, err := ws.store.Turns()
	if err != nil {
		return Listing{}, err
	}
	l := Listing{Root: ws.store.Root(), Repository: ws.store.Repository(), Turns: []Turn{}, Trouble: r.TroubleOf(ws.store.Root())}
	for i := len(turns) - 1; i >= 0 && len(l.Turns) < listLimit; i-- {
		t := turns[i]
		files, err := ws.files(ctx, t)
		if err != nil {
			return Listing{}, err
		}
		files, err = ws.withReverted(ctx, t, files)
		if err != nil {
			return Listing{}, err
		}
		l.Turns = append(l.Turns, Turn{ID: t.ID, Started: t.Started.Unix(), Prompt: t.Prompt, Source: t.Source, Running: t.After == "", Files: files})
	}
	return l, nil
}

// open is workspace for the editor's requests: a clear error before Configure.
func (r *Recorder) open(ctx context.Context, cwd string) (*workspace, error) {
	if r.Dir() == "" {
		return nil, ErrNotConfigured
	}
	return r.workspace(ctx, cwd)
}

// files is what turn t changed (cached: an ended turn's snapshots never change).
func (ws *workspace) files(ctx context.Context, t ledger.Turn) ([]File, error) {
	if t.After == "" {
		return []File{}, nil
	}
	ws.mu.Lock()
	cached, ok := ws.summaries[t.ID+string(t.After)]
	ws.mu.Unlock()
	if ok {
		return cached, nil
	}
	changes, err := ws.store.Changes(ctx, t.Before, t.After)
	if err != nil {
		return nil, err
	}
	files := make([]File, 0, len(changes))
	for _, c := range changes {
		files = append(files, File{Path: c.Path, OldPath: c.OldPath, Status: string(c.Status), Added: c.Added, Deleted: c.Deleted, Binary: c.Binary})
	}
	files = largeFiles(t, files)
	ws.mu.Lock()
	for i := range files {
		files[i].UserSaved = slices.Contains(ws.userSaved[t.ID], files[i].Path)
	}
	if !strings.HasPrefix(t.ID, scopePrefix) { // a scope's "now" changes: not kept
		ws.summaries[t.ID+string(t.After)] = files
	}
	ws.mu.Unlock()
	return files, nil
}

// withReverted is files (the cached list, not changed) with what the user took back of
// each; only a turn something was taken back of costs its hunks.
func (ws *workspace) withReverted(ctx context.Context, t ledger.Turn, files []File) ([]File, error) {
	ws.mu.Lock()
	any := false
	for k := range ws.reverted {
		if strings.HasPrefix(k, t.ID+":") {
			any = true
			break
		}
	}
	ws.mu.Unlock()
	if !any {
		return files, nil
	}
	out := slices.Clone(files)
	for i, f := range out {
		hunks, err := ws.hunks(ctx, t, f)
		if err != nil {
			return nil, err
		}
		out[i].Reverted, out[i].RevertedHunks = ws.revertedCounts(t, f, hunks)
		out[i].Hunks = len(hunks)
	}
	return out, nil
}

// ErrNoChange: the turn did not change that file (or the turn is gone).
var ErrNoChange = errors.New("changes: that turn did not change this file")

// Hunk is one changed stretch, as the editor shows it.
type Hunk struct {
	OldStart int    `msgpack:"old_start"`
	OldCount int    `msgpack:"old_count"`
	NewStart int    `msgpack:"new_start"`
	NewCount int    `msgpack:"new_count"`
	Reviewed bool   `msgpack:"reviewed"`
	Reverted bool   `msgpack:"reverted"` // taken back (by itself, or with its file or turn)
	Key      string `msgpack:"key"`      // names the hunk in Review and Revert
}

// Diff is one file of one turn, for the before → now view.
type Diff struct {
	Root   string   `msgpack:"root"`
	Turn   string   `msgpack:"turn"`
	File   File     `msgpack:"file"`
	Before []string `msgpack:"before"` // the lines before the turn (none for a new file)
	Hunks  []Hunk   `msgpack:"hunks"`  // before → Claude's after
}

// Open gives a file of a turn: its text before the turn and the turn's hunks.
func (r *Recorder) Open(ctx context.Context, cwd, turnID, path string) (Diff, error) {
	ws, t, f, err := r.find(ctx, cwd, turnID, path)
	if err != nil {
		return Diff{}, err
	}
	d := Diff{Root: ws.store.Root(), Turn: t.ID, File: f, Before: []string{}, Hunks: []Hunk{}}
	if f.Binary || f.TooLarge {
		return d, nil
	}
	before, err := read(ctx, ws.store, t.Before, oldPath(f))
	if err != nil {
		return Diff{}, err
	}
	if before.Exists {
		d.Before = strings.Split(strings.TrimSuffix(string(before.Content), "\n"), "\n")
	}
	hunks, err := ws.hunks(ctx, t, f)
	if err != nil {
		return Diff{}, err
	}
	d.Hunks = hunks
	return d, nil
}

func (ws *workspace) hunks(ctx context.Context, t ledger.Turn, f File) ([]Hunk, error) {
	if f.TooLarge {
		return []Hunk{}, nil // what changed in it is not known
	}
	all, err := ws.allHunks(ctx, t)
	if err != nil {
		return nil, err
	}
	raw := all[f.Path]
	hunks := make([]Hunk, 0, len(raw))
	ws.mu.Lock()
	defer ws.mu.Unlock()
	for _, h := range raw {
		key := hunkKey(t.ID, f.Path, h)
		hunks = append(hunks, Hunk{OldStart: h.OldStart, OldCount: h.OldCount, NewStart: h.NewStart, NewCount: h.NewCount, Key: key, Reviewed: ws.reviewed[key],
			Reverted: ws.reverted[key] || ws.reverted[fileKey(t.ID, f.Path)]})
	}
	return hunks, nil
}

// allHunks is every file's hunks in turn t, from one git run, cached (an ended turn's
// snapshots never change).
func (ws *workspace) allHunks(ctx context.Context, t ledger.Turn) (map[string][]ledger.Hunk, error) {
	cacheKey := t.ID + string(t.After)
	ws.mu.Lock()
	cached, ok := ws.hunkCache[cacheKey]
	ws.mu.Unlock()
	if ok {
		return cached, nil
	}
	all, err := ws.store.AllHunks(ctx, t.Before, t.After)
	if err != nil {
		return nil, err
	}
	if !strings.HasPrefix(t.ID, scopePrefix) {
		ws.mu.Lock()
		ws.hunkCache[cacheKey] = all
		ws.mu.Unlock()
	}
	return all, nil
}

func hunkKey(turn, path string, h ledger.Hunk) string {
	return fmt.Sprintf("%s:%s:%d,%d,%d,%d", turn, path, h.OldStart, h.OldCount, h.NewStart, h.NewCount)
}

// find is a turn of cwd's workspace and one file it changed.
func (r *Recorder) find(ctx context.Context, cwd, turnID, path string) (*workspace, ledger.Turn, File, error) {
	ws, t, err := r.turn(ctx, cwd, turnID)
	if err != nil {
		return nil, ledger.Turn{}, File{}, err
	}
	files, err := ws.files(ctx, t)
	if err != nil {
		return nil, ledger.Turn{}, File{}, err
	}
	i := slices.IndexFunc(files, func(f File) bool { return f.Path == path })
	if i < 0 {
		return nil, ledger.Turn{}, File{}, fmt.Errorf("%w: %s", ErrNoChange, path)
	}
	return ws, t, files[i], nil
}

func (r *Recorder) turn(ctx context.Context, cwd, turnID string) (*workspace, ledger.Turn, error) {
	ws, err := r.open(ctx, cwd)
	if err != nil {
		return nil, ledger.Turn{}, err
	}
	if strings.HasPrefix(turnID, scopePrefix) {
		t, err := ws.scopeTurn(ctx, turnID)
		return ws, t, err
	}
	turns, err := ws.store.Turns()
	if err != nil {
		return nil, ledger.Turn{}, err
	}
	i := slices.IndexFunc(turns, func(t ledger.Turn) bool { return t.ID == turnID })
	if i < 0 {
		return nil, ledger.Turn{}, fmt.Errorf("%w: %s", ledger.ErrNoTurn, turnID)
	}
	if turns[i].After == "" {
		return nil, ledger.Turn{}, fmt.Errorf("changes: that turn is still running; its changes show once it ends")
	}
	return ws, turns[i], nil
}

func oldPath(f File) string {
	if f.OldPath != "" {
		return f.OldPath
	}
	return f.Path
}

// read is a file's version in a snapshot.
func read(ctx context.Context, s *ledger.Store, t ledger.Tree, path string) (ledger.Version, error) {
	data, err := s.Read(ctx, t, path)
	if errors.Is(err, ledger.ErrNotExist) {
		return ledger.Version{}, nil
	}
	if err != nil {
		return ledger.Version{}, err
	}
	return ledger.Version{Content: data, Exists: true}, nil
}
