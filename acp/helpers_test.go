package acp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/acp"
	"github.com/claude-nvim/claude.nvim/acp/acptest"
)

// waitTimeout bounds each wait of a scripted test; generous for a loaded machine.
const waitTimeout = 30 * time.Second

// recorder is a Client that keeps every update.
type recorder struct {
	mu      sync.Mutex
	updates []acp.SessionNotification
	notes   []string // other notifications' methods
	changed chan struct{}
}

func newRecorder() *recorder { return &recorder{changed: make(chan struct{})} }

func (r *recorder) SessionUpdate(n acp.SessionNotification) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.updates = append(r.updates, n)
	close(r.changed)
	r.changed = make(chan struct{})
}

// Notification makes the recorder a NotificationHandler.
func (r *recorder) Notification(method string, _ json.RawMessage) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.notes = append(r.notes, method)
	close(r.changed)
	r.changed = make(chan struct{})
}

func (r *recorder) all() []acp.SessionNotification {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]acp.SessionNotification(nil), r.updates...)
}

// waitFor waits until match is true of the updates so far, and returns them.
func (r *recorder) waitFor(t testing.TB, what string, match func([]acp.SessionNotification) bool) []acp.SessionNotification {
	t.Helper()
	deadline := time.NewTimer(waitTimeout)
	defer deadline.Stop()
	for {
		r.mu.Lock()
		ups, changed := append([]acp.SessionNotification(nil), r.updates...), r.changed
		r.mu.Unlock()
		if match(ups) {
			return ups
		}
		select {
		case <-changed:
		case <-deadline.C:
			t.Fatalf("waiting for %s: %d updates so far: %s", what, len(ups), describe(ups))
		}
	}
}

// waitCount waits for n updates.
func (r *recorder) waitCount(t testing.TB, n int) []acp.SessionNotification {
	t.Helper()
	return r.waitFor(t, fmt.Sprintf("%d updates", n), func(u []acp.SessionNotification) bool { return len(u) >= n })
}

func describe(ups []acp.SessionNotification) string {
	var sb strings.Builder
	for _, u := range ups {
		fmt.Fprintf(&sb, "\n  %s %T %+v", u.SessionID, u.Update, u.Update)
	}
	return sb.String()
}

// text joins the agent's message chunks of a session.
func text(ups []acp.SessionNotification, kind string) string {
	var sb strings.Builder
	for _, u := range ups {
		if c, ok := u.Update.(*acp.MessageChunk); ok && c.Kind() == kind {
			sb.WriteString(c.Content.Text)
		}
	}
	return sb.String()
}

// permitter is a recorder that answers permission requests.
type permitter struct {
	*recorder
	answer func(context.Context, *acp.PermissionRequest) (acp.PermissionOutcome, error)
}

func (p permitter) RequestPermission(ctx context.Context, req *acp.PermissionRequest) (acp.PermissionOutcome, error) {
	return p.answer(ctx, req)
}

// files is a recorder that serves fs/*.
type files struct {
	*recorder
	read  func(context.Context, *acp.ReadTextFileRequest) (string, error)
	write func(context.Context, *acp.WriteTextFileRequest) error
}

func (f files) ReadTextFile(ctx context.Context, req *acp.ReadTextFileRequest) (string, error) {
	return f.read(ctx, req)
}

func (f files) WriteTextFile(ctx context.Context, req *acp.WriteTextFileRequest) error {
	return f.write(ctx, req)
}

// scripted connects a Conn for client to a scripted agent in this process: script runs on
// its own goroutine with the agent's end. The connection is closed when the test ends.
func scripted(t *testing.T, client acp.Client, opts acp.Options, script func(p *acptest.Peer)) *acp.Conn {
	t.Helper()
	toAgentR, toAgentW := io.Pipe()
	toClientR, toClientW := io.Pipe()
	c := acp.NewConn(toClientR, toAgentW, client, opts)
	scriptDone := make(chan struct{})
	go func() {
		defer close(scriptDone)
		defer toClientW.Close()
		p := acptest.New(toAgentR, toClientW, func(msg string) {
			t.Error(msg)
			runtime.Goexit()
		})
		script(p)
	}()
	t.Cleanup(func() {
		c.Close()
		toAgentW.Close()
		toAgentR.Close()
		select {
		case <-scriptDone:
		case <-time.After(waitTimeout):
			t.Error("the scripted agent did not finish")
		}
	})
	return c
}

// ctx is a context bounded by waitTimeout.
func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), waitTimeout)
	t.Cleanup(cancel)
	return c
}

// handshake initializes c and opens session "s1" with a script that does the same on its
// side.
func handshake(t *testing.T, c *acp.Conn) {
	t.Helper()
	if _, err := c.Initialize(ctx(t), acp.Implementation{Name: "test", Version: "0"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.NewSession(ctx(t), acp.NewSessionRequest{Cwd: "/tmp"}); err != nil {
		t.Fatal(err)
	}
}

// agentHandshake is the agent's side of handshake.
func agentHandshake(p *acptest.Peer) {
	p.Initialize(acptest.Capabilities())
	p.NewSession("s1")
}

// terms is a recorder that serves terminal/*: one terminal, "t1", that ran and exited 0.
type terms struct {
	*recorder
	created chan *acp.CreateTerminalRequest
}

func (tm terms) CreateTerminal(_ context.Context, req *acp.CreateTerminalRequest) (string, error) {
	if tm.created != nil {
		tm.created <- req
	}
	return "t1", nil
}

func (terms) TerminalOutput(_ context.Context, req *acp.TerminalRequest) (*acp.TerminalOutput, error) {
	if req.TerminalID != "t1" {
		return nil, acp.Errorf(acp.CodeNotFound, "no terminal %s", req.TerminalID)
	}
	zero := 0
	return &acp.TerminalOutput{Output: "ok\n", ExitStatus: &acp.TerminalExitStatus{ExitCode: &zero}}, nil
}

func (terms) WaitForTerminalExit(context.Context, *acp.TerminalRequest) (*acp.TerminalExitStatus, error) {
	zero := 0
	return &acp.TerminalExitStatus{ExitCode: &zero}, nil
}

func (terms) KillTerminal(context.Context, *acp.TerminalRequest) error    { return nil }
func (terms) ReleaseTerminal(context.Context, *acp.TerminalRequest) error { return nil }
