package host

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/claude-nvim/claude.nvim/logfile"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/gorilla/websocket"
)

// The flood figures of issue 13: what a local process can make the
// plugin's server hold, measured against a server in a child process (this
// test binary re-run as TestFloodServerProcess) logging through logfile.Open as
// bin/claude-nvim does, so that its descriptors, log and RSS are its own.
// Not a regular test: it takes minutes and reports figures rather than
// checking them. Run it with
//
//	CLAUDE_NVIM_FLOOD=1 go test ./host -run TestFloodFigures -v -timeout 30m
//
// CLAUDE_NVIM_FLOOD_RUNS (default 3) repeats each measurement on a fresh
// server; the figures printed are medians. Only loopback traffic.

const floodToken = "flood-token-0123456789"

func TestFloodFigures(t *testing.T) {
	if os.Getenv("CLAUDE_NVIM_FLOOD") == "" {
		t.Skip("set CLAUDE_NVIM_FLOOD=1 to measure (takes minutes)")
	}
	runs := 3
	if n, err := strconv.Atoi(os.Getenv("CLAUDE_NVIM_FLOOD_RUNS")); err == nil && n > 0 {
		runs = n
	}
	type figure struct {
		name    string
		measure func(t *testing.T) map[string]float64
	}
	figures := []figure{
		{"refused connections held", measureRefusedHeld},
		{"silent connections held", measureSilentHeld},
		{"log bytes per refused request", measureRefusalLog},
		{"log size cap", measureLogCap},
		{"RSS after 100k tools/call without reading", measureCallFlood},
	}
	for _, f := range figures {
		t.Run(f.name, func(t *testing.T) {
			all := map[string][]float64{}
			for range runs {
				for k, v := range f.measure(t) {
					all[k] = append(all[k], v)
				}
			}
			keys := make([]string, 0, len(all))
			for k := range all {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				vs := all[k]
				slices.Sort(vs)
				t.Logf("%-44s median %12.1f   (runs %v)", k, vs[len(vs)/2], vs)
			}
		})
	}
}

