package relay

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/mcp"
)

// servers answers every question with answer and records what it was asked; the
// editor's language servers themselves are tested in nvimapi and e2e (lsp_test.go).
type servers struct {
	asked    []mcp.LSPQuery
	proposed []mcp.FileChange
	answer   mcp.LSPAnswer
}

func (s *servers) AskLSP(_ context.Context, q mcp.LSPQuery) (mcp.LSPAnswer, error) {
	s.asked = append(s.asked, q)
	return s.answer, nil
}

func (s *servers) ProposeEdits(_ context.Context, _ string, changes []mcp.FileChange) error {
	s.proposed = changes
	return nil
}

func lspMap(t *testing.T) (m *Map, local string) {
	t.Helper()
	local = t.TempDir()
	if err := os.WriteFile(filepath.Join(local, "a.go"), []byte("package a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := NewMap(map[string]string{"/workspaces/app": local})
	if err != nil {
		t.Fatal(err)
	}
	return m, local
}

// The remote CLI's path is asked about here under the editor's; the places answered go back
// under the CLI's, those outside the map (this machine's standard library) left out.
func TestLanguageServerAnswersNameTheRemotesPaths(t *testing.T) {
	m, local := lspMap(t)
	s := &servers{answer: mcp.LSPAnswer{
		Target: &mcp.LSPLocation{Path: filepath.Join(local, "a.go"), Line: 3},
		Locations: []mcp.LSPLocation{
			{Path: filepath.Join(local, "a.go"), Line: 9},
			{Path: "/usr/local/go/src/fmt/print.go", Line: 1},
		},
		Symbols: []mcp.LSPSymbol{{Name: "A", Location: mcp.LSPLocation{Path: filepath.Join(local, "b.go")}}},
		Calls: []mcp.LSPCall{{Name: "f", Location: mcp.LSPLocation{Path: filepath.Join(local, "a.go")},
			Sites: []mcp.LSPLocation{{Path: filepath.Join(local, "a.go"), Line: 4}, {Path: "/elsewhere/x.go"}}}},
		Total: 2,
	}}
	given := s.answer
	ls := MapLanguageServers(s, m)
	ans, err := ls.AskLSP(context.Background(), mcp.LSPQuery{Op: mcp.LSPOpReferences, Path: "/workspaces/app/a.go", Line: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.asked[0].Path; got != filepath.Join(local, "a.go") {
		t.Errorf("the editor was asked about %q, want the editor's path", got)
	}
	if ans.Target == nil || ans.Target.Path != "/workspaces/app/a.go" {
		t.Errorf("target = %+v, want the CLI's path", ans.Target)
	}
	if len(ans.Locations) != 1 || ans.Locations[0].Path != "/workspaces/app/a.go" || ans.Total != 1 {
		t.Errorf("locations = %+v (total %d), want the one in the map under the CLI's path", ans.Locations, ans.Total)
	}
	if len(ans.Symbols) != 1 || ans.Symbols[0].Location.Path != "/workspaces/app/b.go" {
		t.Errorf("symbols = %+v, want under the CLI's path", ans.Symbols)
	}
	if len(ans.Calls) != 1 || len(ans.Calls[0].Sites) != 1 || ans.Calls[0].Sites[0].Path != "/workspaces/app/a.go" {
		t.Errorf("calls = %+v, want the sites in the map under the CLI's path", ans.Calls)
	}
	// The editor's word about the file names it as the CLI does.
	s.answer = mcp.LSPAnswer{Problem: "No language server is attached to " + filepath.Join(local, "a.go") + " (filetype go)"}
	ans2, err := ls.AskLSP(context.Background(), mcp.LSPQuery{Op: mcp.LSPOpHover, Path: "/workspaces/app/a.go", Line: 1})
	if err != nil || ans2.Problem != "No language server is attached to /workspaces/app/a.go (filetype go)" {
		t.Errorf("problem = %q (%v), want it under the CLI's path", ans2.Problem, err)
	}
	// The answer the editor gave is not changed behind it.
	if given.Locations[0].Path != filepath.Join(local, "a.go") {
		t.Errorf("the editor's own answer was changed: %+v", given.Locations)
	}
}

// A path outside the map is refused as bad input, the editor never asked; a rename that
// reaches outside it is refused whole; proposed edits are shown under the editor's paths.
func TestLanguageServerQuestionsOutsideTheMapAreRefused(t *testing.T) {
	m, local := lspMap(t)
	s := &servers{}
	ls := MapLanguageServers(s, m)
	for _, p := range []string{"/etc/passwd", "relative.go", "/workspaces/app/../../etc/passwd"} {
		if _, err := ls.AskLSP(context.Background(), mcp.LSPQuery{Op: mcp.LSPOpHover, Path: p, Line: 1}); !errors.Is(err, mcp.ErrInvalidParams) {
			t.Errorf("asking about %q: %v, want invalid params", p, err)
		}
	}
	if len(s.asked) != 0 {
		t.Errorf("the editor was asked %+v", s.asked)
	}
	s.answer = mcp.LSPAnswer{Files: []mcp.LSPFileEdit{{Path: filepath.Join(local, "a.go")}, {Path: "/usr/local/go/src/fmt/print.go"}}}
	ans, err := ls.AskLSP(context.Background(), mcp.LSPQuery{Op: mcp.LSPOpRename, Path: "/workspaces/app/a.go", Line: 1, NewName: "B"})
	if err != nil || len(ans.Files) != 0 || !strings.Contains(ans.Refused, "outside the remote's map") {
		t.Errorf("a rename reaching outside the map: %+v, %v; want it refused whole", ans, err)
	}
	if err := ls.ProposeEdits(context.Background(), "rename", []mcp.FileChange{{Path: "/workspaces/app/a.go", NewText: "x"}}); err != nil {
		t.Fatal(err)
	}
	if len(s.proposed) != 1 || s.proposed[0].Path != filepath.Join(local, "a.go") {
		t.Errorf("proposed %+v, want under the editor's path", s.proposed)
	}
	if err := ls.ProposeEdits(context.Background(), "rename", []mcp.FileChange{{Path: "/etc/passwd"}}); !errors.Is(err, mcp.ErrInvalidParams) {
		t.Errorf("proposing an edit outside the map: %v, want invalid params", err)
	}
}
