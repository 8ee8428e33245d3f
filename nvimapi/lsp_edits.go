package nvimapi

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/claude-nvim/claude.nvim/mcp"
)

// A rename's review: its files open in the diff view one after the other
// (two views at once would take two tab pages), each decided as any
// proposal (accepted whole, or with hunks taken back). Nothing is written
// until the last is accepted: then lua/claude/lsp/apply.lua writes what
// was accepted of each. A rejected file ends the review and nothing is
// written. The proposals belong to no session, like the chat's.

// finishEditsTimeout bounds writing the accepted files.
const finishEditsTimeout = 30 * time.Second

// ProposeEdits opens the first file's review and returns; the rest of the
// review runs on its own (see mcp.LanguageServers).
func (e *Editor) ProposeEdits(ctx context.Context, title string, changes []mcp.FileChange) error {
	if len(changes) == 0 {
		return nil
	}
	tab := func(i int) string {
		return fmt.Sprintf("%s (%d/%d): %s", title, i+1, len(changes), filepath.Base(changes[i].Path))
	}
	first, err := e.showDiff(ctx, 0, proposalOf(changes[0], tab(0)))
	if err != nil {
		return err
	}
	go e.reviewEdits(first, title, changes, tab)
	return nil
}

func proposalOf(c mcp.FileChange, tab string) mcp.DiffRequest {
	return mcp.DiffRequest{OldPath: c.Path, NewPath: c.Path, NewContents: c.NewText, TabName: tab}
}

// reviewEdits waits for each file's decision, opening the next after it,
// then has the accepted texts written (or says why none was).
func (e *Editor) reviewEdits(first *shownDiff, title string, changes []mcp.FileChange, tab func(int) string) {
	ctx := context.Background() // the user takes the time they take
	files := make([]map[string]any, len(changes))
	why := ""
	for i, c := range changes {
		d := first
		if i > 0 {
			var err error
			if d, err = e.showDiff(ctx, 0, proposalOf(c, tab(i))); err != nil {
				why = fmt.Sprintf("%s could not be shown: %v", filepath.Base(c.Path), err)
				break
			}
		}
		r, err := e.waitDiff(ctx, d)
		if err != nil || r.Outcome != mcp.DiffAccepted {
			why = filepath.Base(c.Path) + " was rejected"
			break
		}
		files[i] = map[string]any{"path": c.Path, "old": c.OldText, "new": r.FinalText}
	}
	var whyArg any // nil reaches Lua as nil
	if why != "" {
		whyArg, files = why, nil
	}
	wctx, cancel := context.WithTimeout(ctx, finishEditsTimeout)
	defer cancel()
	_ = e.lua(wctx, nil, `return require('claude.handlers').finish_edits(...)`, title, files, whyArg)
}
