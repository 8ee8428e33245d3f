package mcp

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Editor is everything the IDE tools need from the editor. The mcp package
// knows nothing about Neovim: nvimapi implements this interface, and tests in
// this package use a small in-memory fake.
//
// Every method may be called from many goroutines at once. Paths are absolute
// file-system paths; positions are 0-based with characters counted in UTF-16
// code units, as in LSP and the VS Code extension.
type Editor interface {
	// OpenFile shows a file and optionally selects text in it.
	OpenFile(ctx context.Context, req OpenFileRequest) (OpenFileResult, error)

	// OpenDiff shows a proposed change and blocks until the user accepts or
	// rejects it, the diff is closed by CloseDiff/CloseAllDiffs, or ctx ends
	// (client gone, notifications/cancelled). It never writes the target file.
	OpenDiff(ctx context.Context, req DiffRequest) (DiffResult, error)

	// CloseDiff closes the diff view opened under tabName. found reports
	// whether such a view existed. A still pending OpenDiff for it returns
	// DiffRejected: the user decided elsewhere (in the CLI's own prompt).
	CloseDiff(ctx context.Context, tabName string) (found bool, err error)

	// CloseAllDiffs closes every diff view this plugin opened (and nothing
	// else) and returns how many it closed.
	CloseAllDiffs(ctx context.Context) (closed int, err error)

	// Diagnostics returns the diagnostics of one file, or of every file
	// when path is "". For a single file the result has exactly one entry,
	// for that path, even when it has no diagnostics or is not open.
	Diagnostics(ctx context.Context, path string) ([]FileDiagnostics, error)

	// CurrentSelection is the selection (or cursor) in the active file
	// window. nil means no file is active.
	CurrentSelection(ctx context.Context) (*Selection, error)

	// LatestSelection is the most recent selection seen in any file, even
	// if another window is active now. nil means none yet.
	LatestSelection(ctx context.Context) (*Selection, error)

	// OpenEditors lists the listed, loaded file buffers.
	OpenEditors(ctx context.Context) ([]OpenEditor, error)

	// WorkspaceFolders lists the editor's working directories, the current
	// one first.
	WorkspaceFolders(ctx context.Context) ([]string, error)

	// DocumentDirty reports whether the buffer of path has unsaved changes.
	// It returns ErrDocumentNotOpen when no buffer holds path.
	DocumentDirty(ctx context.Context, path string) (DocumentState, error)

	// SaveDocument writes the buffer of path to disk. It returns
	// ErrDocumentNotOpen when no buffer holds path.
	SaveDocument(ctx context.Context, path string) error
}

// ErrDocumentNotOpen is returned by Editor methods that need an open buffer
// for a path when there is none; tools turn it into a success:false answer
// rather than a protocol error.
var ErrDocumentNotOpen = errors.New("document not open")

// Position is a 0-based line and a 0-based character offset in UTF-16 code
// units.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is a span between two positions; End is exclusive.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Selection is the text the user selected in a file, or only the cursor
// position when Text is empty.
type Selection struct {
	Text     string
	FilePath string
	Range    Range
}

// OpenFileRequest mirrors the openFile tool's arguments.
type OpenFileRequest struct {
	Path              string
	Preview           bool
	StartText         string // select from the first match of this text...
	EndText           string // ...to the end of the first later match of this one
	SelectToEndOfLine bool
	StartLine         int // 1-based; 0 means unset
	EndLine           int // 1-based; 0 means unset
	MakeFrontmost     bool
}

// OpenFileResult describes what OpenFile did.
type OpenFileResult struct {
	Message    string // human-readable, e.g. "Opened file and selected lines 3 to 5"
	LanguageID string // the buffer's filetype, "plaintext" when none
	LineCount  int
}

// DiffRequest mirrors the openDiff tool's arguments.
type DiffRequest struct {
	OldPath     string
	NewPath     string
	NewContents string // the whole proposed file
	TabName     string // unique per proposal; CloseDiff refers to it
	// Place and Of: the edit's place among the edits of the model's message, when the
	// caller knows it and there are several (the chat's; a terminal's come from its hooks).
	Place, Of int
}

// DiffOutcome is how a diff ended.
type DiffOutcome int

const (
	// DiffRejected: the user rejected or abandoned the proposal, or it was
	// closed because the user decided elsewhere. The file must stay as is.
	DiffRejected DiffOutcome = iota
	// DiffAccepted: the user accepted; FinalText is what the file should
	// contain (the proposal including any edits the user made to it).
	DiffAccepted
)

// DiffResult is the user's decision on a diff.
type DiffResult struct {
	Outcome   DiffOutcome
	FinalText string
	NewFile   bool        // the target did not exist when the diff opened
	TakenBack []TakenBack // the hunks the user took back saying why (accepted only)
	Reason    string      // why the user rejected it, when they said (rejected only)
}

// TakenBack is one hunk of a proposal the user took back and said why: the file keeps its
// text there. Line is the file's first line of it (1-based).
type TakenBack struct {
	Line     int
	Kept     string // the file's lines, which stay
	Proposed string // Claude's, which the user took back
	Reason   string
}

// maxQuoted bounds each text a TakenBackNote quotes: the model has the whole proposal and the
// file already; the note only has to say which hunk.
const maxQuoted = 400

// TakenBackNote is what the model is told, with the edit's result, of the hunks of its
// proposal to path the user took back and why; empty for none. The path and the texts are
// quoted (strconv.Quote): a name or a line must not read as the plugin's or the user's words.
func TakenBackNote(path string, taken []TakenBack) string {
	if len(taken) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("The user took back part of your proposed change to " + strconv.Quote(path) +
		" before accepting the rest, and said why; the file keeps its own text there. Take this into account and do not redo these parts:")
	for _, t := range taken {
		fmt.Fprintf(&b, "\n- at line %d, you proposed %s, the file keeps %s. The user's reason: %s",
			t.Line, strconv.Quote(clip(t.Proposed)), strconv.Quote(clip(t.Kept)), strconv.Quote(t.Reason))
	}
	return b.String()
}

// RejectedNote is what the model is told of the user's reason for rejecting its whole
// proposal to path; empty for no reason. Quoted as TakenBackNote's.
func RejectedNote(path, reason string) string {
	reason = strings.TrimSpace(reason)
	if reason == "" {
		return ""
	}
	return "The user rejected your proposed change to " + strconv.Quote(path) +
		" in the editor's diff review, and said why: " + strconv.Quote(reason)
}

// clip cuts s to maxQuoted bytes at a rune boundary, saying it did.
func clip(s string) string {
	if len(s) <= maxQuoted {
		return s
	}
	cut := maxQuoted
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// Diagnostic is one problem reported in a file.
type Diagnostic struct {
	Message  string
	Severity string // "Error", "Warning", "Info" or "Hint"
	Source   string // may be empty
	Code     string // may be empty
	Range    Range
}

// FileDiagnostics groups the diagnostics of one file.
type FileDiagnostics struct {
	Path        string
	Diagnostics []Diagnostic
}

// OpenEditor describes one open file buffer.
type OpenEditor struct {
	Path       string
	Active     bool // shown in the current window
	Dirty      bool
	Untitled   bool
	LanguageID string
	LineCount  int
	Selection  *Range // the selection, for the active editor only
}

// DocumentState says whether a buffer has unsaved changes.
type DocumentState struct {
	Dirty    bool
	Untitled bool
}
