package mcp

import "testing"

func TestApplyTextEditsCountsCharactersAsTheServerSays(t *testing.T) {
	for _, tc := range []struct {
		name, text, encoding string
		edits                []LSPTextEdit
		want, err            string
	}{
		{"a word replaced in utf-16 after an emoji (two units)", "a😀Greet()\n", "utf-16",
			[]LSPTextEdit{{0, 3, 0, 8, "Hello"}}, "a😀Hello()\n", ""},
		{"the same place in utf-32 (one unit)", "a😀Greet()\n", "utf-32",
			[]LSPTextEdit{{0, 2, 0, 7, "Hello"}}, "a😀Hello()\n", ""},
		{"the same place in utf-8 (four bytes)", "a😀Greet()\n", "utf-8",
			[]LSPTextEdit{{0, 5, 0, 10, "Hello"}}, "a😀Hello()\n", ""},
		{"edits on several lines of a CRLF file, from the last", "x := Greet\r\ny := Greet\r\n", "utf-16",
			[]LSPTextEdit{{1, 5, 1, 10, "Hi"}, {0, 5, 0, 10, "Hi"}}, "x := Hi\r\ny := Hi\r\n", ""},
		{"a character past the line's end is its end", "ab\ncd\n", "utf-16",
			[]LSPTextEdit{{0, 1, 0, 99, "X"}}, "aX\ncd\n", ""},
		{"a line past the last is the end of the text", "ab", "utf-16",
			[]LSPTextEdit{{5, 0, 5, 0, "\nc"}}, "ab\nc", ""},
		{"two insertions at one place keep their order", "()", "utf-16",
			[]LSPTextEdit{{0, 1, 0, 1, "a"}, {0, 1, 0, 1, "b"}}, "(ab)", ""},
		{"overlapping edits are refused", "abcdef", "utf-16",
			[]LSPTextEdit{{0, 0, 0, 3, "x"}, {0, 2, 0, 4, "y"}}, "", "the server's edits overlap"},
		{"an edit ending before it starts is refused", "abcdef", "utf-16",
			[]LSPTextEdit{{0, 3, 0, 1, "x"}}, "", "edit ends (0:1) before it starts (0:3)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ApplyTextEdits(tc.text, tc.edits, tc.encoding)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Errorf("ApplyTextEdits(%q) = %q, %v; want the error %q", tc.text, got, err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("ApplyTextEdits(%q) = %q, %v; want %q", tc.text, got, err, tc.want)
			}
		})
	}
}
