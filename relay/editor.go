package relay

import (
	"context"
	"fmt"

	"github.com/claude-nvim/claude.nvim/mcp"
)

// MapEditor is the editor as a remote CLI sees it: every path it names is
// mapped to this machine's before the editor sees it (refused when outside
// the map, with mcp.ErrInvalidParams so the CLI gets a clear error), and
// every path the editor answers is mapped back; files outside the map are
// left out of lists, not shown under a local name.
func MapEditor(e mcp.Editor, m *Map) mcp.Editor { return &mapped{e: e, m: m} }

type mapped struct {
	e mcp.Editor
	m *Map
}

func (x *mapped) in(p string) (string, error) {
	local, err := x.m.ToLocal(p)
	if err != nil {
		return "", fmt.Errorf("%w: %v", mcp.ErrInvalidParams, err)
	}
	return local, nil
}

func (x *mapped) OpenFile(ctx context.Context, req mcp.OpenFileRequest) (mcp.OpenFileResult, error) {
	p, err := x.in(req.Path)
	if err != nil {
		return mcp.OpenFileResult{}, err
	}
	req.Path = p
	return x.e.OpenFile(ctx, req)
}

func (x *mapped) OpenDiff(ctx context.Context, req mcp.DiffRequest) (mcp.DiffResult, error) {
	old, err := x.in(req.OldPath)
	if err != nil {
		return mcp.DiffResult{}, err
	}
	nw, err := x.in(req.NewPath)
	if err != nil {
		return mcp.DiffResult{}, err
	}
	req.OldPath, req.NewPath = old, nw
	return x.e.OpenDiff(ctx, req)
}

func (x *mapped) CloseDiff(ctx context.Context, tabName string) (bool, error) {
	return x.e.CloseDiff(ctx, tabName)
}

func (x *mapped) CloseAllDiffs(ctx context.Context) (int, error) { return x.e.CloseAllDiffs(ctx) }

func (x *mapped) Diagnostics(ctx context.Context, path string) ([]mcp.FileDiagnostics, error) {
	if path != "" {
		p, err := x.in(path)
		if err != nil {
			return nil, err
		}
		path = p
	}
	all, err := x.e.Diagnostics(ctx, path)
	if err != nil {
		return nil, err
	}
	out := make([]mcp.FileDiagnostics, 0, len(all))
	for _, d := range all {
		if r, err := x.m.ToRemote(d.Path); err == nil {
			d.Path = r
			out = append(out, d)
		}
	}
	return out, nil
}

func (x *mapped) selection(sel *mcp.Selection, err error) (*mcp.Selection, error) {
	if err != nil || sel == nil {
		return sel, err
	}
	return MapSelection(x.m, sel), nil
}

func (x *mapped) CurrentSelection(ctx context.Context) (*mcp.Selection, error) {
	return x.selection(x.e.CurrentSelection(ctx))
}

func (x *mapped) LatestSelection(ctx context.Context) (*mcp.Selection, error) {
	return x.selection(x.e.LatestSelection(ctx))
}

func (x *mapped) OpenEditors(ctx context.Context) ([]mcp.OpenEditor, error) {
	all, err := x.e.OpenEditors(ctx)
	if err != nil {
		return nil, err
	}
	var out []mcp.OpenEditor
	for _, ed := range all {
		if r, err := x.m.ToRemote(ed.Path); err == nil {
			ed.Path = r
			out = append(out, ed)
		}
	}
	return out, nil
}

// WorkspaceFolders answers the remote roots: the CLI compares them with
// its own cwd, on its side.
func (x *mapped) WorkspaceFolders(ctx context.Context) ([]string, error) {
	return x.m.RemoteRoots(), nil
}

func (x *mapped) DocumentDirty(ctx context.Context, path string) (mcp.DocumentState, error) {
	p, err := x.in(path)
	if err != nil {
		return mcp.DocumentState{}, err
	}
	return x.e.DocumentDirty(ctx, p)
}

func (x *mapped) SaveDocument(ctx context.Context, path string) error {
	p, err := x.in(path)
	if err != nil {
		return err
	}
	return x.e.SaveDocument(ctx, p)
}

// MapSelection is sel as the remote side names it, nil when its file is
// outside the map (the remote CLI is not told about it).
func MapSelection(m *Map, sel *mcp.Selection) *mcp.Selection {
	r, err := m.ToRemote(sel.FilePath)
	if err != nil {
		return nil
	}
	out := *sel
	out.FilePath = r
	return &out
}
