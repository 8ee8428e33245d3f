package relay_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/host"
	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/claude-nvim/claude.nvim/relay"
)

// wait bounds waiting for what should happen promptly; it only turns a hang
// into a failure.
const wait = 30 * time.Second

// binary is claude-nvim built for these tests: the relay runs as the child
// process it is on the remote side.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "relay-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "claude-nvim")
	build := exec.Command("go", "build", "-o", binary, "..")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "build claude-nvim:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// child is a relay run as `claude-nvim relay` through a transport command
// (argv before the binary, e.g. unshare's), its stdio the pipe.
type child struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.ReadCloser
	exited chan struct{} // closed when the relay has exited
}

func startRelay(t *testing.T, configDir string, prefix ...string) *child {
	t.Helper()
	argv := append(append([]string(nil), prefix...), binary, "relay")
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "CLAUDE_CONFIG_DIR="+configDir)
	cmd.Stderr = testWriter{t}
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
	c := &child{cmd: cmd, stdin: stdin, stdout: stdout, exited: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(c.exited) }()
	t.Cleanup(func() {
		stdin.Close()
		select {
		case <-c.exited:
		case <-time.After(wait):
			_ = cmd.Process.Kill()
		}
	})
	return c
}

// Close is the transport's end as the host sees it: the relay's stdin.
func (c *child) Close() error { return c.stdin.Close() }

func (c *child) connect(t *testing.T, h relay.HostHello) (*relay.Link, error) {
	t.Helper()
	if h.Version == "" {
		h.Version = host.Version
	}
	return relay.Connect(c.stdout, c.stdin, c, h, testLogger(t))
}

// waitExit waits for the relay to exit and returns its exit code.
func (c *child) waitExit(t *testing.T) int {
	t.Helper()
	select {
	case <-c.exited:
		return c.cmd.ProcessState.ExitCode()
	case <-time.After(wait):
		t.Fatal("the relay did not exit")
		return -1
	}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Logf("relay: %s", p)
	return len(p), nil
}

// serve serves the link with an MCP server whose one tool echoes.
func serve(t *testing.T, l *relay.Link, tools ...mcp.Tool) *mcp.Server {
	t.Helper()
	if len(tools) == 0 {
		tools = []mcp.Tool{{Name: "echo", Description: "Echo",
			Handler: func(_ context.Context, args json.RawMessage) (*mcp.ToolResult, error) {
				return mcp.TextResult(string(args)), nil
			}}}
	}
	srv, err := mcp.NewServer(mcp.Config{Token: l.Info.Token, Tools: tools, Logger: testLogger(t), ListenDelay: -1})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Serve(l); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		_ = srv.Close(ctx)
	})
	return srv
}

func url(port int) string { return fmt.Sprintf("ws://127.0.0.1:%d", port) }

func header(token string) http.Header {
	return http.Header{"X-Claude-Code-Ide-Authorization": {token}}
}

func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(logWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type logWriter struct{ t *testing.T }

func (w logWriter) Write(p []byte) (int, error) {
	w.t.Logf("%s", p)
	return len(p), nil
}

func waitC() <-chan time.Time { return time.After(wait) }
