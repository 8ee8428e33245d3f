package acp

import (
	"io"

	"github.com/claude-nvim/claude.nvim/linereader"
)

// DefaultMaxLine bounds one incoming message. An update carrying a whole file or a long
// command's output is one line (10 MiB ones are normal); three times that leaves room for
// JSON escaping. A longer line is not held in memory: it is skipped and answered or
// reported (see Conn).
const DefaultMaxLine = 32 << 20

// readLines is linereader.Read over every line of r: lines of any length, one past max
// skipped and reported; it returns only when r ends or fails.
func readLines(r io.Reader, max int, line func([]byte), tooLong func(n int, head []byte)) error {
	return linereader.Read(r, max, func(b []byte) bool { line(b); return true }, tooLong)
}
