package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// IDETools returns the tools the Claude Code CLI and the VS Code extension's
// other clients call, each driving ed and shaping its answer the way the
// clients parse it. executeCode is not among them: the model can call
// listed tools, and that one runs code, so it is added (ExecuteCodeTool)
// only when the user turned it on.
func IDETools(ed Editor) []Tool {
	t := ideTools{ed: ed, memo: newIDEMemos()}
	return []Tool{
		{Name: "openDiff", Description: "Show a proposed change to a file as a diff and wait for the user to accept or reject it",
			InputSchema: schemaOpenDiff, Handler: t.openDiff},
		{Name: "close_tab", Description: "Close a diff view by its tab name",
			InputSchema: schemaCloseTab, Handler: t.closeTab},
		{Name: "closeAllDiffTabs", Description: "Close every diff view opened by Claude",
			InputSchema: schemaNoArgs, Handler: t.closeAllDiffTabs},
		{Name: "getDiagnostics", Description: "Get language diagnostics (errors, warnings) for one file or for all open files",
			InputSchema: schemaGetDiagnostics, Handler: t.getDiagnostics},
		{Name: "openFile", Description: "Open a file in the editor, optionally selecting a range of text",
			InputSchema: schemaOpenFile, Handler: t.openFile},
		{Name: "getCurrentSelection", Description: "Get the selection in the active editor window",
			InputSchema: schemaNoArgs, Handler: t.getCurrentSelection},
		{Name: "getLatestSelection", Description: "Get the most recent selection in any file",
			InputSchema: schemaNoArgs, Handler: t.getLatestSelection},
		{Name: "getOpenEditors", Description: "List the files open in the editor",
			InputSchema: schemaNoArgs, Handler: t.getOpenEditors},
		{Name: "getWorkspaceFolders", Description: "List the editor's workspace folders",
			InputSchema: schemaNoArgs, Handler: t.getWorkspaceFolders},
		{Name: "checkDocumentDirty", Description: "Report whether a file has unsaved changes in the editor",
			InputSchema: schemaFilePath, Handler: t.checkDocumentDirty},
		{Name: "saveDocument", Description: "Save a file's unsaved changes from the editor to disk",
			InputSchema: schemaFilePath, Handler: t.saveDocument},
	}
}

type ideTools struct {
	ed   Editor
	memo *ideMemos
}

// ideMemos are the encoded last answers of the tools a client may poll.
type ideMemos struct {
	current, latest answerMemo[*Selection]
	editors         answerMemo[[]OpenEditor]
	folders         answerMemo[[]string]
}

func newIDEMemos() *ideMemos {
	return &ideMemos{
		current: answerMemo[*Selection]{same: sameSelection, clone: cloneSelection},
		latest:  answerMemo[*Selection]{same: sameSelection, clone: cloneSelection},
		editors: answerMemo[[]OpenEditor]{same: sameEditors, clone: cloneEditors},
		folders: answerMemo[[]string]{same: slices.Equal[[]string], clone: slices.Clone[[]string]},
	}
}

func sameSelection(a, b *Selection) bool { return a == b || (a != nil && b != nil && *a == *b) }

func cloneSelection(s *Selection) *Selection {
	if s == nil {
		return nil
	}
	c := *s
	return &c
}

func sameEditors(a, b []OpenEditor) bool {
	return slices.EqualFunc(a, b, func(x, y OpenEditor) bool {
		xs, ys := x.Selection, y.Selection
		x.Selection, y.Selection = nil, nil
		return x == y && (xs == ys || (xs != nil && ys != nil && *xs == *ys))
	})
}

func cloneEditors(eds []OpenEditor) []OpenEditor {
	c := slices.Clone(eds)
	for i := range c {
		if r := c[i].Selection; r != nil {
			copied := *r
			c[i].Selection = &copied
		}
	}
	return c
}

