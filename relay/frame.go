package relay

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// A frame on the pipe: a 4-byte big-endian length of what follows, the
// 4-byte connection id, the kind, then the payload. Connection 0 is the link
// itself (hello, goodbye); every other id is one WebSocket connection the
// relay accepted.
const (
	headerLen = 4 + 4 + 1
	// MaxPayload bounds a frame's payload: a WebSocket message larger than
	// this (a big openDiff) is carried in several data frames, so one
	// connection never holds the pipe for long and a reader never allocates
	// more than this for a frame whatever the other side claims.
	MaxPayload = 64 << 10
	// maxHello bounds the JSON of a hello, which is read before anything is
	// known about the other side.
	maxHello = 16 << 10
)

// Kinds of frames.
const (
	kindHello = 1 // conn 0: helloMsg, each side once, host first
	kindOpen  = 2 // relay to host: a new connection (its id)
	kindData  = 3 // bytes of the connection's stream, in order
	kindClose = 4 // either side: the connection ended (no payload)
	kindError = 5 // conn 0, relay to host: why the relay is refusing or ending (text)
	// A hook event of the CLI there (hooks.Event's JSON; conn numbers the
	// event, apart from the connections) and the host's answer to it (the
	// hook's stdout). See hookbridge.go.
	kindHook      = 6
	kindHookReply = 7
)

type frame struct {
	conn    uint32
	kind    byte
	payload []byte
}

// errFrame marks a malformed frame: the link is ended, never resynchronised.
var errFrame = errors.New("malformed relay frame")

func writeFrame(w io.Writer, f frame) error {
	if len(f.payload) > MaxPayload {
		return fmt.Errorf("%w: payload %d bytes, limit %d", errFrame, len(f.payload), MaxPayload)
	}
	buf := make([]byte, headerLen+len(f.payload))
	binary.BigEndian.PutUint32(buf[0:4], uint32(4+1+len(f.payload)))
	binary.BigEndian.PutUint32(buf[4:8], f.conn)
	buf[8] = f.kind
	copy(buf[headerLen:], f.payload)
	_, err := w.Write(buf)
	return err
}

// readFrame reads one frame; a length outside [5, 5+MaxPayload] or an
// unknown kind is errFrame.
func readFrame(r io.Reader) (frame, error) {
	var hdr [headerLen]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return frame{}, err
	}
	n := binary.BigEndian.Uint32(hdr[0:4])
	if n < 5 || n > 5+MaxPayload {
		return frame{}, fmt.Errorf("%w: length %d", errFrame, n)
	}
	f := frame{conn: binary.BigEndian.Uint32(hdr[4:8]), kind: hdr[8]}
	if f.kind < kindHello || f.kind > kindHookReply {
		return frame{}, fmt.Errorf("%w: kind %d", errFrame, f.kind)
	}
	f.payload = make([]byte, n-5)
	if _, err := io.ReadFull(r, f.payload); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return frame{}, err
	}
	return f, nil
}
