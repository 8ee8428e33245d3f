package hooks

import (
	"io"
	"net"
	"time"
)

// dialTimeout: the plugin's process answers at once or is gone.
const dialTimeout = 2 * time.Second

// Forward is the hook command (`claude-nvim -hook SOCKET`): it sends stdin to the Receiver on
// socket and copies the reply to stdout. Any failure (the plugin gone, a bad socket) ends it
// quietly: the caller exits 0 whatever happens, so that Claude carries on as if no hook were
// set.
func Forward(socket string, stdin io.Reader, stdout io.Writer) error {
	conn, err := net.DialTimeout("unix", socket, dialTimeout)
	if err != nil {
		return err
	}
	defer conn.Close()
	uc := conn.(*net.UnixConn)
	sent := make(chan error, 1)
	go func() {
		_, err := io.Copy(uc, stdin)
		if cerr := uc.CloseWrite(); err == nil {
			err = cerr
		}
		sent <- err
	}()
	// The reply may come before all of stdin went (an event past maxEvent is drained, not
	// read): read it regardless, then let the writer finish.
	_, err = io.Copy(stdout, uc)
	uc.Close()
	<-sent
	return err
}
