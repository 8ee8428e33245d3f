package changes

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/claude-nvim/claude.nvim/ledger"
)

// Reverted is what a revert changed on disk, for the editor to reload.
type Reverted struct {
	Root  string   `msgpack:"root"`
	Paths []string `msgpack:"paths"` // absolute
	What  string   `msgpack:"what"`  // one line for the user
}

// ErrNoHunk: the key names no hunk of that file (the list is older than the ledger).
var ErrNoHunk = errors.New("changes: no such hunk (reopen :Claude changes)")

// Review marks a hunk reviewed (or not): its sign goes.
func (r *Recorder) Review(ctx context.Context, cwd, turnID, path, key string, reviewed bool) error {
	ws, t, f, err := r.find(ctx, cwd, turnID, path)
	if err != nil {
		return err
	}
	hunks, err := ws.hunks(ctx, t, f)
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(hunks, func(h Hunk) bool { return h.Key == key }) {
		return ErrNoHunk
	}
	ws.mu.Lock()
	if reviewed {
		ws.reviewed[key] = true
	} else {
		delete(ws.reviewed, key)
	}
	ws.mu.Unlock()
	r.changed(ws)
	return nil
}

// RevertHunk takes one hunk of a turn back on disk, keeping the user's later edits (or
// refusing with ledger.ErrConflict, changing nothing).
func (r *Recorder) RevertHunk(ctx context.Context, cwd, turnID, path, key string, why ...string) (Reverted, error) {
	ws, t, f, err := r.find(ctx, cwd, turnID, path)
	if err != nil {
		return Reverted{}, err
	}
	if f.TooLarge {
		return Reverted{}, fmt.Errorf("%s: %w", f.Path, ledger.ErrTooLarge)
	}
	if f.Binary {
		return Reverted{}, fmt.Errorf("%s: %w", f.Path, ledger.ErrBinary)
	}
	hunks, err := ws.hunks(ctx, t, f)
	if err != nil {
		return Reverted{}, err
	}
	i := slices.IndexFunc(hunks, func(h Hunk) bool { return h.Key == key })
	if i < 0 {
		return Reverted{}, ErrNoHunk
	}
	h := hunks[i]
	before, after, current, err := ws.versions(ctx, t, f)
	if err != nil {
		return Reverted{}, err
	}
	rev, err := ws.store.RevertHunk(ctx, before, after, current, ledger.Hunk{OldStart: h.OldStart, OldCount: h.OldCount, NewStart: h.NewStart, NewCount: h.NewCount})
	if err != nil {
		return Reverted{}, fmt.Errorf("%s: %w", f.Path, err)
	}
	if err := ws.store.WriteDisk(f.Path, rev); err != nil {
		return Reverted{}, err
	}
	abs := filepath.Join(ws.store.Root(), filepath.FromSlash(f.Path))
	what := fmt.Sprintf("%s %s", quoted(f.Path), lines(h))
	ws.mu.Lock()
	ws.reviewed[key] = true // a hunk taken back needs no review: its sign goes
	ws.reverted[key] = true
	ws.mu.Unlock()
	r.note(ws, what+because(why))
	return Reverted{Root: ws.store.Root(), Paths: []string{abs}, What: "reverted " + what}, nil
}

// RevertFile takes a turn's whole change to one file back.
func (r *Recorder) RevertFile(ctx context.Context, cwd, turnID, path string, why ...string) (Reverted, error) {
	ws, t, f, err := r.find(ctx, cwd, turnID, path)
	if err != nil {
		return Reverted{}, err
	}
	plan, err := ws.planFile(ctx, t, f)
	if err != nil {
		return Reverted{}, err
	}
	if err := plan.apply(ws.store); err != nil {
		return Reverted{}, err
	}
	ws.reviewAll(ctx, t, f)
	ws.markReverted(t, f)
	r.note(ws, plan.what+because(why))
	return Reverted{Root: ws.store.Root(), Paths: plan.paths(ws.store.Root()), What: "reverted " + plan.what}, nil
}

// RevertTurn takes every file of a turn back, or none: when one cannot be (the user changed
// the same lines since), nothing is written and the error names it.
func (r *Recorder) RevertTurn(ctx context.Context, cwd, turnID string, why ...string) (Reverted, error) {
	ws, t, err := r.turn(ctx, cwd, turnID)
	if err != nil {
		return Reverted{}, err
	}
	files, err := ws.files(ctx, t)
	if err != nil {
		return Reverted{}, err
	}
	var plans []filePlan
	var refused []error
	for _, f := range files {
		plan, err := ws.planFile(ctx, t, f)
		if err != nil {
			refused = append(refused, err)
			continue
		}
		plans = append(plans, plan)
	}
	if len(refused) > 0 {
		return Reverted{}, turnRefused(refused)
	}
	out := Reverted{Root: ws.store.Root(), Paths: []string{}}
	var whats []string
	for _, plan := range plans {
		if err := plan.apply(ws.store); err != nil {
			return out, err
		}
		out.Paths = append(out.Paths, plan.paths(ws.store.Root())...)
		whats = append(whats, plan.what)
	}
	for _, f := range files {
		ws.reviewAll(ctx, t, f)
		ws.markReverted(t, f)
	}
	r.note(ws, strings.Join(whats, ", ")+because(why))
	out.What = fmt.Sprintf("reverted the turn (%d files)", len(files))
	return out, nil
}

