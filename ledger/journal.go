package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/google/uuid"
)

// Turn is one prompt's worth of Claude's work: the workspace before it and after it.
type Turn struct {
	ID      string    `json:"id"`
	Session string    `json:"session,omitempty"` // the CLI's session id
	Source  string    `json:"source,omitempty"`  // "terminal" or "chat"
	Prompt  string    `json:"prompt,omitempty"`  // the first promptLimit bytes
	Started time.Time `json:"started"`
	Ended   time.Time `json:"ended,omitzero"` // zero while the turn runs
	Before  Tree      `json:"before"`
	After   Tree      `json:"after,omitempty"`
	// Files are the files followed outside git (SnapshotFiles): those the tools named.
	Files []string `json:"files,omitempty"`
	// LargeBefore and LargeAfter: the files each snapshot left out for their size.
	LargeBefore Large `json:"large_before,omitempty"`
	LargeAfter  Large `json:"large_after,omitempty"`
}

// Limits bound what a store keeps: the newest Turns turns, none older than Age, and its
// objects within StoreSize bytes (the oldest turns go first); no file over FileSize bytes is
// recorded.
type Limits struct {
	Turns     int
	Age       time.Duration
	FileSize  int64
	StoreSize int64
}

// DefaultLimits: a working week of busy days, at most a month old; files of up to 10 MiB
// (source, data, lock files; not media or build output) and 2 GiB in all.
var DefaultLimits = Limits{Turns: 500, Age: 30 * 24 * time.Hour, FileSize: 10 << 20, StoreSize: 2 << 30}

// promptLimit: the prompt is kept to name the turn in a list, not to replay it.
const promptLimit = 1 << 10

// journalName is the turns' file in the store's directory.
const journalName = "turns.json"

// ErrNoTurn: no turn has that id (it ended long ago and was forgotten, or never began).
var ErrNoTurn = errors.New("ledger: no such turn")

// Begin records a turn's start: a snapshot now (of the work tree, or of files for a workspace
// outside git) and the turn in the journal. The snapshot is kept under refs/ledger/<id>, so
// that it outlives git's pruning until the turn is forgotten.
func (s *Store) Begin(ctx context.Context, t Turn) (Turn, error) {
	unlock, err := s.lock(ctx)
	if err != nil {
		return Turn{}, err
	}
	defer unlock()
	if t.ID == "" {
		t.ID = uuid.NewString()
	}
	if len(t.Prompt) > promptLimit {
		t.Prompt = t.Prompt[:promptLimit]
	}
	if t.Started.IsZero() {
		t.Started = time.Now()
	}
	if s.repo {
		t.Before, t.LargeBefore, err = s.snapshot(ctx)
	} else {
		t.Before, t.LargeBefore, err = s.snapshotFiles(ctx, s.empty, t.Files)
	}
	if err != nil {
		return Turn{}, err
	}
	if err := s.keep(ctx, t.ID, "before", t.Before); err != nil {
		return Turn{}, err
	}
	turns, err := s.readJournal()
	if err != nil {
		return Turn{}, err
	}
	return t, s.writeJournal(append(turns, t))
}

// Follow adds files to a running turn outside git: their content now becomes part of its
// "before" (a tool is about to change them). Files it already follows keep their first
// content. In a git work tree it does nothing: the whole tree is followed.
func (s *Store) Follow(ctx context.Context, id string, files []string) error {
	unlock, err := s.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	if s.repo {
		return nil
	}
	turns, err := s.readJournal()
	if err != nil {
		return err
	}
	i := indexOf(turns, id)
	if i < 0 {
		return fmt.Errorf("%w: %s", ErrNoTurn, id)
	}
	var fresh []string
	for _, f := range files {
		rel, err := s.relative(f)
		if err != nil {
			return err
		}
		if !contains(turns[i].Files, rel) {
			fresh = append(fresh, rel)
		}
	}
	if len(fresh) == 0 {
		return nil
	}
	before, large, err := s.snapshotFiles(ctx, turns[i].Before, fresh)
	if err != nil {
		return err
	}
	for path, sig := range large {
		if turns[i].LargeBefore == nil {
			turns[i].LargeBefore = Large{}
		}
		turns[i].LargeBefore[path] = sig
	}
	turns[i].Before, turns[i].Files = before, append(turns[i].Files, fresh...)
	if err := s.keep(ctx, id, "before", before); err != nil {
		return err
	}
	return s.writeJournal(turns)
}

// End records a turn's end: a snapshot now. Ending a turn twice takes a new snapshot (a
// resumed turn's end).
func (s *Store) End(ctx context.Context, id string) (Turn, error) {
	unlock, err := s.lock(ctx)
	if err != nil {
		return Turn{}, err
	}
	defer unlock()
	turns, err := s.readJournal()
	if err != nil {
		return Turn{}, err
	}
	i := indexOf(turns, id)
	if i < 0 {
		return Turn{}, fmt.Errorf("%w: %s", ErrNoTurn, id)
	}
	t := &turns[i]
	if s.repo {
		t.After, t.LargeAfter, err = s.snapshot(ctx)
	} else {
		t.After, t.LargeAfter, err = s.snapshotFiles(ctx, t.Before, t.Files)
	}
	if err != nil {
		return Turn{}, err
	}
	t.Ended = time.Now()
	if err := s.keep(ctx, id, "after", t.After); err != nil {
		return Turn{}, err
	}
	return *t, s.writeJournal(turns)
}

