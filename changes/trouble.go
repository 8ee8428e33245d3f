package changes

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/claude-nvim/claude.nvim/hooks"
	"github.com/claude-nvim/claude.nvim/ledger"
)

// The ledger never stops recording without the user knowing (issue 35): each failure to
// record a turn is kept per workspace and told once per reason (Trouble: a notification),
// and shown by :ClaudeChanges, the statusline and :checkhealth until a turn is recorded
// there again.

// boundTimeout: the most a store's trimming to its size limit may take, in the background.
const boundTimeout = 5 * time.Minute

// folder is the workspace folder of e's session that holds e's cwd (the deepest, if they
// nest), or e's cwd when the session's folders are not known.
func (r *Recorder) folder(e hooks.Event) (string, error) {
	if r.Folders == nil {
		return e.Cwd, nil
	}
	folders := r.Folders(e.Origin)
	if len(folders) == 0 {
		return e.Cwd, nil
	}
	best := ""
	for _, f := range folders {
		if (within(f, e.Cwd) || withinResolved(f, e.Cwd)) && len(f) > len(best) {
			best = f
		}
	}
	if best == "" {
		return folders[0], fmt.Errorf("the CLI's working directory %q is outside its session's workspace (%s): its turn is not recorded", e.Cwd, strings.Join(folders, ", "))
	}
	return best, nil
}

// within says whether path is dir or inside it.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// withinResolved is within with links resolved: the CLI may name its cwd by its real path
// (macOS's /tmp is /private/tmp) where the editor names the folder through a link.
func withinResolved(dir, path string) bool {
	d, err1 := filepath.EvalSymlinks(dir)
	p, err2 := filepath.EvalSymlinks(path)
	return err1 == nil && err2 == nil && within(d, p)
}

// trouble keeps why where could not be recorded, and tells the user when the reason is new.
func (r *Recorder) trouble(where string, err error) {
	reason := err.Error()
	r.mu.Lock()
	known := r.troubles[where] == reason
	r.troubles[where] = reason
	r.mu.Unlock()
	r.log.Warn("changes: not recorded", "workspace", where, "err", err)
	if f := r.Trouble; f != nil && !known {
		go f(where, reason)
	}
}

// recorded ends root's trouble, a turn was recorded there, and tells the user so (Trouble
// with no reason) when there was one.
func (r *Recorder) recorded(root string) {
	r.mu.Lock()
	_, had := r.troubles[root]
	delete(r.troubles, root)
	r.mu.Unlock()
	if f := r.Trouble; f != nil && had {
		go f(root, "")
	}
}

// TroubleOf is why the ledger of the workspace holding dir last failed to record, or "".
func (r *Recorder) TroubleOf(dir string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	best, reason := "", ""
	for where, why := range r.troubles {
		if (within(where, dir) || within(dir, where)) && len(where) > len(best) {
			best, reason = where, why
		}
	}
	return reason
}

// bound trims ws's store to its size limit in the background when a turn made it larger:
// the oldest turns go first, and nobody waits for it.
func (r *Recorder) bound(ws *workspace) {
	r.mu.Lock()
	limits := r.opts.Limits
	r.mu.Unlock()
	if limits.StoreSize <= 0 || ws.store.Size() <= limits.StoreSize {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), boundTimeout)
		defer cancel()
		ws.mu.Lock()
		defer ws.mu.Unlock()
		if err := ws.store.Forget(ctx, limits); err != nil {
			r.log.Warn("changes: bounding the ledger", "root", ws.store.Root(), "err", err)
		}
	}()
}

// largeFiles replaces, in a turn's file list, the entries of files a snapshot left out for
// their size with one entry each that says so: what changed in them is not known.
func largeFiles(t ledger.Turn, files []File) []File {
	if len(t.LargeBefore) == 0 && len(t.LargeAfter) == 0 {
		return files
	}
	changed := map[string]string{} // path → status
	for path, sig := range t.LargeAfter {
		if before, ok := t.LargeBefore[path]; !ok || before != sig {
			changed[path] = "M"
		}
	}
	for path := range t.LargeBefore {
		if _, ok := t.LargeAfter[path]; !ok {
			changed[path] = "M"
		}
	}
	out := files[:0:0]
	seen := map[string]bool{}
	for _, f := range files {
		if status, ok := changed[f.Path]; ok || t.LargeBefore[f.Path] != "" || t.LargeAfter[f.Path] != "" {
			if !ok {
				status = "M"
			}
			// The snapshot that left it out says nothing of its content: never a revert.
			out = append(out, File{Path: f.Path, Status: status, TooLarge: true})
			seen[f.Path] = true
			continue
		}
		out = append(out, f)
	}
	for path := range changed {
		if seen[path] {
			continue
		}
		// Not in the diff: it was in neither snapshot's tree.
		_, before := t.LargeBefore[path]
		_, after := t.LargeAfter[path]
		status := "M"
		switch {
		case after && !before:
			status = "A"
		case before && !after:
			status = "D"
		}
		out = append(out, File{Path: path, Status: status, TooLarge: true})
	}
	slices.SortFunc(out, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return out
}
