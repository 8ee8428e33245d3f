package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// fakeEditor is a deterministic in-memory Editor for protocol tests: each
// method answers from fixed data keyed on its input, so transcripts can
// show every result shape. Real editor behaviour is tested in nvimapi.
type fakeEditor struct {
	empty bool // no active file, no selection, no buffers, no folders
}

var _ Editor = fakeEditor{}

func (f fakeEditor) OpenFile(_ context.Context, req OpenFileRequest) (OpenFileResult, error) {
	if req.Path == "/proj/missing.go" {
		return OpenFileResult{}, errors.New("no such file")
	}
	msg := "Opened file: " + req.Path
	if req.StartLine > 0 {
		msg = fmt.Sprintf("Opened file and selected lines %d to %d", req.StartLine, req.EndLine)
	} else if req.StartText != "" {
		msg = "Opened file and selected text"
	}
	return OpenFileResult{Message: msg, LanguageID: "go", LineCount: 42}, nil
}

func (f fakeEditor) OpenDiff(_ context.Context, req DiffRequest) (DiffResult, error) {
	switch {
	case req.NewContents == "fail":
		return DiffResult{}, errors.New("diff view failed")
	case strings.Contains(req.NewContents, "reject"):
		return DiffResult{Outcome: DiffRejected}, nil
	case strings.Contains(req.NewContents, "edit"):
		return DiffResult{Outcome: DiffAccepted, FinalText: req.NewContents + "// edited by the user\n"}, nil
	case strings.HasSuffix(req.NewPath, "/new.txt"):
		return DiffResult{Outcome: DiffAccepted, FinalText: req.NewContents, NewFile: true}, nil
	}
	return DiffResult{Outcome: DiffAccepted, FinalText: req.NewContents}, nil
}

func (f fakeEditor) CloseDiff(_ context.Context, tabName string) (bool, error) {
	if tabName == "broken" {
		return false, errors.New("window vanished")
	}
	return tabName == "open-tab", nil
}

func (f fakeEditor) CloseAllDiffs(context.Context) (int, error) {
	if f.empty {
		return 0, nil
	}
	return 3, nil
}

var fakeDiagnostics = []FileDiagnostics{
	{Path: "/proj/a b.go", Diagnostics: []Diagnostic{
		{Message: "undefined: x", Severity: "Error", Source: "gopls", Code: "UndeclaredName",
			Range: Range{Start: Position{Line: 1, Character: 0}, End: Position{Line: 1, Character: 4}}},
		{Message: "unused variable", Severity: "Warning",
			Range: Range{Start: Position{Line: 3, Character: 2}, End: Position{Line: 3, Character: 5}}},
	}},
	{Path: "/proj/ü.go", Diagnostics: []Diagnostic{
		{Message: "could be simpler", Severity: "Hint", Source: "staticcheck",
			Range: Range{Start: Position{Line: 0, Character: 0}, End: Position{Line: 0, Character: 1}}},
	}},
}

func (f fakeEditor) Diagnostics(_ context.Context, path string) ([]FileDiagnostics, error) {
	switch path {
	case "":
		if f.empty {
			return nil, nil
		}
		return fakeDiagnostics, nil
	case "/proj/a b.go":
		return fakeDiagnostics[:1], nil
	case "/proj/bad-editor.go":
		return nil, nil // breaks the one-entry promise; the tool copes
	case "/proj/broken.go":
		return nil, errors.New("lsp crashed")
	}
	return []FileDiagnostics{{Path: path}}, nil
}

func (f fakeEditor) CurrentSelection(context.Context) (*Selection, error) {
	if f.empty {
		return nil, nil
	}
	return &Selection{Text: "hello\nworld", FilePath: "/proj/a b.go",
		Range: Range{Start: Position{Line: 1, Character: 0}, End: Position{Line: 2, Character: 5}}}, nil
}

func (f fakeEditor) LatestSelection(context.Context) (*Selection, error) {
	if f.empty {
		return nil, nil
	}
	return &Selection{FilePath: "/proj/main.go",
		Range: Range{Start: Position{Line: 3, Character: 4}, End: Position{Line: 3, Character: 4}}}, nil
}

func (f fakeEditor) OpenEditors(context.Context) ([]OpenEditor, error) {
	if f.empty {
		return nil, nil
	}
	return []OpenEditor{
		{Path: "/proj/a b.go", Active: true, Dirty: true, LanguageID: "go", LineCount: 10,
			Selection: &Range{Start: Position{Line: 1, Character: 0}, End: Position{Line: 2, Character: 5}}},
		{Path: "/proj/README.md", LanguageID: "markdown", LineCount: 3},
	}, nil
}

func (f fakeEditor) WorkspaceFolders(context.Context) ([]string, error) {
	if f.empty {
		return nil, nil
	}
	return []string{"/proj", "/other dir"}, nil
}

func (f fakeEditor) DocumentDirty(_ context.Context, path string) (DocumentState, error) {
	switch path {
	case "/proj/a b.go":
		return DocumentState{Dirty: true}, nil
	case "/proj/new":
		return DocumentState{Untitled: true}, nil
	case "/proj/broken.go":
		return DocumentState{}, errors.New("nvim gone")
	}
	return DocumentState{}, ErrDocumentNotOpen
}

func (f fakeEditor) SaveDocument(_ context.Context, path string) error {
	switch path {
	case "/proj/a b.go":
		return nil
	case "/proj/readonly.go":
		return errors.New("E45: 'readonly' option is set")
	}
	return fmt.Errorf("save %s: %w", path, ErrDocumentNotOpen)
}

// testTools are extra tools for exercising the error paths of tools/call.
func testTools() []Tool {
	return []Tool{
		{Name: "echo", Description: "Echo text",
			InputSchema: []byte(`{"type":"object","properties":{"text":{"type":"string"},"n":{"type":"integer"},` +
				`"flag":{"type":"boolean"},"tags":{"type":["array","null"]}},"required":["text"]}`),
			Handler: func(_ context.Context, args json.RawMessage) (*ToolResult, error) {
				var a struct {
					Text string `json:"text"`
				}
				if err := DecodeArgs(args, &a); err != nil {
					return nil, err
				}
				return TextResult(a.Text), nil
			}},
		{Name: "panic", Description: "Panic",
			Handler: func(context.Context, json.RawMessage) (*ToolResult, error) { panic("boom") }},
		{Name: "nil", Description: "Return nothing",
			Handler: func(context.Context, json.RawMessage) (*ToolResult, error) { return nil, nil }},
	}
}
