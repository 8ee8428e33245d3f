package chat

import (
	"io"

	"github.com/claude-nvim/claude.nvim/linereader"
)

// maxLine bounds one line of a stored conversation's file. A Read of a large file or a long
// Bash output is stored as one line (tool results of 10 MiB are normal); a line beyond this
// is skipped rather than held in memory.
const maxLine = 256 << 20

// maxStreamLine bounds one line of a running CLI's output. Decoding a line costs about ten
// times its size on the way to the editor (the line, its message, its blocks, the event, the
// item): a 200 MiB tool input took the host to 2.2 GiB. A line beyond this (three times the
// 10 MiB tool results that are normal) is skipped, and the user told (LineSkipped).
const maxStreamLine = 32 << 20

// readLines is linereader.Read: lines of any length, one past max skipped and reported.
func readLines(r io.Reader, max int, line func([]byte) bool, tooLong func(n int, head []byte)) error {
	return linereader.Read(r, max, line, tooLong)
}
