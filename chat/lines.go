package chat

import (
	"bufio"
	"errors"
	"io"
)

// maxLine bounds one line of the CLI's output. A Read of a large file or a long Bash output
// comes back as one line (tool results of 10 MiB are normal); a line beyond this is skipped
// rather than held in memory.
const maxLine = 256 << 20

// readBuf is the reader's buffer: most lines (deltas) are far shorter and are handed over
// without a copy.
const readBuf = 64 << 10

// readLines calls line for each line of r, without its newline, until r ends or line returns
// false. The slice is only valid during the call. A line longer than max is dropped and reported to tooLong with its
// length. bufio.Scanner is no use here: its token limit would end the stream at the first
// long line.
func readLines(r io.Reader, max int, line func([]byte) bool, tooLong func(n int)) error {
	br := bufio.NewReaderSize(r, readBuf)
	var long []byte // a line that did not fit in the buffer
	n := 0          // its length so far, also counted once dropping
	for {
		frag, err := br.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			n += len(frag)
			if n <= max {
				long = append(long, frag...)
			} else {
				long = nil
			}
			continue
		case err != nil && len(frag) == 0:
			return err
		}
		// frag ends the line (with '\n', or at EOF without one).
		n += len(frag)
		switch {
		case n > max:
			tooLong(n)
		case long != nil:
			long = append(long, frag...)
			if !line(trimNewline(long)) {
				return nil
			}
		default:
			if !line(trimNewline(frag)) {
				return nil
			}
		}
		long, n = nil, 0
		if err != nil {
			return err
		}
	}
}

func trimNewline(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] == '\n' {
		b = b[:len(b)-1]
	}
	return b
}