func (t ideTools) openDiff(ctx context.Context, raw json.RawMessage) (*ToolResult, error) {
	var a struct {
		OldPath  string `json:"old_file_path"`
		NewPath  string `json:"new_file_path"`
		Contents string `json:"new_file_contents"`
		TabName  string `json:"tab_name"`
	}
	if err := DecodeArgs(raw, &a); err != nil {
		return nil, err
	}
	req := DiffRequest{OldPath: a.OldPath, NewPath: a.NewPath, NewContents: a.Contents, TabName: a.TabName}
	// Only the names outlive the call into the editor: the proposal may be megabytes, which
	// the editor lets go of once Neovim has it (nvimapi's openDiff).
	newPath, tabName := a.NewPath, a.TabName
	a.Contents = ""
	res, err := t.ed.OpenDiff(ctx, req)
	if err != nil {
		// The CLI ignores an error answer and lets its own prompt decide.
		return nil, fmt.Errorf("open diff %s: %w", newPath, err)
	}
	if res.Outcome == DiffAccepted {
		return TextResult("FILE_SAVED", savedText(res.FinalText, res.NewFile, ClientVersion(ctx))), nil
	}
	// Never TAB_CLOSED: the CLI takes that as acceptance and writes the file.
	return TextResult("DIFF_REJECTED", tabName), nil
}

// savedText is the text to answer FILE_SAVED with. The CLI 2.1.197
// writes a new file accepted in the editor one trailing newline short
// ("brand new\n" lands as "brand new"), though not an edited file, nor a
// new file accepted in its own prompt; it also compares the answer to its
// proposal the same way. For it one more newline makes the file on disk
// what the user accepted. 2.1.332 writes the answer as it is (the extra
// newline became a blank last line), so the newline is added only for a
// client older than that; releases in between were not tried. The e2e
// suite checks both ends.
func savedText(text string, newFile bool, clientVersion string) string {
	if newFile && strings.HasSuffix(text, "\n") && versionBefore(clientVersion, fixedNewFileNewline) {
		return text + "\n"
	}
	return text
}

// fixedNewFileNewline is the first CLI known to write a new file's FILE_SAVED
// text as it is.
const fixedNewFileNewline = "2.1.332"

func (t ideTools) closeTab(ctx context.Context, raw json.RawMessage) (*ToolResult, error) {
	var a struct {
		TabName string `json:"tab_name"`
	}
	if err := DecodeArgs(raw, &a); err != nil {
		return nil, err
	}
	if _, err := t.ed.CloseDiff(ctx, a.TabName); err != nil {
		return nil, fmt.Errorf("close tab %s: %w", a.TabName, err)
	}
	// The same answer whether or not the view existed: the CLI sends
	// close_tab twice and ignores the answer.
	return TextResult("TAB_CLOSED"), nil
}

func (t ideTools) closeAllDiffTabs(ctx context.Context, _ json.RawMessage) (*ToolResult, error) {
	n, err := t.ed.CloseAllDiffs(ctx)
	if err != nil {
		return nil, fmt.Errorf("close all diff tabs: %w", err)
	}
	return TextResult("CLOSED_" + strconv.Itoa(n) + "_DIFF_TABS"), nil
}

type wireDiagnostic struct {
	Message  string `json:"message"`
	Severity string `json:"severity"`
	Source   string `json:"source,omitempty"`
	Code     string `json:"code,omitempty"`
	Range    Range  `json:"range"`
}

type wireFileDiagnostics struct {
	URI         string           `json:"uri"`
	Diagnostics []wireDiagnostic `json:"diagnostics"`
}

// toWireDiagnostics shapes one file's diagnostics as the clients expect:
// a file URL, and an empty list rather than null.
func toWireDiagnostics(f FileDiagnostics) wireFileDiagnostics {
	w := wireFileDiagnostics{URI: FileURL(f.Path), Diagnostics: make([]wireDiagnostic, 0, len(f.Diagnostics))}
	for _, d := range f.Diagnostics {
		w.Diagnostics = append(w.Diagnostics, wireDiagnostic(d))
	}
	return w
}

// getDiagnostics rejects a uri that is not a file URL with -32602: the
// model can call this tool directly and a protocol error tells it plainly
// that the argument was wrong. A bare absolute path is accepted too, since
// models sometimes pass one.
func (t ideTools) getDiagnostics(ctx context.Context, raw json.RawMessage) (*ToolResult, error) {
	var a struct {
		URI string `json:"uri"`
	}
	if err := DecodeArgs(raw, &a); err != nil {
		return nil, err
	}
	var path, echo string
	if a.URI != "" {
		if filepath.IsAbs(a.URI) {
			path, echo = a.URI, FileURL(a.URI)
		} else {
			echo = a.URI
			p, err := PathFromFileURL(a.URI)
			if err != nil {
				return nil, fmt.Errorf("%w: uri: %v", ErrInvalidParams, err)
			}
			path = p
		}
	}
	files, err := t.ed.Diagnostics(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("get diagnostics: %w", err)
	}
	out := make([]wireFileDiagnostics, 0, len(files)+1)
	for _, f := range files {
		out = append(out, toWireDiagnostics(f))
	}
	if echo != "" {
		// The CLI matches the answer to the file it asked about by the uri
		// it sent, so echo that exact string.
		if len(out) == 0 {
			out = append(out, wireFileDiagnostics{Diagnostics: []wireDiagnostic{}})
		}
		out[0].URI = echo
	}
	return JSONResult(out)
}

