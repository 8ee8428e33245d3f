package relay

import (
	"io"
	"log/slog"
	"sync"
)

// queueFrames bounds what waits for one connection's endpoint: a
// connection whose reader stops reading has its stream closed when this
// many data frames (up to 16 MiB) wait, instead of stalling the pipe for
// every other connection.
const queueFrames = 256

// mux carries the streams of many connections over one pipe. Both sides
// use it: the relay's endpoints are the CLI's TCP connections, the host's
// are one end of a net.Pipe its MCP server reads.
type mux struct {
	log *slog.Logger

	wmu sync.Mutex // one frame at a time on the pipe
	w   io.Writer

	mu      sync.Mutex
	streams map[uint32]*stream
	ended   bool
}

// stream is one connection carried by a mux.
type stream struct {
	id   uint32
	end  io.ReadWriteCloser
	in   chan inbound
	once sync.Once
	gone chan struct{} // closed when the stream ends, either side
}

// inbound is what arrived for a stream from the other side, in order: bytes, or its end
// (after the bytes sent before it, which are written first).
type inbound struct {
	data   []byte
	closed bool
}

func newMux(w io.Writer, log *slog.Logger) *mux {
	return &mux{w: w, log: log, streams: map[uint32]*stream{}}
}

func (m *mux) send(f frame) error {
	m.wmu.Lock()
	defer m.wmu.Unlock()
	return writeFrame(m.w, f)
}

// add starts carrying end as connection id: what end gives is sent as data
// frames, what arrives for id is written to it. The stream is registered
// before the prelude frames are sent (the relay's open and the request it
// read), so an answer that comes back at once finds it. It returns false
// when the id is taken, the mux has ended or the prelude could not be sent
// (end is then closed).
func (m *mux) add(id uint32, end io.ReadWriteCloser, prelude ...frame) bool {
	s := &stream{id: id, end: end, in: make(chan inbound, queueFrames), gone: make(chan struct{})}
	m.mu.Lock()
	if m.ended || m.streams[id] != nil {
		m.mu.Unlock()
		end.Close()
		return false
	}
	m.streams[id] = s
	m.mu.Unlock()
	for _, f := range prelude {
		if m.send(f) != nil {
			m.drop(s, false)
			return false
		}
	}
	go m.pumpOut(s)
	go m.pumpIn(s)
	return true
}

// pumpOut sends what the endpoint gives until it ends, then tells the
// other side.
func (m *mux) pumpOut(s *stream) {
	buf := make([]byte, MaxPayload)
	for {
		n, err := s.end.Read(buf)
		if n > 0 {
			if m.send(frame{conn: s.id, kind: kindData, payload: append([]byte(nil), buf[:n]...)}) != nil {
				m.drop(s, false)
				return
			}
		}
		if err != nil {
			m.drop(s, true)
			return
		}
	}
}

// pumpIn writes what arrived for the stream to its endpoint, in order.
func (m *mux) pumpIn(s *stream) {
	for {
		select {
		case in := <-s.in:
			if in.closed {
				m.drop(s, false)
				return
			}
			if _, err := s.end.Write(in.data); err != nil {
				m.drop(s, true)
				return
			}
		case <-s.gone:
			return
		}
	}
}

// drop ends a stream once: its endpoint is closed and, when tell is set
// (it ended on this side), the other side is told.
func (m *mux) drop(s *stream, tell bool) {
	s.once.Do(func() {
		close(s.gone)
		s.end.Close()
		m.mu.Lock()
		if m.streams[s.id] == s {
			delete(m.streams, s.id)
		}
		ended := m.ended
		m.mu.Unlock()
		if tell && !ended {
			_ = m.send(frame{conn: s.id, kind: kindClose})
		}
	})
}

// deliver hands a data or close frame from the pipe to its stream, in order;
// frames for a stream that has ended are dropped (the close crossed them).
func (m *mux) deliver(f frame) {
	m.mu.Lock()
	s := m.streams[f.conn]
	m.mu.Unlock()
	if s == nil {
		return
	}
	switch f.kind {
	case kindClose:
		// Behind the data that came before it: an answer written just before the
		// close reaches the endpoint before its end.
		select {
		case s.in <- inbound{closed: true}:
		case <-s.gone:
		default: // the endpoint stopped reading: what waits is lost either way
			m.drop(s, false)
		}
	case kindData:
		select {
		case s.in <- inbound{data: f.payload}:
		case <-s.gone:
		default:
			m.log.Warn("relay: a connection stopped reading; closing it", "conn", f.conn)
			m.drop(s, true)
		}
	}
}

// end closes every stream: the pipe is gone.
func (m *mux) end() {
	m.mu.Lock()
	m.ended = true
	all := make([]*stream, 0, len(m.streams))
	for _, s := range m.streams {
		all = append(all, s)
	}
	m.mu.Unlock()
	for _, s := range all {
		m.drop(s, false)
	}
}
