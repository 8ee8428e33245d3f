package chat

import (
	"bufio"
	"errors"
	"io"
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

// maxHead is how much of a skipped line is kept: enough for its type and request_id.
const maxHead = 4 << 10

// readBuf is the reader's buffer: most lines (deltas) are far shorter and are handed over
// without a copy.
const readBuf = 64 << 10

// readLines calls line for each line of r, without its newline, until r ends or line returns
// false. The slice is only valid during the call. A line longer than max is dropped and
// reported to tooLong with its length and its first maxHead bytes. bufio.Scanner is no use
// here: its token limit would end the stream at the first long line.
func readLines(r io.Reader, max int, line func([]byte) bool, tooLong func(n int, head []byte)) error {
	br := bufio.NewReaderSize(r, readBuf)
	var long []byte // a line that did not fit in the buffer
	var head []byte // the start of a line being dropped
	n := 0          // its length so far, also counted once dropping
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
			long = append(long, frag...)
			if !line(trimNewline(long)) {
				return nil
			}
		default:
			if !line(trimNewline(frag)) {
				return nil
			}
		}
		long, head, n = nil, nil, 0 // head may alias the reader's buffer
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