func (t ideTools) openFile(ctx context.Context, raw json.RawMessage) (*ToolResult, error) {
	var a struct {
		FilePath          string `json:"filePath"`
		Preview           bool   `json:"preview"`
		StartText         string `json:"startText"`
		EndText           string `json:"endText"`
		SelectToEndOfLine bool   `json:"selectToEndOfLine"`
		StartLine         int    `json:"startLine"`
		EndLine           int    `json:"endLine"`
		MakeFrontmost     *bool  `json:"makeFrontmost"`
	}
	if err := DecodeArgs(raw, &a); err != nil {
		return nil, err
	}
	front := a.MakeFrontmost == nil || *a.MakeFrontmost
	res, err := t.ed.OpenFile(ctx, OpenFileRequest{
		Path: a.FilePath, Preview: a.Preview, StartText: a.StartText, EndText: a.EndText,
		SelectToEndOfLine: a.SelectToEndOfLine, StartLine: a.StartLine, EndLine: a.EndLine,
		MakeFrontmost: front,
	})
	if err != nil {
		return nil, fmt.Errorf("open file %s: %w", a.FilePath, err)
	}
	if front {
		msg := res.Message
		if msg == "" {
			msg = "Opened file: " + a.FilePath
		}
		return TextResult(msg), nil
	}
	return JSONResult(struct {
		Success    bool   `json:"success"`
		FilePath   string `json:"filePath"`
		LanguageID string `json:"languageId"`
		LineCount  int    `json:"lineCount"`
	}{true, a.FilePath, res.LanguageID, res.LineCount})
}

type wireSelectionRange struct {
	Start   Position `json:"start"`
	End     Position `json:"end"`
	IsEmpty bool     `json:"isEmpty"`
}

// wireSelection is the shape of selection_changed params and of the
// selection tools' answers.
type wireSelection struct {
	Text      string             `json:"text"`
	FilePath  string             `json:"filePath"`
	FileURL   string             `json:"fileUrl"`
	Selection wireSelectionRange `json:"selection"`
}

func toWireSelection(s *Selection) wireSelection {
	return wireSelection{
		Text: s.Text, FilePath: s.FilePath, FileURL: FileURL(s.FilePath),
		Selection: wireSelectionRange{Start: s.Range.Start, End: s.Range.End, IsEmpty: s.Range.Start == s.Range.End},
	}
}

type failure struct {
	Success  bool   `json:"success"`
	FilePath string `json:"filePath,omitempty"`
	Message  string `json:"message"`
}

func selectionResult(sel *Selection, none string) (*ToolResult, error) {
	if sel == nil {
		return JSONResult(failure{Message: none})
	}
	return JSONResult(struct {
		Success bool `json:"success"`
		wireSelection
	}{true, toWireSelection(sel)})
}

func (t ideTools) getCurrentSelection(ctx context.Context, _ json.RawMessage) (*ToolResult, error) {
	sel, err := t.ed.CurrentSelection(ctx)
	if err != nil {
		return nil, fmt.Errorf("get current selection: %w", err)
	}
	return t.memo.current.answer(sel, func(sel *Selection) (*ToolResult, error) {
		return selectionResult(sel, "No active editor found")
	})
}

func (t ideTools) getLatestSelection(ctx context.Context, _ json.RawMessage) (*ToolResult, error) {
	sel, err := t.ed.LatestSelection(ctx)
	if err != nil {
		return nil, fmt.Errorf("get latest selection: %w", err)
	}
	return t.memo.latest.answer(sel, func(sel *Selection) (*ToolResult, error) {
		return selectionResult(sel, "No selection available")
	})
}

type wireTabSelection struct {
	Start      Position `json:"start"`
	End        Position `json:"end"`
	IsReversed bool     `json:"isReversed"`
}

