package main

import (
	"errors"
	"io"
	"os"
	"syscall"
	"testing"
	"time"
)

// socketPair returns the two ends of a blocking Unix socket pair as files,
// as libuv hands Neovim's end and ours to a job started with rpc = true.
func socketPair(t *testing.T) (ours, neovims *os.File) {
	t.Helper()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	ours, neovims = os.NewFile(uintptr(fds[0]), "stdin"), os.NewFile(uintptr(fds[1]), "neovim")
	t.Cleanup(func() { ours.Close(); neovims.Close() })
	return ours, neovims
}

func TestTheHostsEndOfAPipeFromNeovimIsServedByThePoller(t *testing.T) {
	ours, neovims := socketPair(t)
	if err := ours.SetReadDeadline(time.Now()); !errors.Is(err, os.ErrNoDeadline) {
		t.Fatalf("a blocking descriptor took a deadline (%v): the test would prove nothing", err)
	}
	in := pollable(ours)
	if in == ours {
		t.Fatal("the socket was returned as it was")
	}
	defer in.Close()
	// Only a file the poller serves takes a deadline; a read past it returns
	// at once instead of holding a thread in read(2).
	if err := in.SetReadDeadline(time.Now().Add(-time.Second)); err != nil {
		t.Fatalf("deadline on the host's end: %v", err)
	}
	if _, err := in.Read(make([]byte, 1)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("read past the deadline: %v, want the deadline's error", err)
	}
	if err := in.SetReadDeadline(time.Time{}); err != nil {
		t.Fatal(err)
	}
	if _, err := neovims.Write([]byte("msgpack")); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 7)
	if _, err := io.ReadFull(in, got); err != nil || string(got) != "msgpack" {
		t.Fatalf("read %q, %v", got, err)
	}
	// The original file is still open: os.Stdin keeps its descriptor.
	if _, err := ours.Stat(); err != nil {
		t.Fatalf("the original file: %v", err)
	}
}

func TestAFileOrTerminalAsStdinIsLeftAsItIs(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "stdin")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := pollable(f); got != f {
		t.Fatal("a regular file was duplicated")
	}
	flags, err := fcntlFlags(f)
	if err != nil {
		t.Fatal(err)
	}
	if flags&syscall.O_NONBLOCK != 0 {
		t.Fatal("a regular file was made non-blocking")
	}
}

func fcntlFlags(f *os.File) (int, error) {
	raw, err := f.SyscallConn()
	if err != nil {
		return 0, err
	}
	var flags int
	var ferr error
	_ = raw.Control(func(fd uintptr) {
		r, _, errno := syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
		flags = int(r)
		if errno != 0 {
			ferr = errno
		}
	})
	return flags, ferr
}
