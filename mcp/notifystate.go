package mcp

import "time"

// notifyStage is how far a client has come toward hearing our
// notifications. It only moves forward:
//
//	connected → initialized → owesSelection → listening
//
// with shortcuts from connected and initialized straight to listening.
type notifyStage int

const (
	// connected: upgraded, no notifications/initialized (or
	// ide_connected) yet; nothing is sent.
	stageConnected notifyStage = iota
	// initialized: selections and broadcasts flow; mentions wait until
	// the client listens.
	stageInitialized
	// owesSelection: initialized, and a selection went out that the CLI
	// drops (its handlers do not exist yet): it goes again on listening.
	stageOwesSelection
	// listening: the client's notification handlers exist; mentions flow
	// too.
	stageListening
)

var stageNames = [...]string{"connected", "initialized", "owesSelection", "listening"}

func (st notifyStage) String() string { return stageNames[st] }

// notifyState is one connection's notification state machine. Each
// transition is one method; the Server acts on what it returns (sending
// the selection, delivering queued mentions). Guarded by srv.mu, like the
// rest of a conn's queue state.
type notifyState struct {
	stage notifyStage
	timer *time.Timer // the pending switch to listening, if any
}

// initialize is notifications/initialized or ide_connected. A newly
// initialized client is sent the newest selection if there is one
// (haveSelection), and then owes it again on listening.
func (n *notifyState) initialize(haveSelection bool) (sendSelection bool) {
	if n.stage != stageConnected {
		return false
	}
	n.stage = stageInitialized
	if haveSelection {
		n.stage = stageOwesSelection
	}
	return haveSelection
}

// selection is a new selection: it reports whether this client gets it.
// One sent before the client listens is owed again.
func (n *notifyState) selection() (send bool) {
	switch n.stage {
	case stageConnected:
		return false
	case stageInitialized:
		n.stage = stageOwesSelection
	}
	return true
}

// broadcasts reports whether Notify reaches this client.
func (n *notifyState) broadcasts() bool { return n.stage != stageConnected }

// mentions reports whether at_mentioned reaches this client.
func (n *notifyState) mentions() bool { return n.stage == stageListening }

// listen switches to listening. began is false if the client already
// listened. sendSelection says whether to send the newest selection
// (haveSelection): again if it was owed, or for the first time for a client
// that listens before it initialized.
func (n *notifyState) listen(haveSelection bool) (began, sendSelection bool) {
	from := n.stage
	if from == stageListening {
		return false, false
	}
	n.stage = stageListening
	n.stop()
	return true, haveSelection && (from == stageOwesSelection || from == stageConnected)
}

// listenPending reports whether the client listens or will, on a timer.
func (n *notifyState) listenPending() bool {
	return n.stage == stageListening || n.timer != nil
}

// scheduleListen arranges for fire to run after d, replacing a pending
// timer. now is true if d <= 0: the caller switches at once. A client that
// listens already needs neither.
func (n *notifyState) scheduleListen(d time.Duration, fire func()) (now bool) {
	if n.stage == stageListening {
		return false
	}
	n.stop()
	if d <= 0 {
		return true
	}
	n.timer = time.AfterFunc(d, fire)
	return false
}

// stop cancels a pending switch to listening (the connection ended, or a
// new schedule replaces it).
func (n *notifyState) stop() {
	if n.timer != nil {
		n.timer.Stop()
		n.timer = nil
	}
}
