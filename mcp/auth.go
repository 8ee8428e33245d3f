package mcp

import (
	"crypto/subtle"
	"net"
	"net/http"
	"strings"
)

// authHeader carries the lock file's authToken.
const authHeader = "X-Claude-Code-Ide-Authorization"

// guard is the check every listener makes before serving a request: the
// same rules for the WebSocket upgrade and the HTTP endpoint, so that a
// rule added to one cannot be missing from the other.
type guard struct {
	header string // the request header carrying the token
	want   []byte // its whole expected value: the scheme, if any, and the token
}

// newGuard expects token, after scheme ("Bearer " or ""), in header.
func newGuard(header, scheme, token string) guard {
	return guard{header: header, want: []byte(scheme + token)}
}

// vet decides whether a request may be served. It returns 0 to allow,
// else the HTTP status to refuse with and why (for the log; never the
// token). The order matters: a browser page is refused for being a
// browser before it learns anything about the token.
func (g guard) vet(r *http.Request) (status int, why string) {
	if !loopbackHost(r.Host) {
		// DNS rebinding: a page at evil.example resolving to 127.0.0.1
		// still sends Host: evil.example.
		return http.StatusForbidden, "non-loopback Host header"
	}
	if _, ok := r.Header["Origin"]; ok {
		// The CLI sends no Origin; browsers always do (CVE-2025-52882).
		return http.StatusForbidden, "Origin header present"
	}
	got := r.Header.Get(g.header)
	if got == "" {
		return http.StatusUnauthorized, "missing auth token"
	}
	if subtle.ConstantTimeCompare([]byte(got), g.want) != 1 {
		return http.StatusUnauthorized, "wrong auth token"
	}
	return 0, ""
}

// VetHTTP applies the HTTPEndpoint's checks to a request another process
// received (the relay carries a remote chat CLI's --mcp-config requests,
// issue 41): a loopback Host, no Origin, "Authorization: Bearer <token>".
// It returns 0 to allow, else the status to refuse with and why.
func VetHTTP(r *http.Request, token string) (status int, why string) {
	return newGuard("Authorization", "Bearer ", token).vet(r)
}

// loopbackHost reports whether a Host header names this machine by a
// loopback name: 127.0.0.1, localhost or [::1], with or without a port.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, port, err := net.SplitHostPort(hostport); err == nil {
		if port == "" || strings.Trim(port, "0123456789") != "" {
			return false
		}
		host = h
	} else if strings.HasPrefix(hostport, "[") && strings.HasSuffix(hostport, "]") {
		host = hostport[1 : len(hostport)-1]
	}
	switch strings.ToLower(host) {
	case "127.0.0.1", "localhost", "::1":
		return true
	}
	return false
}

// VetUpgrade applies the checks the Server makes before an upgrade to a
// request another process received (the relay of package relay, which
// listens where the CLI runs and carries accepted connections here): a
// loopback Host, no Origin, the token, and a WebSocket upgrade. It returns
// 0 to allow, else the status to refuse with and why.
func VetUpgrade(r *http.Request, token string) (status int, why string) {
	if status, why := newGuard(authHeader, "", token).vet(r); status != 0 {
		return status, why
	}
	if !strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
		return http.StatusBadRequest, "not a WebSocket upgrade"
	}
	return 0, ""
}
