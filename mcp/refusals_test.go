package mcp_test

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
)

// refuse makes one upgrade attempt that the server must refuse.
func refuse(t *testing.T, url string, h http.Header) {
	t.Helper()
	ws, resp, err := mcptest.DialConn(url, h)
	if err == nil {
		ws.Close()
		t.Fatalf("an upgrade with %v was accepted", h)
	}
	if resp == nil {
		t.Fatalf("an upgrade with %v: %v, want an HTTP refusal", h, err)
	}
}

var countAttr = regexp.MustCompile(` count=(\d+)`)

// summarised adds up the count= of the summary lines.
func summarised(t *testing.T, lines []string) int {
	t.Helper()
	n := 0
	for _, line := range lines {
		m := countAttr.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("summary line without a count: %s", line)
		}
		c, _ := strconv.Atoi(m[1])
		n += c
	}
	return n
}

const (
	refusedMsg    = "mcp: refused connection"
	refusedSumMsg = "mcp: more connections refused; not logged one by one"
)

func TestRefusalsPastTheBurstAreCountedInOneLine(t *testing.T) {
	var log mcp.LogBuffer
	srv, url := startServer(t, mcp.Config{
		Logger: log.Logger(),
		Limits: mcp.Limits{RefusalLogBurst: 3, RefusalLogInterval: time.Hour},
	})
	wrong := http.Header{"X-Claude-Code-Ide-Authorization": {"wrong"}}
	browser := http.Header{"Origin": {"http://evil.example"}}
	for range 100 {
		refuse(t, url, wrong)
	}
	refuse(t, url, browser)
	if got := log.Lines(refusedMsg); len(got) != 3 {
		t.Errorf("100 refusals logged %d lines one by one, want the burst of 3:\n%s", len(got), strings.Join(got, "\n"))
	}

	// Close ends the window early, so the count is not lost.
	closeServer(t, srv)
	sums := log.Lines(refusedSumMsg)
	if len(sums) != 1 {
		t.Fatalf("%d summary lines, want 1:\n%s", len(sums), strings.Join(sums, "\n"))
	}
	if got := summarised(t, sums); got != 98 {
		t.Errorf("the summary counts %d refusals, want 98: %s", got, sums[0])
	}
	if !strings.Contains(sums[0], "Origin header present: 1") || !strings.Contains(sums[0], "wrong auth token: 97") {
		t.Errorf("the summary does not give the count per reason: %s", sums[0])
	}
}

// Whatever the timing of the windows, every refusal is either logged on
// its own or counted in a summary.
func TestEveryRefusalIsLoggedOrCounted(t *testing.T) {
	var log mcp.LogBuffer
	srv, url := startServer(t, mcp.Config{
		Logger: log.Logger(),
		Limits: mcp.Limits{RefusalLogBurst: 2, RefusalLogInterval: time.Millisecond},
	})
	const n = 200
	for range n {
		refuse(t, url, http.Header{})
	}
	closeServer(t, srv)
	alone := len(log.Lines(refusedMsg))
	counted := summarised(t, log.Lines(refusedSumMsg))
	if alone+counted != n {
		t.Errorf("%d refusals: %d logged alone and %d counted in summaries, want them to add up", n, alone, counted)
	}
}
