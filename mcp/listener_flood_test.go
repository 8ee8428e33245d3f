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
// server hold them, and a client with the token is served meanwhile.
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
			for i := range floodConns {
				nc, err := net.Dial("tcp", addr)
				if err != nil {
					t.Fatalf("connection %d: %v", i, err)
				}
				t.Cleanup(func() { nc.Close() })
				if i%2 == 0 {
					refusedKeepAlive(t, nc, addr)
				}
				if i%500 == 499 {
					if err := served(); err != nil {
						t.Fatalf("a client with the token after %d connections without: %v", i+1, err)
					}
				}
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
			t.Logf("%s: descriptors held for connections %d -> %d after %d connections without the token (cap %d); test process RSS %d -> %d KiB",
				l.name, fdsBefore, held, floodConns, mcp.DefaultLimits.PendingConns, rssBefore, rssKiB(t))
			if held > bound {
				t.Errorf("the server holds %d connections of %d opened without the token, want at most %d", held, floodConns, bound)
			}
		})
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

// rssKiB is this process's resident memory (server and test clients).
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
