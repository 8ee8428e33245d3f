package mcp

import (
	"log/slog"
	"net/http"
)

// maxHeaderBytes bounds a request's headers. The CLI's take under 1 KiB;
// net/http's default of 1 MiB would let each of the connections a process
// without the token may hold (Limits.PendingConns) hold a megabyte.
const maxHeaderBytes = 64 << 10

// limitedServer is the http.Server every listener of this package runs:
// the WebSocket server's and the HTTP endpoint's. One set of limits for
// both, because a local process without the token can open connections to
// either, and an endpoint without them (the chat's, before) let one hold
// 20,000 descriptors and 391 MiB of the host until nothing else could
// open a file.
//
//   - A request must arrive promptly and whole, and so must the next one
//     on a kept-alive connection (Limits.Handshake), else the connection
//     is closed. gorilla's HandshakeTimeout only covers writing the 101;
//     an upgraded connection is past all of these (gorilla clears the
//     deadlines on hijack): pongWait and writeWait govern it.
//   - At most Limits.PendingConns connections are held before an upgrade
//     (for HTTP: at all); past that the oldest idle one is closed.
//   - A refused request is answered with Connection: close (guard's
//     callers do that), so it never keeps its connection.
//
// Writing an answer is bounded by Limits.Handshake from the end of the
// request; a handler that works longer (a tool call) extends it with
// http.ResponseController before it writes.
func limitedServer(h http.Handler, l Limits, pending *pendingConns, log *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: l.Handshake,
		ReadTimeout:       l.Handshake,
		WriteTimeout:      l.Handshake,
		IdleTimeout:       l.Handshake,
		MaxHeaderBytes:    maxHeaderBytes,
		ConnState:         pending.track,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelDebug),
	}
}
