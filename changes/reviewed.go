package changes

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/claude-nvim/claude.nvim/ledger"
)

// reviewedName is the file, in the store's private directory, that keeps which hunks the user
// marked reviewed or reverted, so that their signs stay gone after Neovim restarts.
const reviewedName = "reviewed.json"

// loadReviewed reads the marks of the turns still kept (a forgotten turn's are dropped).
func (ws *workspace) loadReviewed() {
	data, err := os.ReadFile(filepath.Join(ws.store.Dir(), reviewedName))
	if err != nil {
		return
	}
	var keys []string
	if json.Unmarshal(data, &keys) != nil {
		return // a damaged file costs only the marks: the signs come back
	}
	turns, _ := ws.store.Turns()
	kept := map[string]bool{}
	for _, t := range turns {
		kept[t.ID] = true
	}
	ws.mu.Lock()
	defer ws.mu.Unlock()
	for _, k := range keys {
		if id, _, ok := strings.Cut(k, ":"); ok && kept[id] {
			ws.reviewed[k] = true
		}
	}
}

// saveReviewed writes the marks, renaming a complete file in.
func (ws *workspace) saveReviewed() error {
	ws.mu.Lock()
	keys := make([]string, 0, len(ws.reviewed))
	for k := range ws.reviewed {
		keys = append(keys, k)
	}
	ws.mu.Unlock()
	data, err := json.Marshal(keys)
	if err != nil {
		return err
	}
	return ws.store.WriteFile(reviewedName, data)
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
