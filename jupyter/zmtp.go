package jupyter

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"time"
)

// ZMTP 3.0 flag bits of a frame's first byte (rfc.zeromq.org/spec/23).
const (
	flagMore    = 0x01
	flagLong    = 0x02
	flagCommand = 0x04
)

// maxFrame bounds one frame we accept: a kernel's output arrives in many
// small stream messages, and an image is a few MiB at most; anything larger
// is a broken or hostile peer.
const maxFrame = 64 << 20

// zconn is one ZMTP 3.0 connection with the NULL mechanism: the client half
// of a DEALER or SUB socket talking to a kernel's ROUTER or PUB. It is not a
// general ZeroMQ socket: one peer, no reconnection (a kernel that goes away
// is dead to us).
type zconn struct {
	c net.Conn
	r *bufio.Reader
}

// dialZMTP connects to addr and does the greeting and READY handshake as
// socketType ("DEALER" or "SUB").
func dialZMTP(ctx context.Context, addr, socketType string) (*zconn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	z := &zconn{c: c, r: bufio.NewReaderSize(c, 64<<10)}
	if dl, ok := ctx.Deadline(); ok {
		_ = c.SetDeadline(dl)
	}
	if err := z.handshake(socketType); err != nil {
		c.Close()
		return nil, fmt.Errorf("zmtp handshake with %s: %w", addr, err)
	}
	_ = c.SetDeadline(time.Time{})
	return z, nil
}

func (z *zconn) handshake(socketType string) error {
	// The greeting: signature, version 3.0 (so the peer takes our
	// subscription as a message, not a 3.1 SUBSCRIBE command), mechanism
	// NULL, as-server 0, filler.
	var g [64]byte
	g[0], g[9] = 0xFF, 0x7F
	g[10], g[11] = 3, 0
	copy(g[12:32], "NULL")
	if _, err := z.c.Write(g[:]); err != nil {
		return err
	}
	var peer [64]byte
	if _, err := io.ReadFull(z.r, peer[:]); err != nil {
		return err
	}
	if peer[0] != 0xFF || peer[9] != 0x7F || peer[10] < 3 {
		return errors.New("the peer does not speak ZMTP 3")
	}
	if string(trimZeros(peer[12:32])) != "NULL" {
		return fmt.Errorf("the peer wants security mechanism %q, not NULL", trimZeros(peer[12:32]))
	}
	if err := z.writeFrame(flagCommand, readyCommand(socketType)); err != nil {
		return err
	}
	body, cmd, _, err := z.readFrame()
	if err != nil {
		return err
	}
	if !cmd || len(body) < 6 || string(body[1:6]) != "READY" {
		if cmd && len(body) > 6 && string(body[1:6]) == "ERROR" {
			return fmt.Errorf("the peer refused: %s", body[7:])
		}
		return errors.New("the peer did not answer READY")
	}
	return nil
}

func trimZeros(b []byte) []byte {
	for i, c := range b {
		if c == 0 {
			return b[:i]
		}
	}
	return b
}

// readyCommand is the READY command with our one property, Socket-Type.
func readyCommand(socketType string) []byte {
	b := append([]byte{5}, "READY"...)
	b = append(b, byte(len("Socket-Type")))
	b = append(b, "Socket-Type"...)
	b = binary.BigEndian.AppendUint32(b, uint32(len(socketType)))
	return append(b, socketType...)
}

func (z *zconn) writeFrame(flags byte, body []byte) error {
	var hdr []byte
	if len(body) > 255 {
		hdr = binary.BigEndian.AppendUint64([]byte{flags | flagLong}, uint64(len(body)))
	} else {
		hdr = []byte{flags, byte(len(body))}
	}
	_, err := z.c.Write(append(hdr, body...))
	return err
}

// send writes one multipart message. Only one goroutine sends on a zconn.
func (z *zconn) send(frames [][]byte) error {
	for i, f := range frames {
		var flags byte
		if i < len(frames)-1 {
			flags = flagMore
		}
		if err := z.writeFrame(flags, f); err != nil {
			return err
		}
	}
	return nil
}

func (z *zconn) readFrame() (body []byte, command, more bool, err error) {
	flags, err := z.r.ReadByte()
	if err != nil {
		return nil, false, false, err
	}
	var size uint64
	if flags&flagLong != 0 {
		var b [8]byte
		if _, err := io.ReadFull(z.r, b[:]); err != nil {
			return nil, false, false, err
		}
		size = binary.BigEndian.Uint64(b[:])
	} else {
		b, err := z.r.ReadByte()
		if err != nil {
			return nil, false, false, err
		}
		size = uint64(b)
	}
	if size > maxFrame {
		return nil, false, false, fmt.Errorf("a %d-byte frame is over the %d-byte limit", size, maxFrame)
	}
	body = make([]byte, size)
	if _, err := io.ReadFull(z.r, body); err != nil {
		return nil, false, false, err
	}
	return body, flags&flagCommand != 0, flags&flagMore != 0, nil
}

// recv reads the next multipart message, skipping commands (a peer may
// send PING or others between messages). Only one goroutine reads.
func (z *zconn) recv() ([][]byte, error) {
	var frames [][]byte
	for {
		body, cmd, more, err := z.readFrame()
		if err != nil {
			return nil, err
		}
		if cmd {
			continue
		}
		frames = append(frames, body)
		if !more {
			return frames, nil
		}
	}
}

func (z *zconn) Close() error { return z.c.Close() }
