// Package linereader reads newline-delimited messages of any length from a stream: the
// stream-json a Claude CLI prints (package chat), an ACP agent's JSON-RPC (package acp), a
// stored conversation. A line past the caller's limit is skipped without being held in
// memory, and reported with its length and its first bytes, so that one huge message costs
// the reader nothing and the stream goes on. (bufio.Scanner is no use: its token limit ends
// the stream at the first long line.)
package linereader

import (
	"bufio"
	"errors"
	"io"
)

// MaxHead is how much of a skipped line is reported: enough for a message's type, id and
// method.
const MaxHead = 4 << 10

// readBuf is the reader's buffer: most lines (streamed deltas) are far shorter and are
// handed over without a copy.
const readBuf = 64 << 10

// Read calls line for each line of r, without its line ending (\n or \r\n), until r ends
// (its error, io.EOF at the end, is returned) or line returns false (nil is returned). The
// slice is valid only during the call. A line longer than max bytes is dropped and reported
// to tooLong with its length and its first MaxHead bytes.
func Read(r io.Reader, max int, line func([]byte) bool, tooLong func(n int, head []byte)) error {
	br := bufio.NewReaderSize(r, readBuf)
	var long []byte // a line that did not fit in the buffer
	var head []byte // the start of a line being dropped
	n := 0          // its length so far, also counted once dropping
	for {
		frag, err := br.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			if n == 0 {
				head = append(head[:0], frag[:min(len(frag), MaxHead)]...)
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
		more := true
		switch {
		case n > max:
			if len(head) == 0 {
				head = frag[:min(len(frag), MaxHead)]
			}
			tooLong(n, head)
		case long != nil:
			more = line(trimEOL(append(long, frag...)))
		default:
			more = line(trimEOL(frag))
		}
		if !more {
			return nil
		}
		long, head, n = nil, nil, 0 // head may alias the reader's buffer
		if err != nil {
			return err
		}
	}
}

// trimEOL cuts a line's \n and a \r before it.
func trimEOL(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] == '\n' {
		b = b[:len(b)-1]
	}
	if len(b) > 0 && b[len(b)-1] == '\r' {
		b = b[:len(b)-1]
	}
	return b
}
