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

	const size = 4 << 20
	sendBigCall(t, ws, size)
	recv(t, b.started, "the call to start")
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	if m.HeapAlloc >= size {
		t.Errorf("while the call waits, the live heap is %d KiB: its %d KiB frame is still held", m.HeapAlloc>>10, size>>10)
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
