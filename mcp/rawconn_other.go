//go:build !linux

package mcp

import "net"

// wrapAccepted is the identity where raw socket calls are not worth their
// risk (see rawconn_linux.go for why Linux has them).
func wrapAccepted(nc net.Conn) net.Conn { return nc }
