package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
)

// LSPToolNames are the names of the tools LSPTools returns, in its order.
var LSPToolNames = []string{
	"lsp_definition", "lsp_references", "lsp_hover", "lsp_document_symbols",
	"lsp_workspace_symbols", "lsp_call_hierarchy", "lsp_code_actions", "lsp_rename",
}

// The caps on what one answer lists; past them only a count.
const (
	defaultLSPLimit = 50
	maxLSPLimit     = 500
)

// LSPTools are the tools that put the user's language servers, as Neovim
// runs them, in the model's hands. They are few (ToolSearch lists deferred
// tools by name, and a model picks among few more surely), named lsp_*,
// and their descriptions and search hints carry the words a model
// searches with ("find references", "go to definition", "callers", …).
// Every tool but lsp_rename only reads; lsp_rename only proposes.
func LSPTools(ls LanguageServers) []Tool {
	t := lspTools{ls: ls}
	return []Tool{
		{Name: "lsp_definition", Description: "Go to definition: where the symbol at a position is defined, from the language server " +
			"(LSP) the user's editor runs, across files and packages, unsaved editor text included. kind also finds the type definition, " +
			"the implementations of an interface or method, or the declaration. Answers path:line:column and the line.",
			InputSchema: schemaLSPDefinition, Handler: t.definition,
			Meta: searchHint("go to definition jump find declaration type definition implementation implementations interface where defined lsp language server")},
		{Name: "lsp_references", Description: "Find references: every place a symbol (function, method, type, variable, field) is used " +
			"across the workspace, from the language server (LSP) the user's editor runs. More exact than grep: no false matches " +
			"in comments, strings or other symbols of the same name. Answers path:line:column and the line of each use.",
			InputSchema: schemaLSPReferences, Handler: t.references,
			Meta: searchHint("find references usages uses callers where used find all references lsp language server")},
		{Name: "lsp_hover", Description: "Hover: the type, signature and documentation of the symbol at a position, as the language " +
			"server (LSP) the user's editor runs sees it.",
			InputSchema: schemaLSPPosition, Handler: t.hover,
			Meta: searchHint("hover type signature documentation docs info inferred type lsp language server")},
		{Name: "lsp_document_symbols", Description: "Outline of one file: its functions, methods, types, fields, constants and " +
			"variables with their lines, nested as declared, from the language server (LSP) the user's editor runs.",
			InputSchema: schemaLSPFile, Handler: t.documentSymbols,
			Meta: searchHint("document symbols outline structure list functions classes methods file overview lsp language server")},
		{Name: "lsp_workspace_symbols", Description: "Search the whole workspace for symbols (functions, types, methods, …) by " +
			"name, from the language servers (LSP) the user's editor runs. Answers each symbol's kind and path:line:column.",
			InputSchema: schemaLSPWorkspaceSymbols, Handler: t.workspaceSymbols,
			Meta: searchHint("workspace symbols search find symbol by name find function find class type lookup lsp language server")},
		{Name: "lsp_call_hierarchy", Description: "Call hierarchy: the callers of a function (incoming: who calls it, and from " +
			"where) or the functions it calls (outgoing), from the language server (LSP) the user's editor runs.",
			InputSchema: schemaLSPCalls, Handler: t.calls,
			Meta: searchHint("call hierarchy callers callees incoming outgoing calls who calls lsp language server")},
		{Name: "lsp_code_actions", Description: "List the code actions (quick fixes, refactorings, organize imports) the " +
			"language server (LSP) the user's editor runs offers for some lines. Read-only: lists their titles, applies nothing.",
			InputSchema: schemaLSPCodeActions, Handler: t.codeActions,
			Meta: searchHint("code actions quick fix quickfix refactor refactoring organize imports lsp language server")},
		{Name: "lsp_rename", Description: "Rename a symbol everywhere it is used, by the language server (LSP) the user's editor " +
			"runs: the edits open in the user's diff review in the editor, file by file, and nothing is written unless the user " +
			"accepts. Returns at once; the result is not reported back.",
			InputSchema: schemaLSPRename, Handler: t.rename,
			Meta: searchHint("rename symbol refactor rename variable function across files lsp language server")},
	}
}

func searchHint(words string) map[string]any { return map[string]any{"anthropic/searchHint": words} }

type lspTools struct{ ls LanguageServers }

