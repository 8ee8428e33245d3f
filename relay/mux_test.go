package relay

import (
	"bytes"
	"io"
	"log/slog"
	"net"
	"testing"
)

// What the other side wrote before it closed a connection reaches the endpoint whole,
// and then the end: an answer written just before a close is never lost. The data and
// the close arrive together, so each round gives the stream a queued write and a close
// at once.
func TestDataBeforeACloseReachesTheEndpointBeforeItsEnd(t *testing.T) {
	m := newMux(io.Discard, slog.New(slog.DiscardHandler))
	for id := uint32(1); id <= 50; id++ {
		here, there := net.Pipe()
		if !m.add(id, here) {
			t.Fatalf("stream %d not added", id)
		}
		want := bytes.Repeat([]byte{byte('a' + id%26)}, 100)
		m.deliver(frame{conn: id, kind: kindData, payload: want})
		m.deliver(frame{conn: id, kind: kindClose})
		got, err := io.ReadAll(there)
		if err != nil && err != io.ErrClosedPipe {
			t.Fatalf("stream %d: reading the endpoint: %v", id, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("stream %d: the endpoint read %d bytes before the end, want the %d written before the close", id, len(got), len(want))
		}
		there.Close()
	}
}
