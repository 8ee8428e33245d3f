package chatctl

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestWhatAToolUnfoldsToIsCapped(t *testing.T) {
	huge := strings.Repeat("x", 10<<20)
	many := strings.Repeat("line\n", 100000)
	for _, tc := range []struct {
		name  string
		got   []string
		first string
		n     int
		last  string
	}{
		{"an input shows one key per line, in order", inputLines(json.RawMessage(`{"limit":3,"file_path":"/a"}`)), "file_path: /a", 2, "limit: 3"},
		{"a multi-line input string goes below its key", inputLines(json.RawMessage(`{"content":"a\nb\n"}`)), "content:", 3, "  b"},
		{"a result of one line unfolds to nothing", resultLines("only\n"), "", 0, ""},
		{"a result unfolds to the lines after its first", resultLines("1\n2\n3"), "2", 2, "3"},
		{"a result of 100000 lines unfolds to a screenful and a count", resultLines(many), "line", bodyMaxLines + 1, fmt.Sprintf("… (%d more lines)", 100000-1-bodyMaxLines)},
		{"a 10 MiB line is cut", resultLines("first\n" + huge), strings.Repeat("x", bodyMaxLine) + "…", 1, strings.Repeat("x", bodyMaxLine) + "…"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if len(tc.got) != tc.n {
				t.Fatalf("got %d lines (%.80q…), want %d", len(tc.got), tc.got, tc.n)
			}
			if tc.n > 0 && (tc.got[0] != tc.first || tc.got[tc.n-1] != tc.last) {
				t.Errorf("got first %.80q last %.80q, want %.80q and %.80q", tc.got[0], tc.got[tc.n-1], tc.first, tc.last)
			}
		})
	}
}

func TestAReadResultCountsTheFilesLinesNotTheNumberAfterItsLastNewline(t *testing.T) {
	for _, tc := range []struct {
		name, content string
		want          int
	}{
		{"a file ending in a newline, numbered with tabs", "1\tone\n2\ttwo\n3\tthree\n4\t", 3},
		{"a file ending in a newline, numbered with arrows", "     1→one\n     2→two\n     3→", 2},
		{"a file without a final newline", "1\tone\n2\ttwo", 2},
		{"a file whose last line is blank", "1\tone\n2\t\n3\t", 2},
		{"a result that is no Read's", "done\n", 1},
		{"a result ending in a bare number", "one\n42", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, n := firstLine(withoutNumberedEnd(tc.content)); n != tc.want {
				t.Errorf("lines of %q = %d, want %d", tc.content, n, tc.want)
			}
		})
	}
}