// lspArgs are the arguments every tool takes some of.
type lspArgs struct {
	Path               string `json:"path"`
	Line               int    `json:"line"`
	Column             int    `json:"column"`
	Symbol             string `json:"symbol"`
	EndLine            int    `json:"end_line"`
	Kind               string `json:"kind"`
	Direction          string `json:"direction"`
	Query              string `json:"query"`
	NewName            string `json:"new_name"`
	IncludeDeclaration bool   `json:"include_declaration"`
	MaxResults         int    `json:"max_results"`
}

// query checks raw as a question about a position (position) or about a
// file, and turns it into an LSPQuery for op.
func (a *lspArgs) query(raw json.RawMessage, op string, position bool) (LSPQuery, error) {
	if err := DecodeArgs(raw, a); err != nil {
		return LSPQuery{}, err
	}
	if strings.TrimSpace(a.Path) == "" {
		return LSPQuery{}, fmt.Errorf("%w: path is empty", ErrInvalidParams)
	}
	if position {
		if a.Line < 1 {
			return LSPQuery{}, fmt.Errorf("%w: line must be 1 or more (lines count from 1), not %d", ErrInvalidParams, a.Line)
		}
		if a.Symbol == "" && a.Column < 1 {
			return LSPQuery{}, fmt.Errorf("%w: say where on line %d: symbol (the name there) or column (from 1)", ErrInvalidParams, a.Line)
		}
	}
	limit := a.MaxResults
	if limit <= 0 {
		limit = defaultLSPLimit
	}
	return LSPQuery{
		Op: op, Path: a.Path, Line: a.Line, Column: a.Column, Symbol: a.Symbol, EndLine: a.EndLine,
		Query: a.Query, NewName: a.NewName, IncludeDeclaration: a.IncludeDeclaration, Limit: min(limit, maxLSPLimit),
	}, nil
}

// ask runs q and formats its answer with answer; a Problem is the answer.
func (t lspTools) ask(ctx context.Context, q LSPQuery, answer func(LSPAnswer) string) (*ToolResult, error) {
	a, err := t.ls.AskLSP(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", q.Op, err)
	}
	if a.Problem != "" {
		return TextResult(a.Problem), nil
	}
	return TextResult(answer(a)), nil
}

var definitionKinds = map[string]string{
	"": LSPOpDefinition, "definition": LSPOpDefinition, "type_definition": LSPOpTypeDefinition,
	"implementation": LSPOpImplementation, "declaration": LSPOpDeclaration,
}

func (t lspTools) definition(ctx context.Context, raw json.RawMessage) (*ToolResult, error) {
	var a lspArgs
	q, err := a.query(raw, LSPOpDefinition, true)
	if err != nil {
		return nil, err
	}
	op, ok := definitionKinds[a.Kind]
	if !ok {
		return nil, fmt.Errorf("%w: kind must be definition, type_definition, implementation or declaration, not %q", ErrInvalidParams, a.Kind)
	}
	q.Op = op
	return t.ask(ctx, q, func(ans LSPAnswer) string { return formatLocations(q, ans) })
}

func (t lspTools) references(ctx context.Context, raw json.RawMessage) (*ToolResult, error) {
	var a lspArgs
	q, err := a.query(raw, LSPOpReferences, true)
	if err != nil {
		return nil, err
	}
	return t.ask(ctx, q, func(ans LSPAnswer) string { return formatLocations(q, ans) })
}

func (t lspTools) hover(ctx context.Context, raw json.RawMessage) (*ToolResult, error) {
	var a lspArgs
	q, err := a.query(raw, LSPOpHover, true)
	if err != nil {
		return nil, err
	}
	return t.ask(ctx, q, formatHover)
}

func (t lspTools) documentSymbols(ctx context.Context, raw json.RawMessage) (*ToolResult, error) {
	var a lspArgs
	q, err := a.query(raw, LSPOpDocumentSymbols, false)
	if err != nil {
		return nil, err
	}
	if a.MaxResults <= 0 {
		q.Limit = maxLSPLimit // an outline is worth having whole
	}
	return t.ask(ctx, q, func(ans LSPAnswer) string { return formatSymbols(q, ans) })
}

