package mcp

import "context"

// LanguageServers is what the language-server tools (LSPTools) need from
// the editor: its language servers, asked about a file as the editor
// holds it (unsaved text included), and its diff review for the edits a
// rename would make. nvimapi implements it on Neovim's vim.lsp clients.
//
// Positions are 1-based lines and 1-based columns counted in characters
// (Unicode code points): what a model reading a file can count.
type LanguageServers interface {
	// AskLSP sends one request to the servers attached to q.Path (all
	// running servers for workspace symbols) and gathers their answers.
	// It never waits on a server longer than the editor's timeout: a
	// server that did not answer by then is named in Failures. An answer
	// with Problem set means no server was asked (no server attached, a
	// position past the end, a file outside the workspace, …).
	AskLSP(ctx context.Context, q LSPQuery) (LSPAnswer, error)

	// ProposeEdits opens changes in the editor's diff review, one file
	// after the other, and returns once the first is open. Nothing is
	// written unless the user accepts every file; what is written is what
	// they accepted (a hunk taken back is not). The outcome is the user's
	// to see: the caller is not told.
	ProposeEdits(ctx context.Context, title string, changes []FileChange) error
}

// LSPQuery is one question to the language servers.
type LSPQuery struct {
	// Op is one of the LSPOp* constants.
	Op   string
	Path string
	// Line and Column (1-based) place the question; Symbol, when set,
	// places it on the first occurrence of that name on Line instead of
	// at Column.
	Line   int
	Column int
	Symbol string
	// EndLine ends the range of code actions (Line when 0).
	EndLine int
	// Query is what workspace symbols are searched for.
	Query string
	// NewName is a rename's new name.
	NewName string
	// IncludeDeclaration counts the declaration among the references.
	IncludeDeclaration bool
	// Limit caps the locations, symbols or calls gathered (the rest are
	// only counted).
	Limit int
}

// The questions LSPQuery.Op names, each one LSP request (two for the call
// hierarchy: prepare, then the calls).
const (
	LSPOpDefinition       = "definition"
	LSPOpTypeDefinition   = "type_definition"
	LSPOpImplementation   = "implementation"
	LSPOpDeclaration      = "declaration"
	LSPOpReferences       = "references"
	LSPOpHover            = "hover"
	LSPOpDocumentSymbols  = "document_symbols"
	LSPOpWorkspaceSymbols = "workspace_symbols"
	LSPOpIncomingCalls    = "incoming_calls"
	LSPOpOutgoingCalls    = "outgoing_calls"
	LSPOpCodeActions      = "code_actions"
	LSPOpRename           = "rename"
)

// LSPAnswer is what the servers said.
type LSPAnswer struct {
	// Problem, when set, is the whole answer: no server was asked.
	Problem string
	// Target is where the question was asked, as resolved (Symbol found,
	// Column counted); nil for questions about no position.
	Target *LSPLocation
	// Symbol is the name at Target ("" when none is there).
	Symbol string
	// Servers are the names of the servers asked.
	Servers []string
	// Failures are one line per server that failed or did not answer in
	// time ("gopls: no answer within 15 s").
	Failures []string
	// Locations answer definition, type definition, implementation,
	// declaration and references.
	Locations []LSPLocation
	// Total counts the locations, symbols or calls before Limit.
	Total int
	// Hover is the hover (or signature) text.
	Hover string
	// Symbols answer document and workspace symbols.
	Symbols []LSPSymbol
	// Calls answer the call hierarchy.
	Calls []LSPCall
	// Actions answer code actions.
	Actions []LSPAction
	// Files answer a rename: each file the edit touches.
	Files []LSPFileEdit
	// Refused, for a rename, says why its edit cannot be shown (it also
	// creates, renames or deletes files).
	Refused string
}

// LSPLocation is a place in a file. Text is the line there, when the file
// is one of the workspace's (no text is read outside it).
type LSPLocation struct {
	Path   string
	Line   int
	Column int
	Text   string
}

// LSPSymbol is one symbol of a file or of the workspace. Depth is its
// nesting in a file's outline (0 at the top).
type LSPSymbol struct {
	Name      string
	Kind      string
	Detail    string
	Container string
	Depth     int
	Location  LSPLocation
}

// LSPCall is one caller (incoming) or callee (outgoing) of a function:
// where it is, and where the calls are (in the caller for incoming, in the
// function asked about for outgoing).
type LSPCall struct {
	Name     string
	Kind     string
	Detail   string
	Location LSPLocation
	Sites    []LSPLocation
}

// LSPAction is one code action a server offers; Disabled says why it
// cannot be applied now.
type LSPAction struct {
	Title     string
	Kind      string
	Preferred bool
	Disabled  string
}

// LSPFileEdit is what a rename would change in one file: its text as the
// editor holds it now and the server's edits to it.
type LSPFileEdit struct {
	Path string
	// Text is the file as the editor holds it (its buffer, else the disk).
	Text string
	// Outside: the file is not in the workspace; its text was not read.
	Outside bool
	// Encoding is how the edits count characters: "utf-8", "utf-16" or
	// "utf-32" (the server's position encoding).
	Encoding string
	Edits    []LSPTextEdit
}

// LSPTextEdit replaces a range (0-based lines, characters in the file's
// Encoding, end exclusive) with NewText, as LSP's TextEdit.
type LSPTextEdit struct {
	StartLine, StartChar int
	EndLine, EndChar     int
	NewText              string
}

// FileChange is one file of a proposal: its text now and as proposed.
type FileChange struct {
	Path    string
	OldText string
	NewText string
}
