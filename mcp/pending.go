package mcp

import (
	"container/list"
	"net"
	"net/http"
	"sync"
)

// pendingConns caps the connections the http.Server holds before an
// upgrade: every connection from a process without the token, and the
// CLI's own for the moment between accept and the upgrade. (The HTTP
// endpoint never upgrades: its cap is on all its connections, the chat
// CLIs' kept-alive ones included; one closed for a newcomer is reopened.) It runs as the
// server's ConnState hook, which net/http calls on the accepting goroutine
// for a new connection, so the cap holds at the listener: no request is
// read from a connection over it.
//
// Over the cap the oldest idle connection is closed, not the newest. A
// process without the token can hold connections only by keeping them
// silent or trickling a request (a refused request is answered and
// closed); refusing newcomers would let it lock the CLI out by holding
// the cap, reconnecting as each times out. Closing the oldest means the
// CLI's fresh connection survives unless the attacker opens the whole cap
// of new connections in the microseconds before the CLI's request has
// been read, and the CLI reconnects at once if it loses. Connections that
// are reading a request (StateActive) are closed only after every idle
// one, so a held-open socket never displaces a request in progress.
type pendingConns struct {
	max int

	mu    sync.Mutex
	order list.List // of *pendingConn, oldest first
	conns map[net.Conn]*list.Element
}

type pendingConn struct {
	nc     net.Conn
	active bool // a request has been read and is being answered
}

func newPendingConns(max int) *pendingConns {
	return &pendingConns{max: max, conns: map[net.Conn]*list.Element{}}
}

// track is the http.Server's ConnState hook.
func (p *pendingConns) track(nc net.Conn, st http.ConnState) {
	var evict net.Conn
	p.mu.Lock()
	switch st {
	case http.StateNew:
		p.conns[nc] = p.order.PushBack(&pendingConn{nc: nc})
		if p.order.Len() > p.max {
			evict = p.removeLocked(p.victimLocked())
		}
	case http.StateActive, http.StateIdle:
		if e := p.conns[nc]; e != nil {
			e.Value.(*pendingConn).active = st == http.StateActive
		}
	case http.StateHijacked, http.StateClosed:
		if e := p.conns[nc]; e != nil {
			p.removeLocked(e)
		}
	}
	p.mu.Unlock()
	if evict != nil {
		// net/http's goroutine for it sees the read fail and cleans up.
		_ = evict.Close()
	}
}

// victimLocked is the oldest idle connection, else the oldest.
func (p *pendingConns) victimLocked() *list.Element {
	for e := p.order.Front(); e != nil; e = e.Next() {
		if !e.Value.(*pendingConn).active {
			return e
		}
	}
	return p.order.Front()
}

func (p *pendingConns) removeLocked(e *list.Element) net.Conn {
	pc := p.order.Remove(e).(*pendingConn)
	delete(p.conns, pc.nc)
	return pc.nc
}

// len is how many connections are pending.
func (p *pendingConns) len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.order.Len()
}
