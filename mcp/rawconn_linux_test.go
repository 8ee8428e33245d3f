//go:build linux

package mcp

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"testing"
	"time"
)

// rawPair is a loopback TCP connection: ours wrapped as the server wraps
// what it accepts, and the plain client end.
func rawPair(t *testing.T) (ours net.Conn, peer net.Conn) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	peer, err = net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	nc, err := acceptor{l}.Accept()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := nc.(*rawSocket); !ok {
		t.Fatalf("accepted %T, want *rawSocket", nc)
	}
	t.Cleanup(func() { nc.Close(); peer.Close() })
	return nc, peer
}

// The wrapper must behave as net.Conn does where callers look: bytes in
// order both ways (a write larger than the socket's buffers waits for the
// reader), io.EOF when the peer closes, a timeout that is a net.Error and
// os.ErrDeadlineExceeded, and net.ErrClosed after Close.
func TestRawSocketBehavesAsNetConn(t *testing.T) {
	t.Run("a write larger than the socket buffers arrives whole", func(t *testing.T) {
		ours, peer := rawPair(t)
		big := bytes.Repeat([]byte("0123456789abcdef"), 1<<20) // 16 MiB
		done := make(chan error, 1)
		go func() {
			n, err := ours.Write(big)
			if err == nil && n != len(big) {
				err = io.ErrShortWrite
			}
			done <- err
		}()
		got, err := io.ReadAll(io.LimitReader(peer, int64(len(big))))
		if err != nil {
			t.Fatal(err)
		}
		if err := <-done; err != nil {
			t.Fatalf("write: %v", err)
		}
		if !bytes.Equal(got, big) {
			t.Fatalf("read %d bytes, not the %d written", len(got), len(big))
		}
	})
	t.Run("reads what the peer wrote, then EOF", func(t *testing.T) {
		ours, peer := rawPair(t)
		if _, err := peer.Write([]byte("hello")); err != nil {
			t.Fatal(err)
		}
		peer.Close()
		got, err := io.ReadAll(ours)
		if err != nil || string(got) != "hello" {
			t.Fatalf("ReadAll = %q, %v; want hello, nil (EOF)", got, err)
		}
	})
	t.Run("a read deadline times out as net.Conn's does", func(t *testing.T) {
		ours, _ := rawPair(t)
		ours.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
		_, err := ours.Read(make([]byte, 10))
		var ne net.Error
		if !errors.As(err, &ne) || !ne.Timeout() || !errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("Read after the deadline = %v; want a net.Error timeout wrapping os.ErrDeadlineExceeded", err)
		}
	})
	t.Run("Close ends a blocked read with net.ErrClosed", func(t *testing.T) {
		ours, _ := rawPair(t)
		errc := make(chan error, 1)
		go func() {
			_, err := ours.Read(make([]byte, 10))
			errc <- err
		}()
		time.Sleep(10 * time.Millisecond) // let it block in the poller
		ours.Close()
		if err := <-errc; !errors.Is(err, net.ErrClosed) {
			t.Fatalf("Read on a closed conn = %v; want net.ErrClosed", err)
		}
		if _, err := ours.Write([]byte("x")); !errors.Is(err, net.ErrClosed) {
			t.Fatalf("Write on a closed conn = %v; want net.ErrClosed", err)
		}
	})
	t.Run("a write to a reset connection fails", func(t *testing.T) {
		ours, peer := rawPair(t)
		peer.(*net.TCPConn).SetLinger(0) // close sends RST
		peer.Close()
		var err error
		for range 100 { // the first write may land before the RST is seen
			if _, err = ours.Write(make([]byte, 1<<16)); err != nil {
				break
			}
			time.Sleep(time.Millisecond)
		}
		var oe *net.OpError
		if !errors.As(err, &oe) || oe.Op != "write" {
			t.Fatalf("Write to a reset connection = %v; want a *net.OpError for write", err)
		}
	})
}
