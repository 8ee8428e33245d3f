package nvimapi

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync/atomic"

	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/claude-nvim/claude.nvim/workspace"
)

// The variant protocol's direct methods (mcp.Workspace) for one session: its workspace
// folders are the session's (WorkspaceFolders), its proposals open as its own. The file
// system rules are the workspace package's; what only Neovim knows (unsaved text, the open
// buffers, the diff review) is asked here.

var _ mcp.Workspace = (*SessionEditor)(nil)

// refused turns what the workspace package refuses into a -32602 answer; other errors
// (a missing file, git or Neovim failing) stay failures.
func refused(err error) error {
	for _, r := range []error{workspace.ErrOutside, workspace.ErrNotRegular, workspace.ErrTooLarge, workspace.ErrBadPath} {
		if errors.Is(err, r) {
			return fmt.Errorf("%w: %w", mcp.ErrInvalidParams, err)
		}
	}
	return err
}

// target resolves a client's path in the session's folders, and checks it is a regular
// file or none, reached without a link out of them.
func (s *SessionEditor) target(ctx context.Context, path string) (workspace.Target, bool, error) {
	folders, err := s.WorkspaceFolders(ctx)
	if err != nil {
		return workspace.Target{}, false, err
	}
	t, err := workspace.Resolve(folders, path)
	if err != nil {
		return workspace.Target{}, false, refused(err)
	}
	exists, err := workspace.Check(t)
	if err != nil {
		return workspace.Target{}, false, refused(err)
	}
	return t, exists, nil
}

// ReadFile answers the buffer's unsaved text, else the file on disk. The path is checked
// before any buffer is looked up: Neovim finds buffers through links, and a buffer of a
// file a link out of the workspace leads to must not be read.
func (s *SessionEditor) ReadFile(ctx context.Context, path string) (string, error) {
	t, _, err := s.target(ctx, path)
	if err != nil {
		return "", err
	}
	var unsaved *struct {
		Text string `msgpack:"text"`
		Over bool   `msgpack:"over"`
	}
	if err := s.lua(ctx, &unsaved, `return require('claude.handlers').read_unsaved_text(...)`, t.Abs, workspace.MaxFileSize); err != nil {
		return "", luaError(err)
	}
	if unsaved != nil {
		if unsaved.Over {
			return "", refused(fmt.Errorf("%s: its unsaved text is %w", t.Abs, workspace.ErrTooLarge))
		}
		return unsaved.Text, nil
	}
	data, err := workspace.Read(t, 0)
	if err != nil {
		return "", refused(err)
	}
	return string(data), nil
}

// writeFiles numbers writeFile's proposals: their tab names must be unique.
var writeFiles atomic.Int64

// WriteFile opens the proposal in the diff review, as openDiff does, and answers the
// user's decision. The file is never written here.
func (s *SessionEditor) WriteFile(ctx context.Context, path, content string) (mcp.WriteResult, error) {
	t, _, err := s.target(ctx, path)
	if err != nil {
		return mcp.WriteResult{}, err
	}
	tab := fmt.Sprintf("✻ [writeFile] %s (%d) ⧉", filepath.Base(t.Abs), writeFiles.Add(1))
	res, err := s.OpenDiff(ctx, mcp.DiffRequest{OldPath: t.Abs, NewPath: t.Abs, NewContents: content, TabName: tab})
	if err != nil {
		return mcp.WriteResult{}, err
	}
	if res.Outcome == mcp.DiffAccepted {
		return mcp.WriteResult{Path: t.Abs, Accepted: true, Content: res.FinalText}, nil
	}
	return mcp.WriteResult{Path: t.Abs}, nil
}

// ListFiles lists the files of every folder (a folder inside another is listed once, with
// the outer one), those pattern matches when it is not "".
func (s *SessionEditor) ListFiles(ctx context.Context, pattern string) ([]string, error) {
	p, err := workspace.CompilePattern(pattern)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", mcp.ErrInvalidParams, err)
	}
	files, _, err := s.list(ctx, p)
	return files, err
}