// Turns lists the recorded turns, oldest first.
func (s *Store) Turns() ([]Turn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.readJournal()
}

// Forget drops the turns beyond limits (the oldest first) and then the snapshots only they
// kept; with a zero Limits it drops every turn (:Claude changes clear). Over StoreSize, the
// oldest turns go a quarter at a time until the store fits, the newest turn always kept.
func (s *Store) Forget(ctx context.Context, limits Limits) error {
	unlock, err := s.lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	if limits.Turns == 0 && limits.Age == 0 {
		return s.clear(ctx)
	}
	turns, err := s.readJournal()
	if err != nil {
		return err
	}
	sort.SliceStable(turns, func(i, j int) bool { return turns[i].Started.Before(turns[j].Started) })
	var kept, dropped []Turn
	cutoff := time.Now().Add(-limits.Age)
	for i, t := range turns {
		if limits.Turns > 0 && len(turns)-i <= limits.Turns && t.Started.After(cutoff) {
			kept = append(kept, t)
		} else {
			dropped = append(dropped, t)
		}
	}
	if len(dropped) > 0 {
		if err := s.drop(ctx, kept, dropped); err != nil {
			return err
		}
	}
	for limits.StoreSize > 0 && len(kept) > 1 && s.size() > limits.StoreSize {
		n := max(1, len(kept)/4)
		if err := s.drop(ctx, kept[n:], kept[:n]); err != nil {
			return err
		}
		kept = kept[n:]
	}
	return nil
}

// drop forgets the turns dropped, keeping those kept, and prunes what only they held. The
// user's objects (alternates) are never touched.
func (s *Store) drop(ctx context.Context, kept, dropped []Turn) error {
	for _, t := range dropped {
		for _, side := range []string{"before", "after"} {
			if _, err := s.git.run(ctx, nil, "update-ref", "-d", "refs/ledger/"+t.ID+"/"+side); err != nil {
				return fmt.Errorf("ledger: forget: %w", err)
			}
		}
	}
	if err := s.writeJournal(kept); err != nil {
		return err
	}
	if _, err := s.git.run(ctx, nil, "gc", "--quiet", "--prune=now"); err != nil {
		return fmt.Errorf("ledger: forget: %w", err)
	}
	return nil
}

// Size is how many bytes the store's own objects take (the user's, which it reads through
// alternates, not counted).
func (s *Store) Size() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.size()
}

func (s *Store) size() int64 {
	var total int64
	_ = filepath.WalkDir(filepath.Join(s.git.gitDir, "objects"), func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				total += info.Size()
			}
		}
		return nil
	})
	return total
}

// clear forgets every turn, also when the journal cannot be read.
func (s *Store) clear(ctx context.Context) error {
	refs, err := s.git.run(ctx, nil, "for-each-ref", "--format=delete %(refname)", "refs/ledger/")
	if err != nil {
		return fmt.Errorf("ledger: clear: %w", err)
	}
	if _, err := s.git.run(ctx, refs, "update-ref", "--stdin"); err != nil {
		return fmt.Errorf("ledger: clear: %w", err)
	}
	if err := os.Remove(filepath.Join(s.git.gitDir, journalName)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("ledger: clear: %w", err)
	}
	if _, err := s.git.run(ctx, nil, "gc", "--quiet", "--prune=now"); err != nil {
		return fmt.Errorf("ledger: clear: %w", err)
	}
	return nil
}

// keep points refs/ledger/<id>/<side> at tree, so gc keeps it while the turn is remembered.
func (s *Store) keep(ctx context.Context, id, side string, tree Tree) error {
	if _, err := s.git.run(ctx, nil, "update-ref", "refs/ledger/"+id+"/"+side, string(tree)); err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	return nil
}

func (s *Store) readJournal() ([]Turn, error) {
	data, err := os.ReadFile(filepath.Join(s.git.gitDir, journalName))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	var turns []Turn
	if err := json.Unmarshal(data, &turns); err != nil {
		return nil, fmt.Errorf("ledger: %s is damaged (%v); :Claude changes clear starts a new one", journalName, err)
	}
	return turns, nil
}

// writeJournal replaces the journal (WriteFile).
func (s *Store) writeJournal(turns []Turn) error {
	data, err := json.Marshal(turns)
	if err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	return s.WriteFile(journalName, data)
}

// WriteFile replaces the file name of the store's private directory (Dir) with data, mode
// 0600, by renaming a complete new one in: a crash leaves the old one or the new one, never
// half of either.
func (s *Store) WriteFile(name string, data []byte) error {
	tmp, err := os.CreateTemp(s.git.gitDir, name+".*")
	if err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("ledger: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(s.git.gitDir, name)); err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	return nil
}

func indexOf(turns []Turn, id string) int {
	for i, t := range turns {
		if t.ID == id {
			return i
		}
	}
	return -1
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
