package chatctl

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// A tool's summary line unfolds to its input and its result (lua/claude/chat.lua folds them).
// What crosses to the editor for that is capped, so a huge input or result (a 10 MiB file
// read) costs the editor no more than a screenful.
const (
	// bodyMaxLines is the most lines a tool's input or result unfolds to.
	bodyMaxLines = 200
	// bodyMaxLine is the longest line shown, in bytes; longer ones are cut.
	bodyMaxLine = 400
)

// cut shortens a line to bodyMaxLine bytes, on a UTF-8 boundary.
func cut(s string) string {
	if len(s) <= bodyMaxLine {
		return s
	}
	n := bodyMaxLine
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// capped adds lines to out up to bodyMaxLines, then says how many were left out.
func capped(out []string, lines []string) []string {
	for i, l := range lines {
		if len(out) >= bodyMaxLines {
			return append(out, fmt.Sprintf("… (%d more lines)", len(lines)-i))
		}
		out = append(out, cut(l))
	}
	return out
}

// inputLines shows a tool's input, one "key: value" line per field in key order; a string
// with several lines goes below its key, indented.
func inputLines(raw json.RawMessage) []string {
	var in map[string]any
	if json.Unmarshal(raw, &in) != nil || len(in) == 0 {
		if len(raw) == 0 {
			return nil
		}
		return capped(nil, []string{string(raw)})
	}
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		var v string
		if s, ok := in[k].(string); ok {
			v = s
		} else {
			b, _ := json.Marshal(in[k])
			v = string(b)
		}
		if !strings.Contains(v, "\n") {
			out = capped(out, []string{k + ": " + v})
			continue
		}
		out = capped(out, []string{k + ":"})
		lines := strings.Split(strings.TrimRight(v, "\n"), "\n")
		for i := range lines {
			lines[i] = "  " + lines[i]
		}
		out = capped(out, lines)
	}
	return out
}

// resultLines are the lines of a tool result after the first (which the summary shows).
// Only the lines shown are split off: a huge result is not copied.
func resultLines(content string) []string {
	content = strings.TrimRight(content, "\n")
	_, rest, ok := strings.Cut(content, "\n")
	if !ok {
		return nil
	}
	var out []string
	for len(out) < bodyMaxLines {
		line, more, ok := strings.Cut(rest, "\n")
		out = append(out, cut(line))
		if !ok {
			return out
		}
		rest = more
	}
	return append(out, fmt.Sprintf("… (%d more lines)", strings.Count(rest, "\n")+1))
}
