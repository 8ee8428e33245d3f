package mcp_test

import (
	"net/http"
	"runtime"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/mcp"
)

// A call that waits (an openDiff while the user looks at it) holds none of
// the frame it came in: the frame can be megabytes, and the host gave its
// heap back once a large proposal showed only to keep the whole frame
// resident until the view closed (peerbench, a 5 MiB proposal: 5 MiB of
// the host's RSS while shown).
func TestAWaitingCallHoldsNoneOfItsFrame(t *testing.T) {
	b := newBlocker()
	_, url := startServer(t, mcp.Config{Tools: []mcp.Tool{b.tool()}})
	ws := dialRaw(t, url, http.Header{})

	// The live heap's growth, not its size: what earlier tests' goroutines still hold
	// counts on both sides (one run under load saw more than the frame's size live).
	const size = 4 << 20
	before := liveHeap()
	sendBigCall(t, ws, size)
	recv(t, b.started, "the call to start")
	// The reader holds the frame until it has handed the call over, which may come after
	// the call started: a ping answered says it has moved on to the next frame.
	sendJSON(t, ws, `{"jsonrpc":"2.0","id":"after-big","method":"ping"}`)
	if got := string(readFrame(t, ws)); !strings.Contains(got, `"after-big"`) {
		t.Fatalf("the next frame is %q; want the ping's answer", got)
	}
	if grown := int64(liveHeap()) - int64(before); grown >= size/2 {
		t.Errorf("while the call waits, the live heap has grown by %d KiB: its %d KiB frame is still held", grown>>10, size>>10)
	}
	close(b.release)
	readFrame(t, ws)
}

// sendBigCall sends a tools/call of the blocking tool with size bytes of
// arguments; nothing of it stays referenced here.
func sendBigCall(t *testing.T, ws interface{ WriteMessage(int, []byte) error }, size int) {
	t.Helper()
	frame := `{"jsonrpc":"2.0","id":"big-1","method":"tools/call","params":{"name":"block","arguments":{"pad":"` +
		strings.Repeat("x", size) + `"}}}`
	if err := ws.WriteMessage(1, []byte(frame)); err != nil {
		t.Fatal(err)
	}
}

// liveHeap is the heap's live bytes after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
