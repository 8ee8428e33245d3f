//go:build linux

package mcp_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
)

// floodConns is how many connections the process without the token opens:
// half of them send a refused request on a kept-alive connection, half
// say nothing. The chat endpoint of issue 23 held every one of 20,000.
const floodConns = 2000

// Every listener of the package runs with the same limits: a local process
// without the token that opens many keep-alive connections cannot make the
// server hold them, and a client with the token is served meanwhile. The
// flood comes from another process (this test binary again), so that this
// one's descriptors and memory are the server's alone.
func TestAProcessWithoutTheTokenCannotMakeAListenerHoldItsConnections(t *testing.T) {
	for _, l := range []struct {
		name  string
		start func(t *testing.T) (addr string, served func() error)
	}{
		{"the HTTP endpoint", startHTTPListening},
		{"the WebSocket server", startWSListening},
	} {
		t.Run(l.name, func(t *testing.T) {
			addr, served := l.start(t)
			port := addr[strings.LastIndexByte(addr, ':')+1:]
			fdsBefore, rssBefore := serverConnFDs(t, port), rssKiB(t)
			flood := startFlood(t, addr)
			for opened := flood.next(); opened != "done"; opened = flood.next() {
				if err := served(); err != nil {
					t.Fatalf("a client with the token after %s connections without: %v", opened, err)
				}
				flood.goOn()
			}
			// The accept queue is first in, first out: once a client with
			// the token is served, every connection opened before it has
			// been accepted and counted against the cap.
			if err := served(); err != nil {
				t.Fatalf("a client with the token after the flood: %v", err)
			}
			// The cap, and that client's own connection, which may still
			// be closing.
			bound := mcp.DefaultLimits.PendingConns + 1
			held := serverConnFDs(t, port)
			t.Logf("%s: descriptors held for connections %d -> %d after %d connections without the token (cap %d); RSS %d -> %d KiB",
				l.name, fdsBefore, held, floodConns, mcp.DefaultLimits.PendingConns, rssBefore, rssKiB(t))
			if held > bound {
				t.Errorf("the server holds %d connections of %d opened without the token, want at most %d", held, floodConns, bound)
			}
		})
	}
}

// floodAddrEnv names the address TestFloodProcess floods.
const floodAddrEnv = "MCP_TEST_FLOOD_ADDR"

// TestFloodProcess is the process without the token, run by the test
// above: it opens floodConns connections to the address in floodAddrEnv,
// half of them with a refused keep-alive request, and holds them all. It
// says on stdout how many it has opened every 500 and waits for a line on
// stdin before going on; after "done" it holds them until stdin closes.
func TestFloodProcess(t *testing.T) {
	addr := os.Getenv(floodAddrEnv)
	if addr == "" {
		t.Skip("the flood of TestAProcessWithoutTheTokenCannotMakeAListenerHoldItsConnections")
	}
	in := bufio.NewReader(os.Stdin)
	for i := range floodConns {
		nc, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("connection %d: %v", i, err)
		}
		defer nc.Close()
		if i%2 == 0 {
			refusedKeepAlive(t, nc, addr)
		}
		if i%500 == 499 && i+1 < floodConns {
			fmt.Println(i + 1)
			if _, err := in.ReadString('\n'); err != nil {
				t.Fatal(err)
			}
		}
	}
	fmt.Println("done")
	_, _ = io.Copy(io.Discard, os.Stdin)
}

// flood is a running TestFloodProcess.
type flood struct {
	t     *testing.T
	lines chan string
	stdin io.WriteCloser
}

func startFlood(t *testing.T, addr string) *flood {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestFloodProcess$", "-test.v")
	cmd.Env = append(os.Environ(), floodAddrEnv+"="+addr)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
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
	f := &flood{t: t, lines: make(chan string), stdin: stdin}
	var out bytes.Buffer // the process's whole output, for a failure
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			out.WriteString(sc.Text() + "\n")
			if line := sc.Text(); line == "done" || strings.Trim(line, "0123456789") == "" {
				f.lines <- line
			}
		}
		close(f.lines)
	}()
	t.Cleanup(func() {
		stdin.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("the flood process: %v\n%s%s", err, out.String(), stderr.String())
		}
	})
	return f
}

