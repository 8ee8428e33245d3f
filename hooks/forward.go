package hooks

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"time"
)

// OriginEnv names the environment variable that tells, in a CLI the plugin started, which of
// the plugin's sessions it is (Event.Origin): the CLI's hooks inherit its environment.
const OriginEnv = "CLAUDE_NVIM_HOOK_ORIGIN"

// How long the hook waits. The CLI waits for it up to the hook's timeout (snapshotTimeout,
// 60 s, at every prompt and tool call) and a host that is stopped (SIGSTOP, a debugger) or
// stuck still accepts connections, its kernel queueing them: waiting for the reply alone
// hung the hook past 20 s, and Claude with it. A host at work sends a NUL every
// keepaliveEvery (1 s) while its handler runs, which may rightly take up to handleTimeout
// (50 s: the ledger's snapshot of a large tree), so the hook gives up after silenceTimeout
// without a byte, and after replyTimeout whatever comes.
var (
	// dialTimeout: the plugin's process answers at once or is gone.
	dialTimeout = 2 * time.Second
	// silenceTimeout: five keepalives missed. Long enough for a busy machine's hiccups, short
	// enough that a stopped host costs a prompt or a tool call a few seconds, not a minute.
	silenceTimeout = 5 * time.Second
	// replyTimeout: past handleTimeout, when a host's handler has given up, and below the
	// CLI's 60 s, so that the hook, not the CLI's kill, ends it.
	replyTimeout = handleTimeout + 5*time.Second
)

// maxReply bounds the reply kept until it is whole; the host's replies are a few lines.
const maxReply = maxEvent

// errSilent: the host sent nothing for silenceTimeout, or did not finish by replyTimeout.
var errSilent = errors.New("hooks: the plugin's process does not answer")

// Forward is the hook command (`claude-nvim -hook SOCKET`): it sends origin (the value of
// OriginEnv) and stdin to the Receiver on socket and copies the reply to stdout. Any failure
// (the plugin gone, stopped or slow past the timeouts above, a bad socket) ends it quietly,
// having printed nothing: the caller exits 0 whatever happens, so that Claude carries on as
// if no hook were set. A reply is printed only once whole, never a part.
func Forward(socket, origin string, stdin io.Reader, stdout io.Writer) error {
	conn, err := net.DialTimeout("unix", socket, dialTimeout)
	if err != nil {
		return err
	}
	defer conn.Close()
	uc := conn.(*net.UnixConn)
	deadline := time.Now().Add(replyTimeout)
	sent := make(chan error, 1)
	go func() {
		// The wire: the origin's line, then the event as the CLI wrote it.
		origin = strings.ReplaceAll(origin, "\n", " ")
		_ = uc.SetWriteDeadline(deadline)
		_, err := io.Copy(uc, io.MultiReader(strings.NewReader(origin+"\n"), stdin))
		if cerr := uc.CloseWrite(); err == nil {
			err = cerr
		}
		sent <- err
	}()
	// The reply may come before all of stdin went (an event past maxEvent is drained, not
	// read): read it regardless, then let the writer finish, or not past the deadline (a
	// stdin left open must not keep the hook).
	reply, err := readReply(uc, deadline)
	uc.Close()
	select {
	case <-sent:
	case <-time.After(time.Until(deadline)):
	}
	if err != nil {
		return err
	}
	_, err = stdout.Write(reply)
	return err
}

// readReply reads the reply to its end, without the keepalive NULs before it, giving up
// after silenceTimeout without a byte or at deadline.
func readReply(conn net.Conn, deadline time.Time) ([]byte, error) {
	var reply bytes.Buffer
	buf := make([]byte, 32<<10)
	for {
		wait := time.Now().Add(silenceTimeout)
		if wait.After(deadline) {
			wait = deadline
		}
		_ = conn.SetReadDeadline(wait)
		n, err := conn.Read(buf)
		chunk := buf[:n]
		if reply.Len() == 0 {
			chunk = bytes.TrimLeft(chunk, "\x00")
		}
		if reply.Len()+len(chunk) > maxReply {
			return nil, errors.New("hooks: the reply is too long")
		}
		reply.Write(chunk)
		switch {
		case errors.Is(err, io.EOF):
			return reply.Bytes(), nil
		case errors.Is(err, os.ErrDeadlineExceeded):
			return nil, errSilent
		case err != nil:
			return nil, err
		}
	}
}
