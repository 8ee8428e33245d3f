package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

// These tests drive the real Claude Code CLI ($CLAUDE_BIN) against the API stand-in; without
// CLAUDE_BIN they skip, like ./e2e.

// cliTimeout bounds each wait on the real CLI; a turn against the stand-in takes well under a
// second.
const cliTimeout = 30 * time.Second

type cliRun struct {
	t   *testing.T
	api *fakeapi.Server
	env *clienv.Env
	s   *Process
	ctx context.Context
}

func newCLIRun(t *testing.T, script ...fakeapi.Turn) *cliRun {
	t.Helper()
	bin := os.Getenv("CLAUDE_BIN")
	if bin == "" {
		t.Skip("CLAUDE_BIN is not set (make e2e sets it)")
	}
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*cliTimeout)
	t.Cleanup(cancel)
	api := fakeapi.New(t, script...)
	r := &cliRun{t: t, api: api, env: clienv.New(t, api.URL()), ctx: ctx}
	return r
}

func (r *cliRun) start(opts Options) *Process {
	r.t.Helper()
	opts.Bin, opts.Dir, opts.Env = os.Getenv("CLAUDE_BIN"), r.env.Project, r.env.Vars()
	s, err := Start(opts)
	if err != nil {
		r.t.Fatal(err)
	}
	r.t.Cleanup(func() { s.Close(context.Background()) })
	r.s = s
	return s
}

// until collects events until one satisfies stop and returns them all, with the number of
// batches they came in.
func (r *cliRun) until(what string, stop func(Event) bool) (evs []Event, batches int) {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(r.ctx, cliTimeout)
	defer cancel()
	for {
		batch, err := r.s.Next(ctx)
		if err != nil {
			r.t.Fatalf("waiting for %s: %v; events so far: %#v", what, err, evs)
		}
		batches++
		evs = append(evs, batch...)
		for _, e := range batch {
			if stop(e) {
				return evs, batches
			}
		}
	}
}

func isTurnEnd(e Event) bool { _, ok := e.(TurnEnd); return ok }

func (r *cliRun) turnEnd() ([]Event, TurnEnd) {
	r.t.Helper()
	evs, _ := r.until("the end of the turn", isTurnEnd)
	for _, e := range evs {
		if te, ok := e.(TurnEnd); ok {
			return evs, te
		}
	}
	panic("unreachable")
}

func (r *cliRun) permission() PermissionRequest {
	r.t.Helper()
	evs, _ := r.until("a permission request", func(e Event) bool { _, ok := e.(PermissionRequest); return ok })
	return evs[len(evs)-1].(PermissionRequest)
}

func (r *cliRun) send(text string) {
	r.t.Helper()
	if err := r.s.Send(r.ctx, text); err != nil {
		r.t.Fatal(err)
	}
}

func texts(evs []Event) (text string, n int) {
	var sb strings.Builder
	for _, e := range evs {
		if d, ok := e.(TextDelta); ok {
			sb.WriteString(d.Text)
			n++
		}
	}
	return sb.String(), n
}

func TestCLIStreamedAnswerArrivesBatched(t *testing.T) {
	answer := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 60) // 2700 bytes
	const chunk = 9
	r := newCLIRun(t, fakeapi.Turn{Thinking: "Let me think.", Text: answer, Chunk: chunk})
	s := r.start(Options{})
	init, err := s.Initialize(r.ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(init.Commands) == 0 || len(init.Models) == 0 || init.PID != s.PID() {
		t.Errorf("initialize = %d commands, %d models, pid %d; want some commands and models, pid %d",
			len(init.Commands), len(init.Models), init.PID, s.PID())
	}
	r.send("tell me a story")
	evs, te := r.turnEnd()

	got, n := texts(evs)
	if got != answer {
		t.Errorf("streamed text = %q, want %q", got, answer)
	}
	if deltas := len(answer) / chunk; n > deltas/2 {
		t.Errorf("%d text deltas reached the consumer for %d streamed; want them merged", n, deltas)
	}
	var thinking string
	var sawInit bool
	for _, e := range evs {
		switch e := e.(type) {
		case ThinkingDelta:
			thinking += e.Text
		case Init:
			sawInit = e.SessionID != "" && e.PermissionMode == "default" && len(e.Tools) > 0
		}
	}
	if thinking != "Let me think." {
		t.Errorf("thinking = %q", thinking)
	}
	if !sawInit {
		t.Errorf("no Init with a session id, mode and tools in %#v", evs)
	}
	if te.Subtype != "success" || te.IsError || te.Result != answer || te.Tokens.Output == 0 || te.CostUSD <= 0 || te.NumTurns != 1 {
		t.Errorf("TurnEnd = %+v", te)
	}

	if err := s.Close(r.ctx); err != nil {
		t.Fatal(err)
	}
	evs, _ = r.until("Exited", func(e Event) bool { _, ok := e.(Exited); return ok })
	if got := evs[len(evs)-1]; got != (Exited{Code: 0}) {
		t.Errorf("after Close: %#v, want Exited{Code: 0}", got)
	}
}