// next is how many connections the flood has opened so far, or "done".
func (f *flood) next() string {
	f.t.Helper()
	line, ok := <-f.lines
	if !ok {
		f.t.Fatal("the flood process ended early")
	}
	return line
}

// goOn lets the flood open its next connections.
func (f *flood) goOn() {
	if _, err := io.WriteString(f.stdin, "\n"); err != nil {
		f.t.Fatal(err)
	}
}

// refusedKeepAlive sends, on nc, a request without the token that asks to
// keep the connection, and reads the refusal, which must close it; it
// leaves its own end open.
func refusedKeepAlive(t *testing.T, nc net.Conn, addr string) {
	t.Helper()
	_ = nc.SetDeadline(time.Now().Add(wait))
	req := "POST /mcp HTTP/1.1\r\nHost: " + addr + "\r\nConnection: keep-alive\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"
	if _, err := io.WriteString(nc, req); err != nil {
		t.Fatal(err)
	}
	res, err := http.ReadResponse(bufio.NewReader(nc), nil)
	if err != nil {
		t.Fatalf("the refusal: %v", err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusUnauthorized || !res.Close {
		t.Fatalf("a request without the token got %d (closing: %v), want 401 and the connection closed", res.StatusCode, res.Close)
	}
}

// startHTTPListening serves an HTTPEndpoint on a listener of its own
// and returns its address and a check that a client with the token is
// served.
func startHTTPListening(t *testing.T) (string, func() error) {
	url := serveHTTPEndpoint(t, mcp.HTTPConfig{Tools: []mcp.Tool{echoTool}})
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: wait}
	return mustURL(t, url).Host, func() error {
		req, _ := http.NewRequest("POST", url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		req.Header.Set("Authorization", "Bearer "+testToken)
		res, err := client.Do(req)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		if want := `{"jsonrpc":"2.0","id":1,"result":{}}`; string(body) != want {
			return fmt.Errorf("ping: %d %s, want %s", res.StatusCode, body, want)
		}
		return nil
	}
}

func startWSListening(t *testing.T) (string, func() error) {
	_, url := startListening(t, mcp.Config{Tools: []mcp.Tool{echoTool}})
	return mustURL(t, url).Host, func() error {
		cli := mcptest.Dial(t, url, testToken)
		defer cli.Close()
		_, err := cli.Call("ping", nil)
		return err
	}
}

// serverConnFDs counts this process's descriptors for TCP connections
// whose local port is port: the server's side of them, not the test's
// clients (whose local ports are others) nor the listener.
func serverConnFDs(t *testing.T, port string) int {
	t.Helper()
	p, err := strconv.Atoi(port)
	if err != nil {
		t.Fatal(err)
	}
	table, err := os.ReadFile("/proc/self/net/tcp")
	if err != nil {
		t.Skipf("no /proc/self/net/tcp: %v", err)
	}
	wantLocal := fmt.Sprintf(":%04X", p)
	inodes := map[string]bool{}
	for _, line := range bytes.Split(table, []byte("\n"))[1:] {
		f := strings.Fields(string(line))
		// sl local rem st tx:rx tr:when retrnsmt uid timeout inode
		if len(f) < 10 || !strings.HasSuffix(f[1], wantLocal) || f[3] == "0A" { // 0A: listening
			continue
		}
		inodes["socket:["+f[9]+"]"] = true
	}
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, fd := range fds {
		if target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && inodes[target] {
			n++
		}
	}
	return n
}

// rssKiB is this process's resident memory.
func rssKiB(t *testing.T) int {
	t.Helper()
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			return n
		}
	}
	return 0
}
