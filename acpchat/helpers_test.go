package acpchat_test

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/acpchat"
	"github.com/claude-nvim/claude.nvim/chat"
	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

// These tests run the real claude-agent-acp ($CLAUDE_ACP_AGENT) on the real Claude CLI
// ($CLAUDE_BIN) against the API stand-in, as acp's do; without them they skip.

const waitFor = 90 * time.Second

type run struct {
	t   *testing.T
	api *fakeapi.Server
	env *clienv.Env
	b   *acpchat.Backend
	ev  *events
}

func newRun(t *testing.T, script ...fakeapi.Turn) *run {
	t.Helper()
	if os.Getenv("CLAUDE_ACP_AGENT") == "" {
		t.Skip("CLAUDE_ACP_AGENT is not set: run `make e2e`")
	}
	clienv.Bin(t)
	t.Parallel()
	api := fakeapi.New(t, script...)
	r := &run{t: t, api: api, env: clienv.New(t, api.URL())}
	return r
}

func (r *run) start(opts acpchat.Options) {
	r.t.Helper()
	opts.Path = os.Getenv("CLAUDE_ACP_AGENT")
	opts.Env = append(r.env.Vars(), "CLAUDE_CODE_EXECUTABLE="+clienv.Bin(r.t))
	opts.Dir = r.env.Project
	b, err := acpchat.Start(opts)
	if err != nil {
		r.t.Fatal(err)
	}
	r.b, r.ev = b, collect(b)
	r.t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitFor)
		defer cancel()
		_ = b.Close(ctx)
		<-r.ev.gone
	})
}

func (r *run) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), waitFor)
	r.t.Cleanup(cancel)
	return ctx
}

// events records every event the backend hands out, as the controller's run loop takes
// them.
type events struct {
	mu   sync.Mutex
	all  []chat.Event
	more chan struct{}
	gone chan struct{}
}

func collect(b *acpchat.Backend) *events {
	e := &events{more: make(chan struct{}, 1), gone: make(chan struct{})}
	go func() {
		defer close(e.gone)
		for {
			evs, err := b.Next(context.Background())
			if errors.Is(err, io.EOF) {
				return
			}
			e.mu.Lock()
			e.all = append(e.all, evs...)
			e.mu.Unlock()
			select {
			case e.more <- struct{}{}:
			default:
			}
		}
	}()
	return e
}

// await waits until an event satisfies ok and returns it.
func (e *events) await(t *testing.T, what string, ok func(chat.Event) bool) chat.Event {
	t.Helper()
	deadline := time.After(waitFor)
	seen := 0
	for {
		e.mu.Lock()
		for ; seen < len(e.all); seen++ {
			if ok(e.all[seen]) {
				ev := e.all[seen]
				e.mu.Unlock()
				return ev
			}
		}
		e.mu.Unlock()
		select {
		case <-e.more:
		case <-e.gone:
			e.mu.Lock()
			n := len(e.all)
			e.mu.Unlock()
			if seen == n {
				t.Fatalf("the agent is gone without %s; events: %s", what, e.dump())
			}
		case <-deadline:
			t.Fatalf("no %s; events: %s", what, e.dump())
		}
	}
}

func (e *events) text() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var sb strings.Builder
	for _, ev := range e.all {
		if d, ok := ev.(chat.TextDelta); ok {
			sb.WriteString(d.Text)
		}
	}
	return sb.String()
}

func (e *events) dump() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	var sb strings.Builder
	for _, ev := range e.all {
		s := strings.ReplaceAll(strings.TrimSpace(strings.ReplaceAll(fmtEvent(ev), "\n", " ")), "  ", " ")
		if len(s) > 200 {
			s = s[:200] + "…"
		}
		sb.WriteString("\n  " + s)
	}
	return sb.String()
}

func turnEnd(ev chat.Event) bool { _, ok := ev.(chat.TurnEnd); return ok }
