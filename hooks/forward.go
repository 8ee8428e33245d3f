package hooks

import (
	"io"
	"net"
	"strings"
	"time"
)

// OriginEnv names the environment variable that tells, in a CLI the plugin started, which of
// the plugin's sessions it is (Event.Origin): the CLI's hooks inherit its environment.
const OriginEnv = "CLAUDE_NVIM_HOOK_ORIGIN"

// dialTimeout: the plugin's process answers at once or is gone.
const dialTimeout = 2 * time.Second

// Forward is the hook command (`claude-nvim -hook SOCKET`): it sends origin (the value of
// OriginEnv) and stdin to the Receiver on socket and copies the reply to stdout. Any failure (the plugin gone, a bad socket) ends it
// quietly: the caller exits 0 whatever happens, so that Claude carries on as if no hook were
// set.
func Forward(socket, origin string, stdin io.Reader, stdout io.Writer) error {
	conn, err := net.DialTimeout("unix", socket, dialTimeout)
	if err != nil {
		return err
	}
	defer conn.Close()
	uc := conn.(*net.UnixConn)
	sent := make(chan error, 1)
	go func() {
		// The wire: the origin's line, then the event as the CLI wrote it.
		origin = strings.ReplaceAll(origin, "\n", " ")
		_, err := io.Copy(uc, io.MultiReader(strings.NewReader(origin+"\n"), stdin))
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
