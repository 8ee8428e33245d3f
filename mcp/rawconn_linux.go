//go:build linux

package mcp

import (
	"io"
	"net"
	"os"
	"syscall"
	"unsafe"
)

// rawSocket is an accepted TCP connection whose Read and Write make raw
// system calls inside the runtime's poller (syscall.RawConn), instead of
// the runtime's wrapped ones. Why (issue 15): every wrapped system call
// enters the scheduler's syscall state, and the first one after the
// process has gone idle wakes the runtime's monitor thread (sysmon), which
// then polls every 20 µs for a millisecond before it sleeps again. A
// client calling a cheap tool every 100 µs kept it awake: per call about
// one futex, one nanosleep and one more context switch, measured with
// perf stat on the host. The socket is non-blocking, so a raw read or
// write never blocks the thread; when it would (EAGAIN) the poller waits
// for readiness exactly as net.Conn does, deadlines and Close included.
//
// Everything else (deadlines, Close, addresses, writev) is the embedded
// *net.TCPConn's.
type rawSocket struct {
	*net.TCPConn
	raw syscall.RawConn
}

// wrapAccepted returns nc with raw reads and writes when it is a TCP
// connection, and nc itself otherwise.
func wrapAccepted(nc net.Conn) net.Conn {
	tc, ok := nc.(*net.TCPConn)
	if !ok {
		return nc
	}
	raw, err := tc.SyscallConn()
	if err != nil {
		return nc
	}
	return &rawSocket{TCPConn: tc, raw: raw}
}

func (c *rawSocket) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	var n int
	var errno syscall.Errno
	err := c.raw.Read(func(fd uintptr) bool {
		for {
			r, _, e := syscall.RawSyscall(syscall.SYS_READ, fd, uintptr(unsafe.Pointer(&p[0])), uintptr(len(p)))
			switch e {
			case syscall.EINTR:
				continue
			case syscall.EAGAIN:
				return false // wait for the poller
			}
			n, errno = int(r), e
			return true
		}
	})
	switch {
	case err != nil:
		return 0, c.opError("read", err)
	case errno != 0:
		return 0, c.opError("read", os.NewSyscallError("read", errno))
	case n == 0:
		return 0, io.EOF
	}
	return n, nil
}

func (c *rawSocket) Write(p []byte) (int, error) {
	var n int
	var errno syscall.Errno
	err := c.raw.Write(func(fd uintptr) bool {
		for n < len(p) {
			r, _, e := syscall.RawSyscall(syscall.SYS_WRITE, fd, uintptr(unsafe.Pointer(&p[n])), uintptr(len(p)-n))
			switch e {
			case 0:
				n += int(r)
			case syscall.EINTR:
			case syscall.EAGAIN:
				return false // the socket's buffer is full: wait for room
			default:
				errno = e
				return true
			}
		}
		return true
	})
	switch {
	case err != nil:
		return n, c.opError("write", err)
	case errno != 0:
		return n, c.opError("write", os.NewSyscallError("write", errno))
	}
	return n, nil
}

// opError shapes an error as net.Conn's own are, so that callers asking
// net.Error for Timeout or errors.Is for net.ErrClosed or
// os.ErrDeadlineExceeded see what they would see without the wrapper.
func (c *rawSocket) opError(op string, err error) error {
	if oe, ok := err.(*net.OpError); ok {
		err = oe.Err // RawConn's own, with Op "raw-read"
	}
	return &net.OpError{Op: op, Net: "tcp", Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: err}
}
