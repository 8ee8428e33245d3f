package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// fakeServers answers every question with answer and records what was
// proposed.
type fakeServers struct {
	asked    []LSPQuery
	answer   LSPAnswer
	proposed []FileChange
}

func (f *fakeServers) AskLSP(_ context.Context, q LSPQuery) (LSPAnswer, error) {
	f.asked = append(f.asked, q)
	return f.answer, nil
}

func (f *fakeServers) ProposeEdits(_ context.Context, _ string, changes []FileChange) error {
	f.proposed = changes
	return nil
}

func lspTool(t *testing.T, ls LanguageServers, name string) Tool {
	t.Helper()
	for _, tool := range LSPTools(ls) {
		if tool.Name == name {
			return tool
		}
	}
	t.Fatalf("no tool %s", name)
	return Tool{}
}

// The tools are found by a model's words: the CLI defers MCP tools behind
// ToolSearch, which scores a query's words against the tool's name (split
// at "_"), its description and its _meta "anthropic/searchHint".
func TestEachLSPToolIsFoundByTheWordsAModelSearchesWith(t *testing.T) {
	d, err := newDispatcher("", "", LSPTools(&fakeServers{}), false)
	if err != nil {
		t.Fatal(err)
	}
	var list struct {
		Tools []struct {
			Name        string         `json:"name"`
			Description string         `json:"description"`
			Meta        map[string]any `json:"_meta"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(d.toolsList, &list); err != nil {
		t.Fatal(err)
	}
	found := map[string]string{}
	for _, tool := range list.Tools {
		hint, _ := tool.Meta["anthropic/searchHint"].(string)
		if hint == "" {
			t.Errorf("%s has no search hint", tool.Name)
		}
		found[tool.Name] = strings.ToLower(strings.ReplaceAll(tool.Name, "_", " ") + " " + tool.Description + " " + hint)
	}
	for query, tool := range map[string]string{
		"find references": "lsp_references", "go to definition": "lsp_definition", "callers": "lsp_call_hierarchy",
		"implementations": "lsp_definition", "outline": "lsp_document_symbols", "rename": "lsp_rename",
		"type signature": "lsp_hover", "quick fix": "lsp_code_actions", "find symbol": "lsp_workspace_symbols",
	} {
		for _, word := range strings.Fields(query) {
			if !strings.Contains(found[tool], word) {
				t.Errorf("%q: %s's name, description and hint lack %q", query, tool, word)
			}
		}
	}
	if len(list.Tools) != len(LSPToolNames) || len(list.Tools) > 8 {
		t.Errorf("%d tools listed, want the %d of LSPToolNames (at most 8: ToolSearch lists them by name)", len(list.Tools), len(LSPToolNames))
	}
}

func TestLSPToolArgumentsAreCheckedBeforeAnyServerIsAsked(t *testing.T) {
	for _, tc := range []struct{ tool, args, want string }{
		{"lsp_references", `{"path":"a.go","line":0,"column":1}`, "line must be 1 or more"},
		{"lsp_references", `{"path":"a.go","line":3}`, "say where on line 3: symbol (the name there) or column (from 1)"},
		{"lsp_references", `{"path":" ","line":3,"column":1}`, "path is empty"},
		{"lsp_definition", `{"path":"a.go","line":3,"column":1,"kind":"caller"}`, "kind must be definition, type_definition, implementation or declaration"},
		{"lsp_call_hierarchy", `{"path":"a.go","line":3,"column":1,"direction":"up"}`, "direction must be incoming or outgoing"},
		{"lsp_workspace_symbols", `{"query":""}`, "query is empty"},
		{"lsp_rename", `{"path":"a.go","line":3,"symbol":"x","new_name":""}`, "new_name is empty"},
		{"lsp_code_actions", `{"path":"a.go","line":5,"end_line":2}`, "end_line 2 is before line 5"},
	} {
		f := &fakeServers{}
		_, err := lspTool(t, f, tc.tool).Handler(context.Background(), json.RawMessage(tc.args))
		if !errors.Is(err, ErrInvalidParams) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %s: %v, want invalid params: %s", tc.tool, tc.args, err, tc.want)
		}
		if len(f.asked) != 0 {
			t.Errorf("%s %s asked the servers %v", tc.tool, tc.args, f.asked)
		}
	}
}

func TestARenameThatWouldChangeAFileOutsideTheWorkspaceProposesNothing(t *testing.T) {
	f := &fakeServers{answer: LSPAnswer{Files: []LSPFileEdit{
		{Path: "/ws/a.go", Text: "Greet\n", Encoding: "utf-16", Edits: []LSPTextEdit{{0, 0, 0, 5, "Hello"}}},
		{Path: "/elsewhere/b.go", Outside: true, Encoding: "utf-16", Edits: []LSPTextEdit{{0, 0, 0, 5, "Hello"}}},
	}}}
	r, err := lspTool(t, f, "lsp_rename").Handler(context.Background(), json.RawMessage(`{"path":"/ws/a.go","line":1,"symbol":"Greet","new_name":"Hello"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := "Not proposed: the rename would also change files outside the workspace (/elsewhere/b.go); nothing was opened."
	if got := r.Content[0].Text; got != want || f.proposed != nil {
		t.Errorf("answered %q and proposed %v; want %q and nothing proposed", got, f.proposed, want)
	}
}