// because is the user's reason for a revert as the note gives it (quoted: it stays on its
// line and inside the note's sentence), or "" without one.
func because(why []string) string {
	reason := strings.TrimSpace(strings.Join(why, " "))
	if reason == "" {
		return ""
	}
	return " (the user's reason: " + strconv.Quote(reason) + ")"
}

// turnRefused says why nothing of a turn was reverted, on one line, keeping each file's
// reason for errors.Is.
type turnRefused []error

func (e turnRefused) Error() string {
	reasons := make([]string, len(e))
	for i, err := range e {
		reasons[i] = err.Error()
	}
	return "changes: nothing was reverted: " + strings.Join(reasons, "; ")
}

func (e turnRefused) Unwrap() []error { return e }

// filePlan is one file's revert, worked out before anything is written. Its paths are
// relative to the root: the store writes them, never through a link (ledger.WriteDisk).
type filePlan struct {
	write  string // where the old content goes ("" for none)
	rev    ledger.Revision
	remove string // a renamed file's new name, removed
	what   string
}

func (p filePlan) apply(store *ledger.Store) error {
	if p.write != "" {
		if err := store.WriteDisk(p.write, p.rev); err != nil {
			return err
		}
	}
	if p.remove != "" {
		if err := store.WriteDisk(p.remove, ledger.Revision{Delete: true}); err != nil {
			return err
		}
	}
	return nil
}

// paths are the files the plan writes, absolute, for the editor to reload.
func (p filePlan) paths(root string) []string {
	var out []string
	for _, path := range []string{p.write, p.remove} {
		if path != "" {
			out = append(out, filepath.Join(root, filepath.FromSlash(path)))
		}
	}
	return out
}

// ErrUserSaved: the user saved the file while the turn ran; its recorded change mixes
// theirs with Claude's, so it is not taken back whole.
var ErrUserSaved = errors.New("you saved it while Claude's turn ran, so the turn's change holds your edits too: revert Claude's hunks one by one in its diff")

func (ws *workspace) planFile(ctx context.Context, t ledger.Turn, f File) (filePlan, error) {
	if f.TooLarge {
		return filePlan{}, fmt.Errorf("%s: %w", f.Path, ledger.ErrTooLarge)
	}
	if f.UserSaved {
		return filePlan{}, fmt.Errorf("%s: %w", f.Path, ErrUserSaved)
	}
	before, after, current, err := ws.versions(ctx, t, f)
	if err != nil {
		return filePlan{}, err
	}
	if f.OldPath != "" {
		// A rename goes back whole: the old name gets the old text, the new name goes,
		// and only while the file is as Claude left it and nothing took the old name.
		if _, err := ws.store.LstatDisk(f.OldPath); !errors.Is(err, os.ErrNotExist) || !current.Exists || string(current.Content) != string(after.Content) {
			return filePlan{}, fmt.Errorf("%s (renamed from %s): %w", f.Path, f.OldPath, ledger.ErrConflict)
		}
		return filePlan{write: f.OldPath, rev: ledger.Revision{Content: before.Content}, remove: f.Path, what: fmt.Sprintf("the rename of %s to %s", quoted(f.OldPath), quoted(f.Path))}, nil
	}
	rev, err := ws.store.RevertFile(ctx, before, after, current)
	if err != nil {
		return filePlan{}, fmt.Errorf("%s: %w", f.Path, err)
	}
	what := "all changes to " + quoted(f.Path)
	switch {
	case !before.Exists:
		what = "the new file " + quoted(f.Path)
	case !after.Exists:
		what = "the deletion of " + quoted(f.Path)
	}
	return filePlan{write: f.Path, rev: rev, what: what}, nil
}

// versions are a file's before and after (the turn's snapshots) and current (disk).
func (ws *workspace) versions(ctx context.Context, t ledger.Turn, f File) (before, after, current ledger.Version, err error) {
	if before, err = read(ctx, ws.store, t.Before, oldPath(f)); err != nil {
		return
	}
	if after, err = read(ctx, ws.store, t.After, f.Path); err != nil {
		return
	}
	current, err = ws.store.ReadDisk(f.Path)
	return
}

// markReverted notes that a turn's file was taken back whole.
func (ws *workspace) markReverted(t ledger.Turn, f File) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	ws.reverted[fileKey(t.ID, f.Path)] = true
}

func (ws *workspace) reviewAll(ctx context.Context, t ledger.Turn, f File) {
	hunks, err := ws.hunks(ctx, t, f)
	if err != nil {
		return
	}
	ws.mu.Lock()
	defer ws.mu.Unlock()
	for _, h := range hunks {
		ws.reviewed[h.Key] = true
	}
}

// lines names a hunk's lines in the before text, as the user and the model read it.
func lines(h Hunk) string {
	switch {
	case h.OldCount == 0:
		return fmt.Sprintf("(the %d lines added after line %d)", h.NewCount, h.OldStart)
	case h.OldCount == 1:
		return fmt.Sprintf("line %d", h.OldStart)
	default:
		return fmt.Sprintf("lines %d-%d", h.OldStart, h.OldStart+h.OldCount-1)
	}
}
