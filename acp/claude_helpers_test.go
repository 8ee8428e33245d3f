package acp_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/acp"
	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

// These tests run the real claude-agent-acp ($CLAUDE_ACP_AGENT, installed by
// scripts/install-acp-agent) on the real Claude Code CLI ($CLAUDE_BIN) against the API
// stand-in, in an isolated CLI environment: no network, no account. make e2e sets both;
// without them they skip.

// claudeTimeout bounds each wait on the real agent; a turn against the stand-in takes a
// second or two.
const claudeTimeout = 60 * time.Second

type claudeRun struct {
	t   *testing.T
	api *fakeapi.Server
	env *clienv.Env
	ctx context.Context
}

func newClaudeRun(t *testing.T, script ...fakeapi.Turn) *claudeRun {
	t.Helper()
	if os.Getenv("CLAUDE_ACP_AGENT") == "" {
		t.Skip("CLAUDE_ACP_AGENT is not set: run `make e2e` (it installs claude-agent-acp with scripts/install-acp-agent and sets it)")
	}
	clienv.Bin(t) // skips without CLAUDE_BIN
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*claudeTimeout)
	t.Cleanup(cancel)
	api := fakeapi.New(t, script...)
	return &claudeRun{t: t, api: api, env: clienv.New(t, api.URL()), ctx: ctx}
}

// start runs the agent in the project, on the CLI under test rather than the one its SDK
// would bring (the install leaves that one out), with its stderr in the test's log.
func (r *claudeRun) start(client acp.Client) *acp.Agent {
	r.t.Helper()
	env := append(r.env.Vars(), "CLAUDE_CODE_EXECUTABLE="+clienv.Bin(r.t))
	a, err := acp.Start(acp.Command{
		Path: os.Getenv("CLAUDE_ACP_AGENT"),
		Env:  env,
		Dir:  r.env.Project,
	}, client)
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), claudeTimeout)
		defer cancel()
		if err := a.Close(ctx); err != nil {
			r.t.Errorf("closing the agent: %v", err)
		}
		if r.t.Failed() {
			r.t.Logf("the agent's stderr ended with:\n%s", a.Stderr())
		}
	})
	return a
}

// end closes session id and then the agent as the chat does (acpchat.Backend.Close):
// session/close, then the agent's children gone — its Claude has written the conversation
// (2.1.197 writes its last messages after the answer, and an agent closed at once SIGTERMs
// it first) — then the agent itself.
func (r *claudeRun) end(a *acp.Agent, id string) {
	r.t.Helper()
	if err := a.CloseSession(r.wait(), id); err != nil {
		r.t.Fatalf("session/close: %v", err)
	}
	if err := a.WaitChildren(r.wait()); err != nil {
		r.t.Fatalf("the agent's processes outlived its session: %v", err)
	}
	if err := a.Close(r.wait()); err != nil {
		r.t.Fatal(err)
	}
}

// session starts the agent, initializes it and opens a session in the project.
func (r *claudeRun) session(client acp.Client) (*acp.Agent, *acp.NewSessionResult) {
	r.t.Helper()
	a := r.start(client)
	if _, err := a.Initialize(r.wait(), acp.Implementation{Name: "claude.nvim", Version: "test"}); err != nil {
		r.t.Fatal(err)
	}
	s, err := a.NewSession(r.wait(), acp.NewSessionRequest{Cwd: r.env.Project})
	if err != nil {
		r.t.Fatal(err)
	}
	return a, s
}

// wait is a context for one wait on the agent.
func (r *claudeRun) wait() context.Context {
	ctx, cancel := context.WithTimeout(r.ctx, claudeTimeout)
	r.t.Cleanup(cancel)
	return ctx
}

