package chatctl

import (
	"fmt"
	"unicode/utf8"

	"github.com/claude-nvim/claude.nvim/chat"
)

// maxBlockText is the most text one streamed block (a paragraph run of the answer, a
// thinking block) shows. A 200 MiB assistant line stalled Neovim 17 s in set_lines; past
// this the rest is dropped here, before it crosses to the editor, and the block ends with a
// "(cut: N MiB)" line.
const maxBlockText = 1 << 20

// blockCut counts the text of the block being streamed; run owns one per CLI.
type blockCut struct {
	kind  string // "text" or "thinking": the block being counted
	shown int    // bytes handed to the editor
	cut   int    // bytes dropped
}

// take returns the part of a delta of kind to show, "" when the block is over its budget.
func (b *blockCut) take(kind, s string) (marker []Item, shown string) {
	if kind != b.kind {
		marker = b.end()
		b.kind = kind
	}
	room := maxBlockText - b.shown
	if len(s) <= room {
		b.shown += len(s)
		return marker, s
	}
	n := max(room, 0)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	b.shown += n
	b.cut += len(s) - n
	return marker, s[:n]
}

// end closes the block: the marker of what it dropped, if anything.
func (b *blockCut) end() []Item {
	var out []Item
	if b.cut > 0 {
		out = append(out, Item{Kind: b.kind, Text: "\n" + cutMarker(b.cut)})
	}
	*b = blockCut{}
	return out
}

// cutMarker says how much was left out.
func cutMarker(n int) string {
	return fmt.Sprintf("(cut: %.1f MiB)", float64(n)/(1<<20))
}

// skippedItem tells the user of a CLI line too big to take.
func skippedItem(e chat.LineSkipped) Item {
	text := fmt.Sprintf("skipped a line of %.1f MiB from Claude: over the %d MiB limit for one line", float64(e.Bytes)/(1<<20), e.Limit>>20)
	if e.Denied != "" {
		text += "; it was a permission request, denied unread"
	}
	return Item{Kind: "error", Text: text}
}

// shownInput is a tool input as a permission item carries it to the editor, which shows a
// few of its fields (the command, the path, …) on one line: string fields cut to
// bodyMaxLine, other values left out. A 200 MiB Write content no longer crosses whole.
func shownInput(in map[string]any) map[string]any {
	out := make(map[string]any, len(in))
	for k, v := range in {
		if s, ok := v.(string); ok {
			out[k] = cut(s)
		}
	}
	return out
}
