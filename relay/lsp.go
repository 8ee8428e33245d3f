package relay

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/claude-nvim/claude.nvim/mcp"
)

// MapLanguageServers is the user's language servers as a remote CLI sees them (the
// lsp_* tools of a chat on a remote's side): the file it asks about is mapped to this
// machine's (refused with mcp.ErrInvalidParams when outside the map), and every place an
// answer names is mapped back; places outside the map (a standard library on this
// machine) are left out of lists, as MapEditor leaves files out. A rename that would also
// change a file outside the map is refused whole: half a rename breaks the build.
func MapLanguageServers(ls mcp.LanguageServers, m *Map) mcp.LanguageServers {
	return &mappedServers{ls: ls, m: m}
}

type mappedServers struct {
	ls mcp.LanguageServers
	m  *Map
}

func (x *mappedServers) AskLSP(ctx context.Context, q mcp.LSPQuery) (mcp.LSPAnswer, error) {
	asked := q.Path
	if q.Path != "" {
		local, err := x.m.ToLocal(q.Path)
		if err != nil {
			return mcp.LSPAnswer{}, fmt.Errorf("%w: %v", mcp.ErrInvalidParams, err)
		}
		q.Path = local
	}
	ans, err := x.ls.AskLSP(ctx, q)
	if err != nil {
		return ans, err
	}
	if asked != "" {
		// The editor's words name the file by its own path: the CLI's is the one it knows.
		ans.Problem = strings.ReplaceAll(ans.Problem, q.Path, asked)
		ans.Failures = slices.Clone(ans.Failures)
		for i, f := range ans.Failures {
			ans.Failures[i] = strings.ReplaceAll(f, q.Path, asked)
		}
	}
	if ans.Problem != "" {
		return ans, nil
	}
	if ans.Target != nil {
		t := *ans.Target
		ans.Target = nil
		if x.place(&t) {
			ans.Target = &t
		}
	}
	var lost, n int
	ans.Locations, n = placed(x, ans.Locations, func(l *mcp.LSPLocation) *mcp.LSPLocation { return l })
	lost += n
	ans.Symbols, n = placed(x, ans.Symbols, func(s *mcp.LSPSymbol) *mcp.LSPLocation { return &s.Location })
	lost += n
	ans.Calls, n = placed(x, ans.Calls, func(c *mcp.LSPCall) *mcp.LSPLocation { return &c.Location })
	lost += n
	for i := range ans.Calls {
		ans.Calls[i].Sites, _ = placed(x, ans.Calls[i].Sites, func(l *mcp.LSPLocation) *mcp.LSPLocation { return l })
	}
	ans.Total = max(ans.Total-lost, 0)
	files := make([]mcp.LSPFileEdit, 0, len(ans.Files))
	for _, f := range ans.Files {
		remote, err := x.m.ToRemote(f.Path)
		if err != nil {
			ans.Refused = fmt.Sprintf("the rename also changes %s, which is outside the remote's map (%v): no part of it is shown", f.Path, err)
			ans.Files = nil
			return ans, nil
		}
		f.Path = remote
		files = append(files, f)
	}
	ans.Files = files
	return ans, nil
}

// placed is a copy of items whose place (at) maps for the remote CLI, mapped, and how
// many were left out (outside the map). items itself is not changed: it is the editor's.
func placed[T any](x *mappedServers, items []T, at func(*T) *mcp.LSPLocation) ([]T, int) {
	out := make([]T, 0, len(items))
	for _, it := range items {
		if x.place(at(&it)) {
			out = append(out, it)
		}
	}
	return out, len(items) - len(out)
}

// place maps l's path for the remote CLI; false when it is outside the map.
func (x *mappedServers) place(l *mcp.LSPLocation) bool {
	remote, err := x.m.ToRemote(l.Path)
	if err != nil {
		return false
	}
	l.Path = remote
	return true
}

func (x *mappedServers) ProposeEdits(ctx context.Context, title string, changes []mcp.FileChange) error {
	local := make([]mcp.FileChange, len(changes))
	for i, c := range changes {
		p, err := x.m.ToLocal(c.Path)
		if err != nil {
			return fmt.Errorf("%w: %v", mcp.ErrInvalidParams, err)
		}
		c.Path = p
		local[i] = c
	}
	return x.ls.ProposeEdits(ctx, title, local)
}