// editor is the client the real agent talks to: it records the updates, answers
// permission requests from a queue of choices, and serves fs/* from the project on disk,
// recording each request (claude-agent-acp 0.101.0 makes none: its tools read and write
// the files themselves).
type editor struct {
	*recorder
	project string

	mu      sync.Mutex
	asked   []*acp.PermissionRequest
	askedCh chan *acp.PermissionRequest // each request as it comes
	answers chan func(context.Context, *acp.PermissionRequest) acp.PermissionOutcome
	fsCalls []string
}

func newEditor(project string) *editor {
	return &editor{recorder: newRecorder(), project: project,
		askedCh: make(chan *acp.PermissionRequest, 16),
		answers: make(chan func(context.Context, *acp.PermissionRequest) acp.PermissionOutcome, 4)}
}

// answer queues the answer to the next permission request: the offered option of kind.
func (e *editor) answer(kind string) {
	e.answers <- func(_ context.Context, req *acp.PermissionRequest) acp.PermissionOutcome {
		o, ok := req.Option(kind)
		if !ok {
			return acp.Cancelled
		}
		return acp.Select(o)
	}
}

func (e *editor) RequestPermission(ctx context.Context, req *acp.PermissionRequest) (acp.PermissionOutcome, error) {
	e.mu.Lock()
	e.asked = append(e.asked, req)
	e.mu.Unlock()
	e.askedCh <- req
	select {
	case f := <-e.answers:
		return f(ctx, req), nil
	case <-ctx.Done():
		return acp.Cancelled, nil
	}
}

func (e *editor) inProject(path string) error {
	rel, err := filepath.Rel(e.project, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") || !filepath.IsAbs(path) {
		return acp.Errorf(acp.CodeInvalidParams, "%s is outside the workspace", path)
	}
	return nil
}

func (e *editor) ReadTextFile(_ context.Context, req *acp.ReadTextFileRequest) (string, error) {
	e.mu.Lock()
	e.fsCalls = append(e.fsCalls, "read "+req.Path)
	e.mu.Unlock()
	if err := e.inProject(req.Path); err != nil {
		return "", err
	}
	b, err := os.ReadFile(req.Path)
	return string(b), err
}

func (e *editor) WriteTextFile(_ context.Context, req *acp.WriteTextFileRequest) error {
	e.mu.Lock()
	e.fsCalls = append(e.fsCalls, "write "+req.Path)
	e.mu.Unlock()
	if err := e.inProject(req.Path); err != nil {
		return err
	}
	return os.WriteFile(req.Path, []byte(req.Content), 0o644)
}

// nextPermission waits for the next permission request.
func (e *editor) nextPermission(t *testing.T) *acp.PermissionRequest {
	t.Helper()
	select {
	case req := <-e.askedCh:
		return req
	case <-time.After(claudeTimeout):
		t.Fatalf("no permission request; updates so far: %s", describe(e.all()))
		return nil
	}
}

func (e *editor) permissions() []*acp.PermissionRequest {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]*acp.PermissionRequest(nil), e.asked...)
}

func (e *editor) fs() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.fsCalls...)
}

// toolStatus is the last status the updates gave the tool call id.
func toolStatus(ups []acp.SessionNotification, id string) string {
	status := ""
	for _, u := range ups {
		switch v := u.Update.(type) {
		case *acp.ToolCall:
			if v.ToolCallID == id {
				status = v.Status
			}
		case *acp.ToolCallUpdate:
			if v.ToolCallID == id && v.Status != nil {
				status = *v.Status
			}
		}
	}
	return status
}

// prompt runs a turn to its end.
func (r *claudeRun) prompt(a *acp.Agent, sessionID, text string) *acp.PromptResult {
	r.t.Helper()
	res, err := a.Prompt(r.wait(), sessionID, []acp.ContentBlock{acp.Text(text)})
	if err != nil {
		r.t.Fatalf("prompt %q: %v", text, err)
	}
	return res
}

func fileText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Sprintf("(%v)", err)
	}
	return string(b)
}

func stopReason(res *acp.PromptResult) string {
	if res == nil {
		return "without a result"
	}
	return res.StopReason
}