func TestCLIReadToolUseAndResult(t *testing.T) {
	r := newCLIRun(t)
	file := filepath.Join(r.env.Project, "greet.txt")
	if err := os.WriteFile(file, []byte("hello world\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.api.Push(fakeapi.Read(file), fakeapi.Say("It says hello."))
	r.start(Options{})
	r.send("what is in greet.txt?")
	evs, _ := r.turnEnd()
	var use ToolUse
	var res ToolResult
	for _, e := range evs {
		switch e := e.(type) {
		case ToolUse:
			use = e
		case ToolResult:
			res = e
		case PermissionRequest:
			t.Errorf("a Read in the workspace asked for permission: %+v", e)
		}
	}
	if use.Name != "Read" || use.Summary != "greet.txt" || use.ID == "" {
		t.Errorf("ToolUse = %+v, want Read of greet.txt", use)
	}
	if res.ID != use.ID || res.IsError || !strings.Contains(res.Content, "hello world") {
		t.Errorf("ToolResult = %+v, want the file's text for %s", res, use.ID)
	}
	if got, _ := texts(evs); got != "It says hello." {
		t.Errorf("text = %q", got)
	}
}

func TestCLIEditPermissionAllowedWithChangesAndDenied(t *testing.T) {
	r := newCLIRun(t)
	file := filepath.Join(r.env.Project, "greet.txt")
	if err := os.WriteFile(file, []byte("hello world\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.api.Push(fakeapi.Read(file), fakeapi.Edit(file, "hello", "HELLO"), fakeapi.Say("edited"),
		fakeapi.Edit(file, "world", "WORLD"), fakeapi.Say("ok, not then"))
	r.start(Options{})

	r.send("shout hello")
	req := r.permission()
	if req.ToolName != "Edit" || req.ToolUseID == "" || len(req.Suggestions) == 0 {
		t.Errorf("permission request = %+v, want an Edit with suggestions", req)
	}
	var input map[string]any
	if err := json.Unmarshal(req.Input, &input); err != nil || input["new_string"] != "HELLO" {
		t.Fatalf("request input = %s (%v)", req.Input, err)
	}
	input["new_string"] = "Howdy" // the user edited the proposal before accepting it
	changed, _ := json.Marshal(input)
	if err := r.s.Allow(r.ctx, req.Ticket, changed); err != nil {
		t.Fatal(err)
	}
	r.turnEnd()
	if b, _ := os.ReadFile(file); string(b) != "Howdy world\n" {
		t.Errorf("after allowing with changed input the file holds %q, want %q", b, "Howdy world\n")
	}
	if err := r.s.Allow(r.ctx, req.Ticket, nil); !errors.Is(err, ErrNoSuchRequest) {
		t.Errorf("answering twice: %v, want ErrNoSuchRequest", err)
	}

	r.send("shout world")
	req = r.permission()
	const why = "Keep the world lowercase."
	if err := r.s.Deny(r.ctx, req.Ticket, why); err != nil {
		t.Fatal(err)
	}
	evs, te := r.turnEnd()
	if b, _ := os.ReadFile(file); string(b) != "Howdy world\n" {
		t.Errorf("after denying the file holds %q, want it untouched", b)
	}
	var denied ToolResult
	for _, e := range evs {
		if res, ok := e.(ToolResult); ok && res.ID == req.ToolUseID {
			denied = res
		}
	}
	if !denied.IsError || denied.Content != why {
		t.Errorf("tool result after deny = %+v, want the message as an error", denied)
	}
	if len(te.Denied) != 1 || te.Denied[0] != "Edit" {
		t.Errorf("TurnEnd.Denied = %v, want [Edit]", te.Denied)
	}
	// What the model got: the request after the denial carries it as an error tool result.
	main := r.api.Main()
	results := main[len(main)-1].ToolResults()
	if len(results) != 1 || !results[0].IsError || strings.Join(results[0].Texts(), "") != why {
		t.Errorf("the model got tool results %+v, want one error with %q", results, why)
	}
}

func TestCLIInterruptMidStream(t *testing.T) {
	long := strings.Repeat("word ", 400)
	r := newCLIRun(t, fakeapi.Stream(long, 10, 20*time.Millisecond), fakeapi.Say("after"))
	r.start(Options{})
	r.send("talk for long")
	r.until("the first text", func(e Event) bool { _, ok := e.(TextDelta); return ok })
	if err := r.s.Interrupt(r.ctx); err != nil {
		t.Fatal(err)
	}
	evs, te := r.turnEnd()
	if te.Subtype != "error_during_execution" || !te.IsError {
		t.Errorf("TurnEnd after interrupt = %+v", te)
	}
	var note string
	for _, e := range evs {
		if u, ok := e.(UserText); ok {
			note = u.Text
		}
	}
	if note != "[Request interrupted by user]" {
		t.Errorf("user text after interrupt = %q", note)
	}
	r.send("next")
	evs, te = r.turnEnd()
	if got, _ := texts(evs); got != "after" || te.Subtype != "success" {
		t.Errorf("the turn after an interrupt: text %q, %+v", got, te)
	}
}

func TestCLIPermissionModeAndModel(t *testing.T) {
	r := newCLIRun(t)
	file := filepath.Join(r.env.Project, "greet.txt")
	if err := os.WriteFile(file, []byte("hello world\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.api.Push(fakeapi.Read(file), fakeapi.Edit(file, "hello", "HELLO"), fakeapi.Say("done"))
	r.start(Options{})
	if err := r.s.SetPermissionMode(r.ctx, "acceptEdit"); !errors.Is(err, ErrUnknownMode) {
		t.Errorf("SetPermissionMode(acceptEdit) = %v, want ErrUnknownMode", err)
	}
	if err := r.s.SetPermissionMode(r.ctx, "acceptEdits"); err != nil {
		t.Fatal(err)
	}
	if err := r.s.SetModel(r.ctx, "claude-haiku-4-5"); err != nil {
		t.Fatal(err)
	}
	r.send("shout hello")
	evs, _ := r.turnEnd()
	var mode, model string
	for _, e := range evs {
		switch e := e.(type) {
		case Status:
			if e.PermissionMode != "" {
				mode = e.PermissionMode
			}
		case Init:
			model = e.Model
			if e.PermissionMode != "acceptEdits" {
				t.Errorf("Init.PermissionMode = %q, want acceptEdits", e.PermissionMode)
			}
		case PermissionRequest:
			t.Errorf("asked for %s in acceptEdits mode", e.ToolName)
		}
	}
	if mode != "acceptEdits" || model != "claude-haiku-4-5" {
		t.Errorf("status mode %q, init model %q; want acceptEdits and claude-haiku-4-5", mode, model)
	}
	if b, _ := os.ReadFile(file); string(b) != "HELLO world\n" {
		t.Errorf("file = %q, want the edit made without asking", b)
	}
	if m := r.api.Main(); m[len(m)-1].Messages.Model != "claude-haiku-4-5" {
		t.Errorf("the API got model %q", m[len(m)-1].Messages.Model)
	}
}

func TestCLIKilledMidTurn(t *testing.T) {
	r := newCLIRun(t, fakeapi.Stream(strings.Repeat("word ", 400), 10, 20*time.Millisecond))
	r.start(Options{})
	r.send("talk")
	r.until("the first text", func(e Event) bool { _, ok := e.(TextDelta); return ok })
	if err := syscall.Kill(r.s.PID(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	evs, _ := r.until("Exited", func(e Event) bool { _, ok := e.(Exited); return ok })
	if got, want := evs[len(evs)-1], (Exited{Code: -1, Signal: "killed", MidTurn: true}); got != want {
		t.Errorf("last event = %#v, want %#v", got, want)
	}
	if err := r.s.Interrupt(r.ctx); !errors.Is(err, ErrExited) {
		t.Errorf("Interrupt after the kill = %v, want ErrExited", err)
	}
}

func TestCLIResumeAStoredSession(t *testing.T) {
	r := newCLIRun(t, fakeapi.Say("noted"), fakeapi.Say("you said it"))
	s := r.start(Options{})
	r.send("remember the word pelican")
	_, first := r.turnEnd()
	if err := s.Close(r.ctx); err != nil {
		t.Fatal(err)
	}

	stored, err := ListConversations(ConfigDir(r.env.Vars()), r.env.Project)
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) != 1 {
		t.Fatalf("ListSessions = %+v, want the one session", stored)
	}
	got := stored[0]
	if got.ID != first.SessionID || got.FirstPrompt != "remember the word pelican" || got.Started.IsZero() ||
		got.CWD != r.env.Project || got.GitBranch == "" {
		t.Errorf("stored session = %+v, want id %s, the prompt, a time, the directory and a branch", got, first.SessionID)
	}

	r.start(Options{Resume: got.ID})
	r.send("what word?")
	_, te := r.turnEnd()
	if te.SessionID != first.SessionID {
		t.Errorf("resumed session id = %s, want %s", te.SessionID, first.SessionID)
	}
	m := r.api.Main()
	if ctx := m[len(m)-1].UserText(); !strings.Contains(ctx, "remember the word pelican") {
		t.Errorf("the resumed request does not carry the first prompt: %.300q", ctx)
	}
}

// A chat closed mid-turn (Neovim quitting while Claude waits for an answer) must not go on
// with the turn unseen: 2.1.332, its stdin closed while a permission waited, took that as a
// failed permission request and asked the model again, which could have answered with a
// tool the mode allows. Nor may a message queued behind the turn start one.
func TestCLIClosedMidTurnAsksTheModelNothingMore(t *testing.T) {
	for _, queued := range []bool{false, true} {
		t.Run(fmt.Sprintf("queued=%v", queued), func(t *testing.T) {
			r := newCLIRun(t)
			file := filepath.Join(r.env.Project, "greet.txt")
			if err := os.WriteFile(file, []byte("hello world\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			r.api.Push(fakeapi.Read(file), fakeapi.Edit(file, "hello", "HELLO"),
				fakeapi.Say("carried on after the close"), fakeapi.Say("and on"))
			r.start(Options{})
			r.send("shout hello")
			r.permission()
			id := uuid.NewString()
			if queued {
				// As the chat sends every message: with an id (chatctl).
				if err := r.s.SendAs(r.ctx, id, "and then say hi"); err != nil {
					t.Fatal(err)
				}
			}
			asked := len(r.api.Main())
			if err := r.s.Close(r.ctx); err != nil {
				t.Fatal(err)
			}
			if queued {
				// The queued message is said withdrawn, so the chat gives it back to the
				// input: by the CLI's own line (2.1.332), by Close for one that has none
				// (2.1.197).
				evs, _ := r.until("the end", func(e Event) bool { _, ok := e.(Exited); return ok })
				if !slices.ContainsFunc(evs, func(e Event) bool { return e == MessageState{ID: id, State: "cancelled"} }) {
					t.Errorf("after Close no event says the queued message was withdrawn; events: %#v", evs)
				}
			}
			if got := len(r.api.Main()); got != asked {
				m := r.api.Main()
				t.Errorf("the CLI made %d more model requests after Close; the last one ends with %q", got-asked, m[len(m)-1].LastUserText())
			}
			if b, _ := os.ReadFile(file); string(b) != "hello world\n" {
				t.Errorf("after Close the file holds %q, want it untouched", b)
			}
			if err := r.s.Send(r.ctx, "too late"); !errors.Is(err, ErrClosing) {
				t.Errorf("Send after Close = %v, want ErrClosing", err)
			}
		})
	}
}
