package changes

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/claude-nvim/claude.nvim/ledger"
)

// reviewedName is the file, in the store's private directory, that keeps which hunks the user
// marked reviewed or reverted, so that their signs stay gone after Neovim restarts.
const reviewedName = "reviewed.json"

// reviewMarks is reviewedName's content: the hunks marked reviewed and, apart, those (and
// the files, by fileKey) taken back, which the list shows as reverted. An older file is a
// plain array of reviewed keys.
type reviewMarks struct {
	Reviewed []string `json:"reviewed"`
	Reverted []string `json:"reverted,omitempty"`
}

// loadReviewed reads the marks of the turns still kept (a forgotten turn's are dropped).
func (ws *workspace) loadReviewed() {
	data, err := os.ReadFile(filepath.Join(ws.store.Dir(), reviewedName))
	if err != nil {
		return
	}
	var marks reviewMarks
	if json.Unmarshal(data, &marks) != nil && json.Unmarshal(data, &marks.Reviewed) != nil {
		return // a damaged file costs only the marks: the signs come back
	}
	turns, _ := ws.store.Turns()
	kept := map[string]bool{}
	for _, t := range turns {
		kept[t.ID] = true
	}
	ws.mu.Lock()
	defer ws.mu.Unlock()
	for _, k := range marks.Reviewed {
		if id, _, ok := strings.Cut(k, ":"); ok && kept[id] {
			ws.reviewed[k] = true
		}
	}
	for _, k := range marks.Reverted {
		if id, _, ok := strings.Cut(k, ":"); ok && kept[id] {
			ws.reverted[k] = true
		}
	}
}

// saveReviewed writes the marks, renaming a complete file in.
func (ws *workspace) saveReviewed() error {
	ws.mu.Lock()
	marks := reviewMarks{Reviewed: slices.Sorted(maps.Keys(ws.reviewed)), Reverted: slices.Sorted(maps.Keys(ws.reverted))}
	ws.mu.Unlock()
	data, err := json.Marshal(marks)
	if err != nil {
		return err
	}
	return ws.store.WriteFile(reviewedName, data)
}

// fileKey names a file of a turn in the reverted marks (a hunk's key has more after it).
func fileKey(turn, path string) string { return turn + ":" + path }

// revertedCounts says how much of a turn's file was taken back: the whole file, or how many
// of its hunks.
func (ws *workspace) revertedCounts(t ledger.Turn, f File, hunks []Hunk) (whole bool, n int) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if ws.reverted[fileKey(t.ID, f.Path)] {
		return true, len(hunks)
	}
	for _, h := range hunks {
		if ws.reverted[h.Key] {
			n++
		}
	}
	return n == len(hunks) && n > 0, n
}

// Restore shows what an earlier Neovim recorded for cwd's workspace (its signs), if it has a
// ledger; it creates none.
func (r *Recorder) Restore(ctx context.Context, cwd string) {
	dir := r.Dir()
	if dir == "" || cwd == "" || !ledger.Exists(ctx, dir, cwd) {
		return
	}
	ws, err := r.workspace(ctx, cwd)
	if err != nil {
		r.log.Warn("changes: restore", "cwd", cwd, "err", err)
		return
	}
	r.changed(ws)
}