func (t lspTools) workspaceSymbols(ctx context.Context, raw json.RawMessage) (*ToolResult, error) {
	var a lspArgs
	if err := DecodeArgs(raw, &a); err != nil {
		return nil, err
	}
	if strings.TrimSpace(a.Query) == "" {
		return nil, fmt.Errorf("%w: query is empty: name (part of) the symbol to find", ErrInvalidParams)
	}
	if a.Path == "" {
		a.Path = "." // the servers of the whole workspace
		raw, _ = json.Marshal(a)
	}
	q, err := a.query(raw, LSPOpWorkspaceSymbols, false)
	if err != nil {
		return nil, err
	}
	return t.ask(ctx, q, func(ans LSPAnswer) string { return formatSymbols(q, ans) })
}

func (t lspTools) calls(ctx context.Context, raw json.RawMessage) (*ToolResult, error) {
	var a lspArgs
	q, err := a.query(raw, LSPOpIncomingCalls, true)
	if err != nil {
		return nil, err
	}
	switch a.Direction {
	case "", "incoming":
	case "outgoing":
		q.Op = LSPOpOutgoingCalls
	default:
		return nil, fmt.Errorf("%w: direction must be incoming or outgoing, not %q", ErrInvalidParams, a.Direction)
	}
	return t.ask(ctx, q, func(ans LSPAnswer) string { return formatCalls(q, ans) })
}

func (t lspTools) codeActions(ctx context.Context, raw json.RawMessage) (*ToolResult, error) {
	var a lspArgs
	if err := DecodeArgs(raw, &a); err != nil {
		return nil, err
	}
	if a.Symbol == "" && a.Column < 1 {
		a.Column = 1 // the whole line (range end: end_line's end)
		raw, _ = json.Marshal(a)
	}
	q, err := a.query(raw, LSPOpCodeActions, true)
	if err != nil {
		return nil, err
	}
	if q.EndLine != 0 && q.EndLine < q.Line {
		return nil, fmt.Errorf("%w: end_line %d is before line %d", ErrInvalidParams, q.EndLine, q.Line)
	}
	return t.ask(ctx, q, formatActions)
}

func (t lspTools) rename(ctx context.Context, raw json.RawMessage) (*ToolResult, error) {
	var a lspArgs
	q, err := a.query(raw, LSPOpRename, true)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(q.NewName) == "" {
		return nil, fmt.Errorf("%w: new_name is empty", ErrInvalidParams)
	}
	ans, err := t.ls.AskLSP(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("rename: %w", err)
	}
	if ans.Problem != "" {
		return TextResult(ans.Problem), nil
	}
	changes, edits, why := renameChanges(ans)
	if why != "" {
		return TextResult(why), nil
	}
	title := fmt.Sprintf("rename to %s", q.NewName)
	if err := t.ls.ProposeEdits(ctx, title, changes); err != nil {
		return nil, fmt.Errorf("rename: showing the edits: %w", err)
	}
	names := make([]string, len(changes))
	for i, c := range changes {
		names[i] = filepath.Base(c.Path)
	}
	return TextResult(fmt.Sprintf("The rename to %s (%d edits in %d files: %s) is open in the user's diff review in the editor, "+
		"one file after the other. Nothing is written unless the user accepts every file; they may take hunks back. "+
		"You are not told the outcome: read the files again before relying on it.%s",
		q.NewName, edits, len(changes), strings.Join(names, ", "), failuresNote(ans))), nil
}

// renameChanges turns a rename's answer into the files to propose, with
// how many edits they hold; why, when set, is the answer instead.
func renameChanges(ans LSPAnswer) (changes []FileChange, edits int, why string) {
	if ans.Refused != "" {
		return nil, 0, ans.Refused
	}
	var outside []string
	for _, f := range ans.Files {
		if f.Outside {
			outside = append(outside, f.Path)
		}
	}
	if len(outside) > 0 {
		return nil, 0, fmt.Sprintf("Not proposed: the rename would also change files outside the workspace (%s); nothing was opened.",
			strings.Join(outside, ", "))
	}
	for _, f := range ans.Files {
		text, err := ApplyTextEdits(f.Text, f.Edits, f.Encoding)
		if err != nil {
			return nil, 0, fmt.Sprintf("Not proposed: the server's edits to %s cannot be applied (%v); nothing was opened.", f.Path, err)
		}
		if text != f.Text {
			changes = append(changes, FileChange{Path: f.Path, OldText: f.Text, NewText: text})
			edits += len(f.Edits)
		}
	}
	if len(changes) == 0 {
		return nil, 0, "The server proposes no change for this rename (is the symbol already named so, or not renamable?)." + failuresNote(ans)
	}
	return changes, edits, ""
}
