package mcp

import "time"

// Server-to-client notifications. None of these block: each client has a
// bounded queue drained by its writer, and a selection slot where the
// newest selection replaces any unsent one.

// maxQueuedMentions bounds the at-mentions kept while no client is ready
// (the user pressed :ClaudeSend before the CLI started); oldest dropped.
const maxQueuedMentions = 64

// Mention is an at_mentioned notification: the CLI types "@path#Lx-y" into
// its prompt.
type Mention struct {
	Path      string // absolute; a directory ends with "/"
	LineStart *int   // 0-based; nil (with LineEnd) for the whole file
	LineEnd   *int
}

// SendSelection tells every initialized client what the user has selected
// (or, with empty text, which file the cursor is in). Each client keeps only
// the newest unsent selection, so a stalled client holds one, not a queue.
// The server also keeps it for clients that initialize later, and sends it
// again when a client starts listening (the CLI drops what comes earlier),
// so a fresh CLI knows the current file. A nil sel is ignored.
func (s *Server) SendSelection(sel *Selection) {
	if sel == nil {
		return
	}
	b, err := encodeNotification("selection_changed", toWireSelection(sel))
	if err != nil {
		s.log.Error("mcp: encode selection_changed", "err", err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lastSelection = b
	for c := range s.conns {
		if c.notify.selection() {
			c.setSelectionLocked(b)
		}
	}
}

// Mention sends at_mentioned to every listening client. With none it is
// queued, up to maxQueuedMentions, and delivered in order to the first
// client that starts listening.
func (s *Server) Mention(m Mention) {
	b, err := encodeNotification("at_mentioned", struct {
		FilePath  string `json:"filePath"`
		LineStart *int   `json:"lineStart,omitempty"`
		LineEnd   *int   `json:"lineEnd,omitempty"`
	}{m.Path, m.LineStart, m.LineEnd})
	if err != nil {
		s.log.Error("mcp: encode at_mentioned", "err", err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	sent := false
	for c := range s.conns {
		if c.notify.mentions() {
			c.enqueueLocked(b)
			sent = true
		}
	}
	if sent {
		return
	}
	if len(s.mentions) >= maxQueuedMentions {
		s.mentions = s.mentions[1:]
		s.log.Warn("mcp: no client ready; dropped the oldest queued mention", "queued", maxQueuedMentions)
	}
	s.mentions = append(s.mentions, b)
}

// Notify broadcasts a notification (e.g. diagnostics_changed) to every
// initialized client. If a client's queue is full its oldest queued
// notification is dropped (and logged): notifications are advisory and
// dropping keeps the session, where closing would lose the queued mentions
// too. Responses are never dropped; they do not use this queue.
func (s *Server) Notify(method string, params any) {
	b, err := encodeNotification(method, params)
	if err != nil {
		s.log.Error("mcp: encode notification", "method", method, "err", err)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for c := range s.conns {
		if c.notify.broadcasts() {
			c.enqueueLocked(b)
		}
	}
}

// markInitialized handles notifications/initialized: broadcasts start,
// with the newest selection. Mentions wait until the client listens.
func (s *Server) markInitialized(c *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.initializeLocked(c)
}

// initializeLocked moves c on to initialized (see notifyState) and, unless
// tools/list has scheduled it already, arranges for it to listen after
// listenFallback.
func (s *Server) initializeLocked(c *conn) {
	if c.notify.initialize(s.lastSelection != nil) {
		c.setSelectionLocked(s.lastSelection)
	}
	if !c.notify.listenPending() {
		s.scheduleListeningLocked(c, listenFallback)
	}
}

// scheduleListening arranges for c to start receiving notifications after
// d; a later call replaces an earlier, still pending one.
func (s *Server) scheduleListening(c *conn, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scheduleListeningLocked(c, d)
}

func (s *Server) scheduleListeningLocked(c *conn, d time.Duration) {
	now := c.notify.scheduleListen(d, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if _, alive := s.conns[c]; alive {
			s.listenLocked(c)
		}
	})
	if now {
		s.listenLocked(c)
	}
}

// listenLocked marks c as listening: the selection it was sent before
// (which the CLI dropped) is sent again, and the mentions queued while no
// client listened are delivered.
func (s *Server) listenLocked(c *conn) {
	began, sendSelection := c.notify.listen(s.lastSelection != nil)
	if !began {
		return
	}
	if sendSelection {
		c.setSelectionLocked(s.lastSelection)
	}
	for _, b := range s.mentions {
		c.enqueueLocked(b)
	}
	s.mentions = nil
	c.log.Debug("mcp: client listening")
}

// markReady handles ide_connected: the CLI has connected. Notifications
// wait until it listens: DefaultListenDelay after its tools/list, or
// listenFallback from now if it never asks for the tools.
func (s *Server) markReady(c *conn, pid int) {
	s.mu.Lock()
	first := !c.info.Ready
	c.info.Ready = true
	s.initializeLocked(c) // a client that skips notifications/initialized
	if pid > 0 {
		c.info.PID = pid
	}
	info := c.info
	s.mu.Unlock()

	if first {
		c.log.Info("mcp: client ready", "pid", info.PID)
		if s.onReady != nil {
			s.callbacks.push(func() { s.onReady(info) })
		}
	}
}
