package nvimapi

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	"github.com/claude-nvim/claude.nvim/mcp"
)

// OpenFile shows a file in the editor window the user last worked in.
func (e *Editor) OpenFile(ctx context.Context, req mcp.OpenFileRequest) (mcp.OpenFileResult, error) {
	var r struct {
		Message   string `msgpack:"message"`
		Filetype  string `msgpack:"filetype"`
		LineCount int    `msgpack:"line_count"`
	}
	args := map[string]any{
		"path":          req.Path,
		"preview":       req.Preview,
		"start_text":    req.StartText,
		"end_text":      req.EndText,
		"select_to_eol": req.SelectToEndOfLine,
		"start_line":    req.StartLine,
		"end_line":      req.EndLine,
		"frontmost":     req.MakeFrontmost,
	}
	if err := e.lua(ctx, &r, `return require('claude.handlers').open_file(...)`, args); err != nil {
		return mcp.OpenFileResult{}, luaError(err)
	}
	return mcp.OpenFileResult{Message: r.Message, LanguageID: languageID(r.Filetype), LineCount: r.LineCount}, nil
}

// luaDiagnostic is one diagnostic as lua/claude/tools.lua sends it: a
// positional list, cheaper than a map on both sides by the thousand.
type luaDiagnostic struct {
	Lnum     int `msgpack:",array"`
	Col      int
	EndLnum  int
	EndCol   int
	Severity string
	Message  string
	Source   string
	Code     string
}

type luaFileDiagnostics struct {
	Path  string            `msgpack:"path"`
	Items []luaDiagnostic   `msgpack:"items"`
	Lines map[string]string `msgpack:"lines"` // 0-based line number -> text
}

// Diagnostics reads vim.diagnostic for one file or for every file buffer,
// after reloading files Claude changed. One round trip, unless a reloaded
// buffer's diagnostics are still to come: then it waits for them (see
// settle.go) and reads again.
func (e *Editor) Diagnostics(ctx context.Context, path string) ([]mcp.FileDiagnostics, error) {
	var r struct {
		Reloaded []reloadedBuffer     `msgpack:"reloaded"`
		Files    []luaFileDiagnostics `msgpack:"files"`
	}
	if err := e.lua(ctx, &r, `return require('claude.handlers').refresh_and_diagnose(...)`, pathArg(path)...); err != nil {
		return nil, luaError(err)
	}
	if !e.awaitReloaded(ctx, r.Reloaded) {
		return convertFiles(r.Files, path), nil
	}
	return e.ReadDiagnostics(ctx, path)
}

// ReadDiagnostics reads vim.diagnostic as it is now, for one file or for
// every file buffer.
func (e *Editor) ReadDiagnostics(ctx context.Context, path string) ([]mcp.FileDiagnostics, error) {
	var files []luaFileDiagnostics
	if err := e.lua(ctx, &files, `return require('claude.handlers').read_diagnostics(...)`, pathArg(path)...); err != nil {
		return nil, luaError(err)
	}
	return convertFiles(files, path), nil
}

// pathArg passes path to Lua, or no argument at all for every file: a Go
// nil would arrive as vim.NIL.
func pathArg(path string) []any {
	if path == "" {
		return nil
	}
	return []any{path}
}

// convertFiles turns Lua's answer into the tool's; for one file there is
// always exactly one entry.
func convertFiles(files []luaFileDiagnostics, path string) []mcp.FileDiagnostics {
	out := make([]mcp.FileDiagnostics, 0, len(files))
	for _, f := range files {
		out = append(out, convertDiagnostics(f))
	}
	if path != "" && len(out) == 0 {
		out = append(out, mcp.FileDiagnostics{Path: path, Diagnostics: []mcp.Diagnostic{}})
	}
	return out
}

func convertDiagnostics(f luaFileDiagnostics) mcp.FileDiagnostics {
	fd := mcp.FileDiagnostics{Path: f.Path, Diagnostics: make([]mcp.Diagnostic, 0, len(f.Items))}
	col := func(line, byteCol int) int {
		return utf16Col(f.Lines[strconv.Itoa(line)], byteCol)
	}
	for _, d := range f.Items {
		fd.Diagnostics = append(fd.Diagnostics, mcp.Diagnostic{
			Message:  d.Message,
			Severity: d.Severity,
			Source:   d.Source,
			Code:     d.Code,
			Range: mcp.Range{
				Start: mcp.Position{Line: d.Lnum, Character: col(d.Lnum, d.Col)},
				End:   mcp.Position{Line: d.EndLnum, Character: col(d.EndLnum, d.EndCol)},
			},
		})
	}
	return fd
}

// OpenEditors lists the listed, loaded file buffers.
func (e *Editor) OpenEditors(ctx context.Context) ([]mcp.OpenEditor, error) {
	st, err := e.bufferState(ctx)
	if err != nil {
		return nil, err
	}
	var sel *mcp.Selection
	out := make([]mcp.OpenEditor, 0, len(st.Editors))
	for _, b := range st.Editors {
		ed := mcp.OpenEditor{Path: b.Path, Active: b.Active, Dirty: b.Dirty, LanguageID: languageID(b.Filetype), LineCount: b.LineCount}
		if b.Active {
			if sel == nil {
				sel, _ = e.LatestSelection(ctx)
			}
			if sel != nil && sel.FilePath == b.Path {
				r := sel.Range
				ed.Selection = &r
			}
		}
		out = append(out, ed)
	}
	return out, nil
}

