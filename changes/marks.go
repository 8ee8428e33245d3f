package changes

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/claude-nvim/claude.nvim/ledger"
)

// markTurns: signs come from the newest turns only; older hunks' lines have moved since.
const markTurns = 20

// Mark is one stretch of lines Claude changed that the user has not reviewed or reverted,
// in the file as Claude left it.
type Mark struct {
	Start int    `msgpack:"start"` // 1-based; for a deletion, the line after which lines went
	Count int    `msgpack:"count"` // 0 for a deletion
	Kind  string `msgpack:"kind"`  // "add", "change" or "delete"
}

// Marks are a workspace's unreviewed lines, by absolute path.
type Marks struct {
	Root  string            `msgpack:"root"`
	Files map[string][]Mark `msgpack:"files"`
	Count int               `msgpack:"count"` // hunks in all
}

// Marks lists the unreviewed hunks of the newest turns; each file's from the newest turn
// that changed it (its lines are where that turn left them).
func (r *Recorder) Marks(ctx context.Context, root string) (Marks, error) {
	m := Marks{Root: root, Files: map[string][]Mark{}}
	ws, err := r.open(ctx, root)
	if err != nil {
		return m, err
	}
	turns, err := ws.store.Turns()
	if err != nil {
		return m, err
	}
	seen := map[string]bool{}
	for i := len(turns) - 1; i >= 0 && i >= len(turns)-markTurns; i-- {
		t := turns[i]
		files, err := ws.files(ctx, t)
		if err != nil {
			return m, err
		}
		for _, f := range files {
			if seen[f.Path] || f.Binary || f.Status == "D" {
				continue
			}
			seen[f.Path] = true
			hunks, err := ws.hunks(ctx, t, f)
			if err != nil {
				return m, err
			}
			abs := filepath.Join(ws.store.Root(), filepath.FromSlash(f.Path))
			for _, h := range hunks {
				if h.Reviewed {
					continue
				}
				mark := Mark{Start: h.NewStart, Count: h.NewCount, Kind: "change"}
				switch {
				case h.OldCount == 0:
					mark.Kind = "add"
				case h.NewCount == 0:
					mark.Kind = "delete"
				}
				m.Files[abs] = append(m.Files[abs], mark)
				m.Count++
			}
		}
	}
	return m, nil
}

// Clear forgets the ledger of cwd's workspace: every turn, its snapshots, the notes and
// what was reviewed.
func (r *Recorder) Clear(ctx context.Context, cwd string) (string, error) {
	ws, err := r.open(ctx, cwd)
	if err != nil {
		return "", err
	}
	if err := ws.store.Forget(ctx, ledger.Limits{}); err != nil {
		return "", err
	}
	ws.mu.Lock()
	ws.notes, ws.reviewed, ws.reverted, ws.summaries, ws.hunkCache = nil, map[string]bool{}, map[string]bool{}, map[string][]File{}, map[string]map[string][]ledger.Hunk{}
	err = ws.saveNotes()
	ws.mu.Unlock()
	if err != nil {
		return "", err
	}
	r.changed(ws)
	return ws.store.Root(), nil
}

// Health is what :checkhealth says of a workspace's ledger.
type Health struct {
	Dir        string `msgpack:"dir"`   // the ledger's directory ("" before Configure)
	Root       string `msgpack:"root"`  // the workspace root the ledger covers
	Store      string `msgpack:"store"` // its private repository
	Repository bool   `msgpack:"repository"`
	Turns      int    `msgpack:"turns"`
	Bytes      int64  `msgpack:"bytes"`
	Error      string `msgpack:"error,omitempty"` // why nothing is recorded
	// Trouble: why the last turn could not be recorded, until one is again.
	Trouble string `msgpack:"trouble,omitempty"`
}

// Health reports on cwd's ledger.
func (r *Recorder) Health(ctx context.Context, cwd string) Health {
	h := Health{Dir: r.Dir(), Trouble: r.TroubleOf(cwd)}
	ws, err := r.open(ctx, cwd)
	if err != nil {
		h.Error = err.Error()
		return h
	}
	h.Root, h.Store, h.Repository = ws.store.Root(), ws.store.Dir(), ws.store.Repository()
	turns, err := ws.store.Turns()
	if err != nil {
		h.Error = err.Error()
	}
	h.Turns = len(turns)
	_ = filepath.WalkDir(h.Store, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(path, ".lock") {
			if info, err := d.Info(); err == nil {
				h.Bytes += info.Size()
			}
		}
		return nil
	})
	return h
}
