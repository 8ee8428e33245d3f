package nvimapi

import (
	"errors"
	"slices"
	"testing"

	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/claude-nvim/claude.nvim/nvimapi/selection"
)

func TestUTF16Col(t *testing.T) {
	tests := []struct {
		line    string
		byteCol int
		want    int
	}{
		{"hello", 3, 3},
		{"héllo", 3, 2},     // é is 2 bytes, 1 unit
		{"a😀b", 5, 3},       // 😀 is 4 bytes, 2 units
		{"abc", 99, 3},      // past the end: clamped (insert mode, $)
		{"abc", -1, 0},      // before the start
		{"\xffx", 2, 2},     // an invalid byte counts as one unit
		{"日本語", 6, 2},       // 3-byte characters
		{"", 0, 0},          // empty line
		{"tab\there", 4, 4}, // tabs are one unit
	}
	for _, tt := range tests {
		if got := utf16Col(tt.line, tt.byteCol); got != tt.want {
			t.Errorf("utf16Col(%q, %d) = %d, want %d", tt.line, tt.byteCol, got, tt.want)
		}
	}
}

func TestCharEndIncludesTheWholeCharacter(t *testing.T) {
	tests := []struct {
		line    string
		byteCol int
		want    int
	}{
		{"abc", 1, 2},
		{"héllo", 1, 3}, // é starts at 1 and is 2 bytes
		{"héllo", 2, 3}, // inside é: still its end
		{"a😀", 1, 5},
		{"abc", 10, 3},
	}
	for _, tt := range tests {
		if got := charEnd(tt.line, tt.byteCol); got != tt.want {
			t.Errorf("charEnd(%q, %d) = %d, want %d", tt.line, tt.byteCol, got, tt.want)
		}
	}
}

func TestSplitProposal(t *testing.T) {
	tests := []struct {
		text  string
		lines []string
		eol   bool
		dos   bool
	}{
		{"", []string{""}, false, false},
		{"a\n", []string{"a"}, true, false},
		{"a\nb", []string{"a", "b"}, false, false},
		{"a\n\n", []string{"a", ""}, true, false},
		{"a\r\nb\r\n", []string{"a", "b"}, true, true},
		{"a\r\nb", []string{"a", "b"}, false, true},
		{"a\r\nb\n", []string{"a\r", "b"}, true, false}, // mixed: kept as is
		{"\n", []string{""}, true, false},
	}
	for _, tt := range tests {
		p := splitProposal(tt.text)
		if !slices.Equal(p.Lines, tt.lines) || p.EOL != tt.eol || p.DOS != tt.dos {
			t.Errorf("splitProposal(%q) = %q eol %v dos %v, want %q eol %v dos %v", tt.text, p.Lines, p.EOL, p.DOS, tt.lines, tt.eol, tt.dos)
		}
	}
}

func TestSelectionRange(t *testing.T) {
	q := func(kind selection.Kind, sl, sc, el, ec int) selection.Query {
		return selection.Query{Kind: kind, Start: selection.Pos{Line: sl, Col: sc}, End: selection.Pos{Line: el, Col: ec}}
	}
	r := &regionText{First: "héllo wörld", Last: "ab😀cd"}
	tests := []struct {
		name string
		q    selection.Query
		want mcp.Range
	}{
		{"cursor", q(selection.Cursor, 1, 4, 1, 4), mcp.Range{Start: mcp.Position{Line: 0, Character: 2}, End: mcp.Position{Line: 0, Character: 2}}},
		{"charwise ends after a multibyte character", q(selection.Charwise, 1, 1, 2, 3), mcp.Range{Start: mcp.Position{Line: 0}, End: mcp.Position{Line: 1, Character: 4}}},
		{"charwise backwards", q(selection.Charwise, 2, 3, 1, 1), mcp.Range{Start: mcp.Position{Line: 0}, End: mcp.Position{Line: 1, Character: 4}}},
		{"linewise covers the last line", q(selection.Linewise, 1, 5, 2, 1), mcp.Range{Start: mcp.Position{Line: 0}, End: mcp.Position{Line: 1, Character: 6}}},
		{"blockwise from right to left", q(selection.Blockwise, 1, 3, 2, 1), mcp.Range{Start: mcp.Position{Line: 0}, End: mcp.Position{Line: 1, Character: 4}}},
	}
	for _, tt := range tests {
		if got := selectionRange(tt.q, r); got != tt.want {
			t.Errorf("%s: selectionRange = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestLuaErrorKeepsOnlyTheMessage(t *testing.T) {
	err := errors.New("nvim:nvim_exec_lua exception: Error executing lua: [string \"<nvim>\"]:12: File not found: /x\nstack traceback:\n\t[C]: in function 'error'")
	if got := luaError(err).Error(); got != "File not found: /x" {
		t.Errorf("luaError = %q", got)
	}
}