// bufferState is what getOpenEditors and checkDocumentDirty need, read in
// one round trip (lua/claude/generation.lua buffers).
type bufferState struct {
	Gen     gens `msgpack:"gen"`
	Editors []struct {
		Path      string `msgpack:"path"`
		Active    bool   `msgpack:"active"`
		Dirty     bool   `msgpack:"dirty"`
		Filetype  string `msgpack:"filetype"`
		LineCount int    `msgpack:"line_count"`
	} `msgpack:"editors"`
	// Every file buffer in buffer order: find_buf's candidates.
	Files []struct {
		Path  string `msgpack:"path"`
		Dirty bool   `msgpack:"dirty"`
	} `msgpack:"files"`
}

// bufferState answers from the last read while no buffer or window
// changed, else reads again. Callers must not modify the result.
func (e *Editor) bufferState(ctx context.Context) (*bufferState, error) {
	now, live := e.gensNow(ctx)
	if live {
		if st, ok := e.buffers.get(now, genBuffers); ok {
			return &st, nil
		}
	}
	var st bufferState
	if err := e.lua(ctx, &st, `return require('claude.handlers').read_buffers()`); err != nil {
		return nil, luaError(err)
	}
	e.buffers.put(st.Gen, st)
	return &st, nil
}

// WorkspaceFolders lists Neovim's working directories, the current first.
func (e *Editor) WorkspaceFolders(ctx context.Context) ([]string, error) {
	now, live := e.gensNow(ctx)
	if live {
		if f, ok := e.folders.get(now, genDirs); ok && f.cwd != "" && f.cwd == e.nvimCwd() {
			return slices.Clone(f.dirs), nil
		}
	}
	return e.ReadWorkspaceFolders(ctx)
}

// ReadWorkspaceFolders asks Neovim, never the cache. A handler of a remote
// autocmd (DirChanged) must use it: its notification can reach us before
// lua/claude/generation.lua's own autocmd for the same event has bumped
// the counter, so the cache would still look current.
func (e *Editor) ReadWorkspaceFolders(ctx context.Context) ([]string, error) {
	var r struct {
		Gen  gens     `msgpack:"gen"`
		Dirs []string `msgpack:"dirs"`
	}
	cwd := e.nvimCwd() // before: a change during the read makes it differ
	if err := e.lua(ctx, &r, `return require('claude.handlers').read_folders()`); err != nil {
		return nil, luaError(err)
	}
	e.folders.put(r.Gen, folderState{dirs: slices.Clone(r.Dirs), cwd: cwd})
	return r.Dirs, nil
}

// DocumentDirty reports whether path's buffer has unsaved changes. A
// buffer named exactly path answers from the buffer state (find_buf
// prefers it too); any other path may reach a buffer through a symbolic
// link, which only Neovim's resolve() decides: that asks Neovim.
func (e *Editor) DocumentDirty(ctx context.Context, path string) (mcp.DocumentState, error) {
	if st, err := e.bufferState(ctx); err == nil {
		for _, f := range st.Files {
			if f.Path == path {
				return mcp.DocumentState{Dirty: f.Dirty}, nil
			}
		}
	}
	var st *struct {
		Dirty    bool `msgpack:"dirty"`
		Untitled bool `msgpack:"untitled"`
	}
	if err := e.lua(ctx, &st, `return require('claude.handlers').read_document_state(...)`, path); err != nil {
		return mcp.DocumentState{}, luaError(err)
	}
	if st == nil {
		return mcp.DocumentState{}, mcp.ErrDocumentNotOpen
	}
	return mcp.DocumentState{Dirty: st.Dirty, Untitled: st.Untitled}, nil
}

// SaveDocument writes path's buffer, refusing when the file changed on
// disk since it was read.
func (e *Editor) SaveDocument(ctx context.Context, path string) error {
	var status string
	if err := e.lua(ctx, &status, `return require('claude.handlers').save_document(...)`, path); err != nil {
		return luaError(err)
	}
	if status == "not open" {
		return mcp.ErrDocumentNotOpen
	}
	return nil
}

// languageID maps a filetype to what VS Code calls a language id; the
// names coincide for most languages, and "plaintext" stands for none.
func languageID(filetype string) string {
	if filetype == "" || filetype == "text" {
		return "plaintext"
	}
	return filetype
}

// luaError strips the "Error executing lua" wrapping and the Lua traceback
// from an nvim_exec_lua error, leaving a message a user or the model can
// read. Context errors pass through unchanged. Every call into Lua returns
// its error through here and adds nothing: the caller (the MCP tool, the
// host's log line) names the operation and the path, so they appear once.
func luaError(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	msg := err.Error()
	if i := strings.Index(msg, "\nstack traceback:"); i >= 0 {
		msg = msg[:i]
	}
	// "...: [string \"<nvim>\"]:12: the message" -> "the message"
	if i := strings.LastIndex(msg, "\"]:"); i >= 0 {
		rest := msg[i+3:]
		if j := strings.Index(rest, ": "); j >= 0 {
			msg = rest[j+2:]
		}
	}
	msg = strings.TrimPrefix(msg, "nvim_exec_lua: ")
	msg = strings.TrimPrefix(msg, "Error executing lua: ")
	return errors.New(strings.TrimSpace(msg))
}
