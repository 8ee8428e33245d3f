package host

import (
	"context"
	"fmt"
	"time"
)

// Reconnecting after a drop: the first try after reconnectFirst, each
// failed one doubling the wait up to reconnectMax, until connected or
// stopped; a try asks for the last relay's address and token (see
// relay.HostHello), so the CLI there comes back by itself.
const (
	reconnectFirst = time.Second
	reconnectMax   = 30 * time.Second
)

// runRemote connects, and after a drop connects again (opts.Reconnect)
// until stopped; a remote that never connected is left failed.
func (h *Host) runRemote(ctx context.Context, r *remote, opts remoteOptions) {
	state, err := h.connectOnce(ctx, r, opts)
	delay := reconnectFirst
	for state == "dropped" && opts.Reconnect {
		h.remoteEnded(r, "dropped", fmt.Errorf("%v; connecting again in %s", orNoAnswer(err), delay))
		select {
		case <-ctx.Done():
			h.remoteEnded(r, "stopped", nil)
			r.setLoop(false)
			return
		case <-r.kick:
		case <-time.After(delay):
		}
		port, token := r.previous()
		r.mu.Lock()
		r.state, r.err = "connecting", ""
		r.lastPort, r.lastToken = port, token
		r.mu.Unlock()
		h.pushRemote(r)
		next, nextErr := h.connectOnce(ctx, r, opts)
		switch {
		case ctx.Err() != nil:
			state, err = "stopped", nil
		case next == "dropped": // it was connected: the next drop starts over
			err, delay = nextErr, reconnectFirst
		default: // no relay yet (the network is still down): wait longer
			err, delay = nextErr, min(delay*2, reconnectMax)
		}
	}
	r.setLoop(false)
	h.remoteEnded(r, state, err)
}

// previous is the address and token of this remote's last relay (none
// when it never connected).
func (r *remote) previous() (int, string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.link != nil {
		return r.link.Info.Port, r.link.Info.Token
	}
	return r.lastPort, r.lastToken
}

// setLoop notes whether runRemote runs for r.
func (r *remote) setLoop(on bool) {
	r.mu.Lock()
	r.looping = on
	r.mu.Unlock()
}