type wireTab struct {
	URI           string            `json:"uri"`
	IsActive      bool              `json:"isActive"`
	IsPinned      bool              `json:"isPinned"`
	IsPreview     bool              `json:"isPreview"`
	IsDirty       bool              `json:"isDirty"`
	Label         string            `json:"label"`
	GroupIndex    int               `json:"groupIndex"`
	ViewColumn    int               `json:"viewColumn"`
	IsGroupActive bool              `json:"isGroupActive"`
	FileName      string            `json:"fileName"`
	LanguageID    string            `json:"languageId"`
	LineCount     int               `json:"lineCount"`
	IsUntitled    bool              `json:"isUntitled"`
	Selection     *wireTabSelection `json:"selection,omitempty"`
}

func (t ideTools) getOpenEditors(ctx context.Context, _ json.RawMessage) (*ToolResult, error) {
	eds, err := t.ed.OpenEditors(ctx)
	if err != nil {
		return nil, fmt.Errorf("get open editors: %w", err)
	}
	return t.memo.editors.answer(eds, openEditorsResult)
}

func openEditorsResult(eds []OpenEditor) (*ToolResult, error) {
	tabs := make([]wireTab, 0, len(eds))
	for _, e := range eds {
		// Neovim has one tab group, so the group fields are constants.
		tab := wireTab{
			URI: FileURL(e.Path), IsActive: e.Active, IsDirty: e.Dirty, Label: filepath.Base(e.Path),
			ViewColumn: 1, IsGroupActive: true, FileName: e.Path, LanguageID: e.LanguageID,
			LineCount: e.LineCount, IsUntitled: e.Untitled,
		}
		if e.Selection != nil {
			tab.Selection = &wireTabSelection{Start: e.Selection.Start, End: e.Selection.End}
		}
		tabs = append(tabs, tab)
	}
	return JSONResult(struct {
		Tabs []wireTab `json:"tabs"`
	}{tabs})
}

func (t ideTools) getWorkspaceFolders(ctx context.Context, _ json.RawMessage) (*ToolResult, error) {
	dirs, err := t.ed.WorkspaceFolders(ctx)
	if err != nil {
		return nil, fmt.Errorf("get workspace folders: %w", err)
	}
	return t.memo.folders.answer(dirs, workspaceFoldersResult)
}

func workspaceFoldersResult(dirs []string) (*ToolResult, error) {
	type folder struct {
		Name string `json:"name"`
		URI  string `json:"uri"`
		Path string `json:"path"`
	}
	folders := make([]folder, 0, len(dirs))
	for _, d := range dirs {
		folders = append(folders, folder{Name: filepath.Base(d), URI: FileURL(d), Path: d})
	}
	root := ""
	if len(dirs) > 0 {
		root = dirs[0]
	}
	return JSONResult(struct {
		Success  bool     `json:"success"`
		Folders  []folder `json:"folders"`
		RootPath string   `json:"rootPath"`
	}{true, folders, root})
}

func (t ideTools) checkDocumentDirty(ctx context.Context, raw json.RawMessage) (*ToolResult, error) {
	var a struct {
		FilePath string `json:"filePath"`
	}
	if err := DecodeArgs(raw, &a); err != nil {
		return nil, err
	}
	st, err := t.ed.DocumentDirty(ctx, a.FilePath)
	if errors.Is(err, ErrDocumentNotOpen) {
		return JSONResult(failure{Message: "Document not open: " + a.FilePath})
	}
	if err != nil {
		return nil, fmt.Errorf("check document dirty %s: %w", a.FilePath, err)
	}
	return JSONResult(struct {
		Success    bool   `json:"success"`
		FilePath   string `json:"filePath"`
		IsDirty    bool   `json:"isDirty"`
		IsUntitled bool   `json:"isUntitled"`
	}{true, a.FilePath, st.Dirty, st.Untitled})
}

func (t ideTools) saveDocument(ctx context.Context, raw json.RawMessage) (*ToolResult, error) {
	var a struct {
		FilePath string `json:"filePath"`
	}
	if err := DecodeArgs(raw, &a); err != nil {
		return nil, err
	}
	err := t.ed.SaveDocument(ctx, a.FilePath)
	switch {
	case errors.Is(err, ErrDocumentNotOpen):
		return JSONResult(failure{Message: "Document not open: " + a.FilePath})
	case err != nil:
		return JSONResult(failure{FilePath: a.FilePath, Message: "Failed to save file: " + err.Error()})
	}
	return JSONResult(struct {
		Success  bool   `json:"success"`
		FilePath string `json:"filePath"`
		Saved    bool   `json:"saved"`
		Message  string `json:"message"`
	}{true, a.FilePath, true, "Document saved successfully"})
}
