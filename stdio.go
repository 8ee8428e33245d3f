package main

import (
	"io"
	"os"
	"syscall"
)

// pollableStdio returns our stdin and stdout (the host's, or the relay's
// on a remote) as files Go's network poller serves. Neovim starts the host
// with blocking descriptors (libuv makes a child's 0-2 blocking), and a
// goroutine reading a blocking one holds its thread in read(2) with the
// host's one P still attached: the goroutine a reply from Neovim wakes then
// waited for the runtime's monitor to take the P back, on every call that
// asks Neovim (getCurrentSelection 0.35 -> 0.14 ms p50 and 200 -> 108 µs
// of CPU in peerbench, issue 42).
func pollableStdio() (io.Reader, io.WriteCloser) {
	return pollable(os.Stdin), pollable(os.Stdout)
}

// pollable returns a non-blocking duplicate of f's descriptor as a file the
// poller serves, or f itself where that is not wanted or not possible. Only
// a socket or a pipe is changed: O_NONBLOCK belongs to the open file, and a
// terminal's (the host run by hand) is the shell's too. The duplicate
// leaves f as it is: an *os.File closes its descriptor when collected, and
// os.Stdin and os.Stdout stay the process's.
func pollable(f *os.File) *os.File {
	raw, err := f.SyscallConn() // not f.Fd(): it makes the descriptor blocking
	if err != nil {
		return f
	}
	dup := -1
	_ = raw.Control(func(fd uintptr) {
		var st syscall.Stat_t
		if syscall.Fstat(int(fd), &st) != nil {
			return
		}
		if kind := st.Mode & syscall.S_IFMT; kind != syscall.S_IFSOCK && kind != syscall.S_IFIFO {
			return
		}
		if d, err := syscall.Dup(int(fd)); err == nil {
			dup = d
		}
	})
	if dup < 0 {
		return f
	}
	syscall.CloseOnExec(dup)
	if err := syscall.SetNonblock(dup, true); err != nil {
		_ = syscall.Close(dup)
		return f
	}
	return os.NewFile(uintptr(dup), f.Name())
}
