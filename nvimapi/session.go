package nvimapi

import (
	"context"
	"slices"

	"github.com/claude-nvim/claude.nvim/mcp"
)

// SessionEditor is the editor as one session's CLI sees it: several CLIs
// (sessions, each with its own server) share one Neovim, and each must see
// only its own proposals and its own folder. Everything else is the
// Editor's.
type SessionEditor struct {
	*Editor
	session int
	// folders, when set, answers getWorkspaceFolders: a session bound to
	// one directory (a second worktree, say) reports that one. Unset, the
	// session follows Neovim's working directories, less the directories
	// other sessions are bound to (elsewhere: their folders).
	folders   []string
	elsewhere func() []string
}

var _ mcp.Editor = (*SessionEditor)(nil)

// Session returns the editor for session id (> 0); folders and elsewhere
// as in SessionEditor (elsewhere may be nil).
func (e *Editor) Session(id int, folders []string, elsewhere func() []string) *SessionEditor {
	return &SessionEditor{Editor: e, session: id, folders: folders, elsewhere: elsewhere}
}

// OpenDiff opens the proposal as this session's: in its tab page, closed
// by its closeAllDiffTabs only.
func (s *SessionEditor) OpenDiff(ctx context.Context, req mcp.DiffRequest) (mcp.DiffResult, error) {
	return s.openDiff(ctx, s.session, req)
}

// CloseDiff closes this session's proposal of tabName.
func (s *SessionEditor) CloseDiff(ctx context.Context, tabName string) (bool, error) {
	return s.closeDiff(ctx, s.session, tabName)
}

// CloseAllDiffs closes this session's proposals, no other's.
func (s *SessionEditor) CloseAllDiffs(ctx context.Context) (int, error) {
	return s.closeAllDiffs(ctx, s.session)
}

// WorkspaceFolders answers the session's own folders when it has them.
func (s *SessionEditor) WorkspaceFolders(ctx context.Context) ([]string, error) {
	if len(s.folders) > 0 {
		return append([]string(nil), s.folders...), nil
	}
	all, err := s.Editor.WorkspaceFolders(ctx)
	if err != nil || s.elsewhere == nil {
		return all, err
	}
	return WithoutFolders(all, s.elsewhere()), nil
}

// WithoutFolders returns folders less those in other (which belong to
// other sessions), keeping at least one: a session always has a folder.
func WithoutFolders(folders, other []string) []string {
	var kept []string
	for _, f := range folders {
		if !slices.Contains(other, f) {
			kept = append(kept, f)
		}
	}
	if len(kept) == 0 && len(folders) > 0 {
		return folders[:1]
	}
	return kept
}
