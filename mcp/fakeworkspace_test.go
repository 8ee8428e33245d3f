package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// fakeWorkspace is a deterministic Workspace for the transcripts: it shows every answer's
// shape and how each kind of error is answered. What the real one reads, refuses and lists
// is tested against real files and a real Neovim (workspace, host).
type fakeWorkspace struct {
	empty bool // no workspace folder
}

var _ Workspace = fakeWorkspace{}

func outside(p string) error {
	return fmt.Errorf("%w: %s: outside the workspace folders (/proj)", ErrInvalidParams, p)
}

func (f fakeWorkspace) ReadFile(_ context.Context, path string) (string, error) {
	switch path {
	case "notes.md":
		return "# Notes\n\nunsaved line\n", nil
	case "/proj/a b.go":
		return "package a\n", nil
	case "missing.txt":
		return "", errors.New("/proj/missing.txt: no such file")
	case "fifo":
		return "", fmt.Errorf("%w: /proj/fifo: not a regular file (a directory, a FIFO, a socket or a device): nothing was read", ErrInvalidParams)
	}
	return "", outside(path)
}

func (f fakeWorkspace) WriteFile(_ context.Context, path, content string) (WriteResult, error) {
	if strings.HasPrefix(path, "/etc") {
		return WriteResult{}, outside(path)
	}
	if strings.Contains(content, "reject") {
		return WriteResult{Path: "/proj/" + path}, nil
	}
	return WriteResult{Path: "/proj/" + path, Accepted: true, Content: content + "edited by the user\n"}, nil
}

func (f fakeWorkspace) ListFiles(_ context.Context, pattern string) ([]string, error) {
	switch pattern {
	case "":
		if f.empty {
			return nil, nil
		}
		return []string{"README.md", "main.go", "pkg/a.go"}, nil
	case "*.go":
		return []string{"main.go", "pkg/a.go"}, nil
	case "[":
		return nil, fmt.Errorf(`%w: bad pattern "[": syntax error in pattern`, ErrInvalidParams)
	}
	return nil, nil
}

func (f fakeWorkspace) WorkspaceInfo(context.Context) (WorkspaceInfo, error) {
	if f.empty {
		return WorkspaceInfo{}, errors.New("the editor has no workspace folder")
	}
	return WorkspaceInfo{Name: "proj", Path: "/proj", FileCount: 3, Type: "git", Folders: []string{"/proj", "/other dir"}}, nil
}

func (f fakeWorkspace) OpenFiles(context.Context) ([]string, error) {
	if f.empty {
		return nil, nil
	}
	return []string{"main.go", "/other dir/x.go"}, nil
}

func (f fakeWorkspace) CurrentFile(context.Context) (string, error) {
	if f.empty {
		return "", nil
	}
	return "main.go", nil
}
