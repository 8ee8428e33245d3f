package nvimapi

import (
	"context"

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
	// session follows Neovim's working directories.
	folders []string
}

var _ mcp.Editor = (*SessionEditor)(nil)

// Session returns the editor for session id (> 0); folders as in
// SessionEditor.
func (e *Editor) Session(id int, folders []string) *SessionEditor {
	return &SessionEditor{Editor: e, session: id, folders: folders}
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
	return s.Editor.WorkspaceFolders(ctx)
}
