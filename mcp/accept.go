package mcp

import "net"

// acceptor hands the http.Server each accepted connection through
// wrapAccepted (raw socket calls where they pay; see rawconn_linux.go).
type acceptor struct{ net.Listener }

func (a acceptor) Accept() (net.Conn, error) {
	nc, err := a.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return wrapAccepted(nc), nil
}
