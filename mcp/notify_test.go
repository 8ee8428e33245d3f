package mcp_test

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"

	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
)

func TestBroadcastReachesEveryClient(t *testing.T) {
	srv, url := startServer(t, mcp.Config{})
	a := mcptest.Dial(t, url, testToken)
	a.Initialize()
	b := mcptest.Dial(t, url, testToken)
	b.Initialize()

	srv.Notify("diagnostics_changed", map[string]any{"uri": "file:///x.go"})
	for name, c := range map[string]*mcptest.Client{"first": a, "second": b} {
		got, err := c.WaitNotification("diagnostics_changed", wait)
		if err != nil {
			t.Fatalf("%s client: %v", name, err)
		}
		if string(got) != `{"uri":"file:///x.go"}` {
			t.Errorf("%s client got params %s", name, got)
		}
	}
}

func TestSelectionChangedShape(t *testing.T) {
	srv, url := startServer(t, mcp.Config{})
	c := mcptest.Dial(t, url, testToken)
	c.Initialize()
	tests := []struct {
		name string
		sel  mcp.Selection
		want string
	}{
		{"a selection is not empty",
			mcp.Selection{Text: "ab", FilePath: "/p/a b.go", Range: mcp.Range{End: mcp.Position{Line: 1, Character: 2}}},
			`{"text":"ab","filePath":"/p/a b.go","fileUrl":"file:///p/a%20b.go","selection":{"start":{"line":0,"character":0},"end":{"line":1,"character":2},"isEmpty":false}}`},
		{"a cursor is an empty selection",
			mcp.Selection{FilePath: "/p/f", Range: mcp.Range{Start: mcp.Position{Line: 3, Character: 1}, End: mcp.Position{Line: 3, Character: 1}}},
			`{"text":"","filePath":"/p/f","fileUrl":"file:///p/f","selection":{"start":{"line":3,"character":1},"end":{"line":3,"character":1},"isEmpty":true}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv.SendSelection(&tt.sel)
			got, err := c.WaitNotification("selection_changed", wait)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("selection_changed for %+v:\n got %s\nwant %s", tt.sel, got, tt.want)
			}
		})
	}
}

func TestANewClientGetsTheLatestSelectionWhenInitialized(t *testing.T) {
	srv, url := startServer(t, mcp.Config{})
	srv.SendSelection(&mcp.Selection{FilePath: "/old.go"})
	srv.SendSelection(&mcp.Selection{FilePath: "/current.go"})
	c := mcptest.Dial(t, url, testToken)
	c.Initialize()
	got, err := c.WaitNotification("selection_changed", wait)
	if err != nil {
		t.Fatal(err)
	}
	var p struct{ FilePath string }
	_ = json.Unmarshal(got, &p)
	if p.FilePath != "/current.go" {
		t.Errorf("a fresh client was told about %s, want the latest /current.go", got)
	}
}

// gate makes the server's writes block while closed, to stall a client
// without relying on socket buffer sizes.
type gate struct {
	mu   sync.Mutex
	open chan struct{} // closed while the gate is open
}

func newGate() *gate {
	g := &gate{open: make(chan struct{})}
	close(g.open)
	return g
}

func (g *gate) shut() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.open = make(chan struct{})
}

func (g *gate) reopen() {
	g.mu.Lock()
	defer g.mu.Unlock()
	select {
	case <-g.open:
	default:
		close(g.open)
	}
}

type gatedListener struct {
	net.Listener
	g *gate
}

func (l gatedListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	return gatedConn{c, l.g}, err
}

type gatedConn struct {
	net.Conn
	g *gate
}

func (c gatedConn) Write(p []byte) (int, error) {
	c.g.mu.Lock()
	open := c.g.open
	c.g.mu.Unlock()
	<-open
	return c.Conn.Write(p)
}

// stalledClient serves an initialized client through a gate on the
// server's writes, and returns with the gate shut: the client's id, and
// the gate to reopen.
func stalledClient(t *testing.T) (*mcp.Server, *mcptest.Client, string, *gate) {
	t.Helper()
	srv, url, g := startGatedServer(t)
	c := mcptest.Dial(t, url, testToken)
	c.Initialize()
	id := srv.Clients()[0].ID
	g.shut()
	return srv, c, id, g
}

// startGatedServer is startServer with a gate on the server's writes.
func startGatedServer(t *testing.T) (*mcp.Server, string, *gate) {
	t.Helper()
	srv, err := mcp.NewServer(mcp.Config{Token: testToken, Logger: mcp.NewTestLogger(t), ListenDelay: -1})
	if err != nil {
		t.Fatal(err)
	}
	g := newGate()
	ts := httptest.NewUnstartedServer(srv.Handler())
	ts.Listener = gatedListener{ts.Listener, g}
	ts.Start()
	t.Cleanup(func() {
		g.reopen()
		closeServer(t, srv)
		ts.Close()
	})
	return srv, ts.URL, g
}

func TestAStalledClientHoldsOnlyTheNewestSelection(t *testing.T) {
	srv, c, id, g := stalledClient(t)
	const n = 1000
	for i := 1; i <= n; i++ {
		srv.SendSelection(&mcp.Selection{Text: strconv.Itoa(i), FilePath: "/f.go"})
	}
	if notes, _ := srv.QueuedFor(id); notes != 0 {
		t.Errorf("%d selections queued %d notifications, want them held in the one selection slot", n, notes)
	}
	g.reopen()

	// The writer may have taken one early selection before it stalled;
	// after that only the newest is left.
	var seen []string
	for {
		raw, err := c.WaitNotification("selection_changed", wait)
		if err != nil {
			t.Fatalf("after %v: %v", seen, err)
		}
		var p struct{ Text string }
		_ = json.Unmarshal(raw, &p)
		seen = append(seen, p.Text)
		if p.Text == strconv.Itoa(n) {
			break
		}
	}
	if len(seen) > 2 {
		t.Errorf("a stalled client received %d selections (%v), want at most the one in flight and the newest", len(seen), seen)
	}
}

func TestAStalledClientsQueueIsBounded(t *testing.T) {
	srv, c, id, g := stalledClient(t)
	const n = 2000
	for i := 1; i <= n; i++ {
		srv.Notify("diagnostics_changed", map[string]int{"seq": i})
	}
	notes, _ := srv.QueuedFor(id)
	if notes == 0 || notes >= n/2 {
		t.Errorf("after %d notifications to a stalled client %d are queued, want a small bounded number", n, notes)
	}
	g.reopen()

	count := 0
	for {
		raw, err := c.WaitNotification("diagnostics_changed", wait)
		if err != nil {
			t.Fatalf("after %d notifications: %v", count, err)
		}
		count++
		var p struct{ Seq int }
		_ = json.Unmarshal(raw, &p)
		if p.Seq == n {
			break
		}
	}
	if count >= n/2 {
		t.Errorf("a stalled client received %d of %d notifications, want the oldest dropped", count, n)
	}
}

func TestMentionsWaitForTheFirstReadyClient(t *testing.T) {
	srv, url := startServer(t, mcp.Config{})
	line := func(n int) *int { return &n }
	srv.Mention(mcp.Mention{Path: "/p/a.go", LineStart: line(1), LineEnd: line(2)})
	srv.Mention(mcp.Mention{Path: "/p/dir/"})

	c := mcptest.Dial(t, url, testToken)
	c.Initialize()
	for _, want := range []string{
		`{"filePath":"/p/a.go","lineStart":1,"lineEnd":2}`,
		`{"filePath":"/p/dir/"}`,
	} {
		got, err := c.WaitNotification("at_mentioned", wait)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("queued mention delivered as %s, want %s", got, want)
		}
	}

	// With a ready client, a mention goes out at once.
	srv.Mention(mcp.Mention{Path: "/p/now.go"})
	got, err := c.WaitNotification("at_mentioned", wait)
	if err != nil || string(got) != `{"filePath":"/p/now.go"}` {
		t.Errorf("mention to a ready client: %s, %v", got, err)
	}
}

func TestQueuedMentionsAreBoundedOldestDropped(t *testing.T) {
	srv, url := startServer(t, mcp.Config{})
	const n = 100
	for i := range n {
		srv.Mention(mcp.Mention{Path: fmt.Sprintf("/m/%d", i)})
	}
	c := mcptest.Dial(t, url, testToken)
	c.Initialize()
	var first, last string
	count := 0
	for last != fmt.Sprintf("/m/%d", n-1) {
		raw, err := c.WaitNotification("at_mentioned", wait)
		if err != nil {
			t.Fatalf("after %d mentions: %v", count, err)
		}
		var p struct{ FilePath string }
		_ = json.Unmarshal(raw, &p)
		if count == 0 {
			first = p.FilePath
		}
		last = p.FilePath
		count++
	}
	// The server keeps the newest 64.
	if count != 64 || first != fmt.Sprintf("/m/%d", n-64) {
		t.Errorf("%d mentions queued before any client: delivered %d starting at %s, want the newest 64 from /m/%d", n, count, first, n-64)
	}
}

func TestDiagnosticsChangedHasTheGetDiagnosticsShape(t *testing.T) {
	srv, url := startServer(t, mcp.Config{})
	c := mcptest.Dial(t, url, testToken)
	c.Initialize()
	tests := []struct {
		name string
		fd   mcp.FileDiagnostics
		want string
	}{
		{"a file with a problem",
			mcp.FileDiagnostics{Path: "/p/a b.go", Diagnostics: []mcp.Diagnostic{{Message: "m", Severity: "Error", Code: "E1",
				Range: mcp.Range{End: mcp.Position{Line: 0, Character: 1}}}}},
			`{"uri":"file:///p/a%20b.go","diagnostics":[{"message":"m","severity":"Error","code":"E1","range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}}}]}`},
		{"a file whose problems are gone has an empty list",
			mcp.FileDiagnostics{Path: "/p/ok.go"},
			`{"uri":"file:///p/ok.go","diagnostics":[]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv.Notify("diagnostics_changed", mcp.DiagnosticsChangedParams(tt.fd))
			got, err := c.WaitNotification("diagnostics_changed", wait)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("diagnostics_changed for %+v:\n got %s\nwant %s", tt.fd, got, tt.want)
			}
		})
	}
}
