package acp

import (
	"bufio"
	"errors"
	"io"
)

// DefaultMaxLine bounds one incoming message. An update carrying a whole file or a long
// command's output is one line (10 MiB ones are normal); three times that leaves room for
// JSON escaping. A longer line is not held in memory: it is skipped and answered or
// reported (see Conn).
const DefaultMaxLine = 32 << 20

// maxHead is how much of a skipped line is kept: enough for its id and method.
const maxHead = 4 << 10

// readBuf is the reader's buffer: most lines (message chunks) are far shorter and are
// handed over without a copy.
const readBuf = 64 << 10

// readLines calls line for each line of r, without its newline, until r ends or fails. The
// slice is valid only during the call. A line longer than max is dropped and reported to
// tooLong with its length and its first maxHead bytes. (bufio.Scanner is no use: its token
// limit ends the stream at the first long line.)
func readLines(r io.Reader, max int, line func([]byte), tooLong func(n int, head []byte)) error {
	br := bufio.NewReaderSize(r, readBuf)
	var long []byte // a line that did not fit in the buffer
	var head []byte // the start of a line being dropped
	n := 0          // its length so far
	for {
		frag, err := br.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			if n == 0 {
				head = append(head[:0], frag[:min(len(frag), maxHead)]...)
			}
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
			if len(head) == 0 {
				head = frag[:min(len(frag), maxHead)]
			}
			tooLong(n, head)
		case long != nil:
			line(trimEOL(append(long, frag...)))
		default:
			line(trimEOL(frag))
		}
		long, head, n = nil, nil, 0 // head may alias the reader's buffer
		if err != nil {
			return err
		}
	}
}

func trimEOL(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] == '\n' {
		b = b[:len(b)-1]
	}
	if len(b) > 0 && b[len(b)-1] == '\r' {
		b = b[:len(b)-1]
	}
	return b
}