// list lists the workspace; git reports whether the primary folder's listing is git's.
func (s *SessionEditor) list(ctx context.Context, p *workspace.Pattern) (files []string, git bool, err error) {
	folders, err := s.WorkspaceFolders(ctx)
	if err != nil {
		return nil, false, err
	}
	if len(folders) == 0 {
		return nil, false, workspace.ErrNoFolder
	}
	for i, f := range folders {
		if nestedIn(folders, i) {
			continue
		}
		left := workspace.MaxFiles - len(files)
		if left <= 0 {
			return nil, false, fmt.Errorf("%w: more than %d match", workspace.ErrTooMany, workspace.MaxFiles)
		}
		l, err := workspace.List(ctx, f, p, left)
		if err != nil {
			return nil, false, err
		}
		if i == 0 {
			git = l.Git
		}
		for _, name := range l.Files {
			files = append(files, workspace.Display(folders[0], filepath.Join(f, filepath.FromSlash(name))))
		}
	}
	return files, git, nil
}

// nestedIn: folders[i] lies inside another of folders (listing that one lists it).
func nestedIn(folders []string, i int) bool {
	for j, f := range folders {
		if j != i && filepath.Clean(f) != filepath.Clean(folders[i]) && workspace.Within([]string{f}, folders[i]) {
			return true
		}
		if j < i && filepath.Clean(f) == filepath.Clean(folders[i]) {
			return true // listed already
		}
	}
	return false
}

// WorkspaceInfo describes the primary folder, and counts the files listFiles lists.
func (s *SessionEditor) WorkspaceInfo(ctx context.Context) (mcp.WorkspaceInfo, error) {
	folders, err := s.WorkspaceFolders(ctx)
	if err != nil {
		return mcp.WorkspaceInfo{}, err
	}
	if len(folders) == 0 {
		return mcp.WorkspaceInfo{}, workspace.ErrNoFolder
	}
	info := mcp.WorkspaceInfo{Name: filepath.Base(folders[0]), Path: folders[0], Type: "folder", Folders: folders}
	files, git, err := s.list(ctx, nil)
	switch {
	case errors.Is(err, workspace.ErrTooMany):
		info.FileCount, info.FileCountCapped = workspace.MaxFiles, true
	case err != nil:
		return mcp.WorkspaceInfo{}, err
	default:
		info.FileCount = len(files)
	}
	if git {
		info.Type = "git"
	}
	return info, nil
}

// OpenFiles lists the open file buffers inside the workspace, the active one first.
func (s *SessionEditor) OpenFiles(ctx context.Context) ([]string, error) {
	folders, eds, err := s.openInWorkspace(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range eds {
		d := workspace.Display(folders[0], e.Path)
		if e.Active {
			out = append([]string{d}, out...)
		} else {
			out = append(out, d)
		}
	}
	return out, nil
}

// CurrentFile is the active buffer's file when it is inside the workspace.
func (s *SessionEditor) CurrentFile(ctx context.Context) (string, error) {
	folders, eds, err := s.openInWorkspace(ctx)
	if err != nil {
		return "", err
	}
	for _, e := range eds {
		if e.Active {
			return workspace.Display(folders[0], e.Path), nil
		}
	}
	return "", nil
}

// openInWorkspace is the session's folders and the open editors inside them.
func (s *SessionEditor) openInWorkspace(ctx context.Context) ([]string, []mcp.OpenEditor, error) {
	folders, err := s.WorkspaceFolders(ctx)
	if err != nil || len(folders) == 0 {
		return nil, nil, err
	}
	eds, err := s.OpenEditors(ctx)
	if err != nil {
		return nil, nil, err
	}
	var in []mcp.OpenEditor
	for _, e := range eds {
		if workspace.Within(folders, e.Path) {
			in = append(in, e)
		}
	}
	return folders, in, nil
}
