package nvimapi

import (
	"unicode/utf8"
)

// utf16Len counts the UTF-16 code units of s, the unit LSP and the VS Code
// extension measure characters in. Invalid bytes count as one unit each,
// as U+FFFD would.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// utf16Col converts a 0-based byte offset into line to UTF-16 units,
// clamping offsets past the end (Neovim reports the column after the last
// character in insert mode, and MAXCOL for `$`).
func utf16Col(line string, byteCol int) int {
	if byteCol <= 0 {
		return 0
	}
	if byteCol > len(line) {
		byteCol = len(line)
	}
	return utf16Len(line[:byteCol])
}

// charEnd returns the byte offset just after the character that starts at
// (or contains) byteCol, clamped to the line.
func charEnd(line string, byteCol int) int {
	if byteCol < 0 {
		byteCol = 0
	}
	if byteCol >= len(line) {
		return len(line)
	}
	// Step back to the start of a character if byteCol is in its middle.
	for byteCol > 0 && !utf8.RuneStart(line[byteCol]) {
		byteCol--
	}
	_, size := utf8.DecodeRuneInString(line[byteCol:])
	return byteCol + size
}