// TestFloodServerProcess is the server side of TestFloodFigures; it runs
// only as its child.
func TestFloodServerProcess(t *testing.T) {
	logPath := os.Getenv("CLAUDE_NVIM_FLOOD_SERVER")
	if logPath == "" {
		t.Skip("the child process of TestFloodFigures")
	}
	log, closer := logfile.Open(logPath, os.Getenv("CLAUDE_NVIM_FLOOD_LEVEL"))
	defer closer.Close()
	noop := mcp.Tool{Name: "getDiagnostics", Description: "Answer an empty list",
		Handler: func(context.Context, json.RawMessage) (*mcp.ToolResult, error) { return mcp.TextResult("[]"), nil }}
	srv, err := mcp.NewServer(mcp.Config{Token: floodToken, Tools: []mcp.Tool{noop}, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	port, err := srv.Start()
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("PORT %d\n", port)
	_, _ = io.Copy(io.Discard, os.Stdin) // until the parent closes it
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = srv.Close(ctx)
}

// floodServer is a running child server.
type floodServer struct {
	addr  string // 127.0.0.1:port
	pid   int
	log   string
	stdin io.Closer
	cmd   *exec.Cmd
}

func startFloodServer(t *testing.T, level string) *floodServer {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), "claude.log")
	cmd := exec.Command(os.Args[0], "-test.run=^TestFloodServerProcess$", "-test.v=false")
	cmd.Env = append(os.Environ(), "CLAUDE_NVIM_FLOOD_SERVER="+logPath, "CLAUDE_NVIM_FLOOD_LEVEL="+level)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &floodServer{pid: cmd.Process.Pid, log: logPath, stdin: stdin, cmd: cmd}
	t.Cleanup(s.stop)
	line, err := bufio.NewReader(stdout).ReadString('\n')
	port, ok := strings.CutPrefix(strings.TrimSpace(line), "PORT ")
	if err != nil || !ok {
		t.Fatalf("flood server: %q, %v", line, err)
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	s.addr = "127.0.0.1:" + port
	return s
}

func (s *floodServer) stop() {
	if s.stdin == nil {
		return
	}
	s.stdin.Close()
	s.stdin = nil
	_ = s.cmd.Wait()
}

func (s *floodServer) fds(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/" + strconv.Itoa(s.pid) + "/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}

// status reads a "kB" field of /proc/pid/status (VmRSS, VmHWM) in MiB.
func (s *floodServer) status(t *testing.T, field string) float64 {
	t.Helper()
	data, err := os.ReadFile("/proc/" + strconv.Itoa(s.pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return float64(kb) / 1024
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, s.pid)
	return 0
}

func fileBytes(path string) float64 {
	st, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return float64(st.Size())
}

// refusedRequest is an upgrade request with a wrong token.
func refusedRequest(addr string) string {
	return "GET / HTTP/1.1\r\nHost: " + addr + "\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n" +
		"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n" +
		"Sec-WebSocket-Protocol: mcp\r\nX-Claude-Code-Ide-Authorization: wrong\r\n\r\n"
}

// refuseOnce sends one refused request on a new connection and reads the
// answer; it returns the connection, still open on our side.
func refuseOnce(t *testing.T, addr string) net.Conn {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	_ = nc.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(nc, refusedRequest(addr)); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(nc)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("refused request answered %d", resp.StatusCode)
	}
	return nc
}

// stillOpen reports, for each connection, whether the server has left it
// open for grace: its read times out instead of ending.
func stillOpen(conns []net.Conn, grace time.Duration) int {
	var wg sync.WaitGroup
	var mu sync.Mutex
	open := 0
	deadline := time.Now().Add(grace)
	for _, nc := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = nc.SetReadDeadline(deadline)
			_, err := io.Copy(io.Discard, nc)
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				mu.Lock()
				open++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return open
}

// 300 connections each answered 401, left open by the client: how many
// does the server keep?
func measureRefusedHeld(t *testing.T) map[string]float64 {
	const n = 300
	s := startFloodServer(t, "info")
	base := s.fds(t)
	var conns []net.Conn
	for range n {
		conns = append(conns, refuseOnce(t, s.addr))
	}
	fdsAfter := s.fds(t)
	open := stillOpen(conns, 2*time.Second)
	for _, nc := range conns {
		nc.Close()
	}
	return map[string]float64{
		"300 refused: left open 2 s after the answer": float64(open),
		"300 refused: server fds held after answers":  float64(fdsAfter - base),
	}
}

// 1000 connections that send nothing, then a client with the token: how
// many does the server hold, and does the client get in?
func measureSilentHeld(t *testing.T) map[string]float64 {
	const n = 1000
	s := startFloodServer(t, "info")
	base := s.fds(t)
	var conns []net.Conn
	for range n {
		nc, err := net.Dial("tcp", s.addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, nc)
	}
	start := time.Now()
	d := websocket.Dialer{Subprotocols: []string{"mcp"}, HandshakeTimeout: 10 * time.Second}
	ws, _, err := d.Dial("ws://"+s.addr, http.Header{"X-Claude-Code-Ide-Authorization": {floodToken}})
	connected := 0.0
	if err == nil {
		connected = 1
		ws.Close()
	}
	dialMs := float64(time.Since(start).Microseconds()) / 1000
	held := s.fds(t) - base
	for _, nc := range conns {
		nc.Close()
	}
	return map[string]float64{
		"1000 silent: server fds held":            float64(held),
		"1000 silent: token client connected (1)": connected,
		"1000 silent: token client dial ms":       dialMs,
	}
}

// 20000 refused requests, each on a new connection, as fast as one client
// sends them: log bytes per request, and per second of flood.
func measureRefusalLog(t *testing.T) map[string]float64 {
	const n = 20000
	s := startFloodServer(t, "info")
	before := fileBytes(s.log)
	start := time.Now()
	for range n {
		refuseOnce(t, s.addr).Close()
	}
	secs := time.Since(start).Seconds()
	during := fileBytes(s.log) - before
	s.stop() // flushes the refusal summary
	total := fileBytes(s.log) - before
	return map[string]float64{
		"20000 refused: log bytes per request": total / n,
		"20000 refused: log bytes per second":  during / secs,
		"20000 refused: requests per second":   n / secs,
	}
}

// An authenticated client sending 200000 bad frames at debug level (a
// "bad message" line each): does the log stay capped?
func measureLogCap(t *testing.T) map[string]float64 {
	const n = 200000
	s := startFloodServer(t, "debug")
	d := websocket.Dialer{Subprotocols: []string{"mcp"}}
	ws, _, err := d.Dial("ws://"+s.addr, http.Header{"X-Claude-Code-Ide-Authorization": {floodToken}})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	read := make(chan error, 1)
	go func() {
		for range n {
			if _, _, err := ws.ReadMessage(); err != nil {
				read <- err
				return
			}
		}
		read <- nil
	}()
	for range n {
		if err := ws.WriteMessage(websocket.TextMessage, []byte("x")); err != nil {
			t.Fatal(err)
		}
	}
	if err := <-read; err != nil {
		t.Fatal(err)
	}
	s.stop()
	return map[string]float64{
		"200000 debug lines: claude.log MiB":   fileBytes(s.log) / (1 << 20),
		"200000 debug lines: claude.log.1 MiB": fileBytes(s.log+".1") / (1 << 20),
	}
}

// 100000 tools/call sent without reading an answer; the RSS at its peak,
// when the client leaves, and 30 s later.
func measureCallFlood(t *testing.T) map[string]float64 {
	const n = 100000
	s := startFloodServer(t, "info")
	idle := s.status(t, "VmRSS")
	d := websocket.Dialer{Subprotocols: []string{"mcp"}}
	ws, _, err := d.Dial("ws://"+s.addr, http.Header{"X-Claude-Code-Ide-Authorization": {floodToken}})
	if err != nil {
		t.Fatal(err)
	}
	sent := 0
	start := time.Now()
	for i := range n {
		frame := `{"jsonrpc":"2.0","id":` + strconv.Itoa(i) +
			`,"method":"tools/call","params":{"name":"getDiagnostics","arguments":{},"_meta":{"progressToken":` + strconv.Itoa(i) + `}}}`
		// The server may stop reading us; it gives up on a client that
		// does not read after its write timeout (30 s).
		_ = ws.SetWriteDeadline(time.Now().Add(time.Minute))
		if err := ws.WriteMessage(websocket.TextMessage, []byte(frame)); err != nil {
			break
		}
		sent++
	}
	sendSecs := time.Since(start).Seconds()
	during := s.status(t, "VmRSS")
	ws.Close()
	left := time.Now()
	time.Sleep(time.Second) // a measurement interval, not synchronisation
	after1 := s.status(t, "VmRSS")
	time.Sleep(time.Until(left.Add(30 * time.Second)))
	return map[string]float64{
		"100k calls: frames the server took":         float64(sent),
		"100k calls: seconds sending":                sendSecs,
		"100k calls: RSS MiB idle before":            idle,
		"100k calls: RSS MiB at the end of sending":  during,
		"100k calls: RSS MiB peak (VmHWM)":           s.status(t, "VmHWM"),
		"100k calls: RSS MiB 1 s after client left":  after1,
		"100k calls: RSS MiB 30 s after client left": s.status(t, "VmRSS"),
	}
}
