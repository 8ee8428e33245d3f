package mcp

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// ApplyTextEdits returns text with a server's edits made, as LSP defines
// them: positions name lines (ended by \n, \r\n or \r) and characters
// counted in encoding ("utf-8", "utf-16", "utf-32"); a character past the
// end of its line means the line's end; edits do not overlap and apply to
// the original text, so they are made from the last to the first.
func ApplyTextEdits(text string, edits []LSPTextEdit, encoding string) (string, error) {
	starts := lineStarts(text)
	type span struct {
		from, to int
		text     string
	}
	spans := make([]span, 0, len(edits))
	for _, e := range edits {
		from, err := byteOffset(text, starts, e.StartLine, e.StartChar, encoding)
		if err != nil {
			return "", err
		}
		to, err := byteOffset(text, starts, e.EndLine, e.EndChar, encoding)
		if err != nil {
			return "", err
		}
		if to < from {
			return "", fmt.Errorf("edit ends (%d:%d) before it starts (%d:%d)", e.EndLine, e.EndChar, e.StartLine, e.StartChar)
		}
		spans = append(spans, span{from, to, e.NewText})
	}
	// Stable: two insertions at one place keep the server's order.
	slices.SortStableFunc(spans, func(a, b span) int { return a.from - b.from })
	for i := 1; i < len(spans); i++ {
		if spans[i].from < spans[i-1].to {
			return "", errors.New("the server's edits overlap")
		}
	}
	var b strings.Builder
	b.Grow(len(text))
	at := 0
	for _, s := range spans {
		b.WriteString(text[at:s.from])
		b.WriteString(s.text)
		at = s.to
	}
	b.WriteString(text[at:])
	return b.String(), nil
}

// lineStarts are the byte offsets where text's lines begin.
func lineStarts(text string) []int {
	starts := []int{0}
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			starts = append(starts, i+1)
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		}
	}
	return starts
}

// byteOffset is the offset of a position: line past the last means the
// end of the text, a character past the line's end means its end (LSP).
func byteOffset(text string, starts []int, line, char int, encoding string) (int, error) {
	if line < 0 || char < 0 {
		return 0, fmt.Errorf("edit at a negative position %d:%d", line, char)
	}
	if line >= len(starts) {
		return len(text), nil
	}
	from := starts[line]
	end := len(text)
	if line+1 < len(starts) {
		end = starts[line+1]
	}
	content := strings.TrimRight(text[from:end], "\r\n")
	n := 0 // units counted so far
	for i := 0; i < len(content); {
		if n >= char {
			return from + i, nil
		}
		r, size := utf8.DecodeRuneInString(content[i:])
		switch encoding {
		case "utf-8":
			n += size
		case "utf-32":
			n++
		default: // utf-16, LSP's default
			n += utf16.RuneLen(r)
		}
		i += size
	}
	return from + len(content), nil
}
