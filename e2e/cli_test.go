package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/e2e/tmuxterm"
)

// Deadlines are generous: the CLI starts in 1–3 s on an idle machine but took over 25 s with
// a dozen instances starting at once.
const (
	startTimeout = 90 * time.Second
	turnTimeout  = 60 * time.Second
)

// startCLI runs the CLI in a tmux pane in env's project directory and waits until it idles at
// an empty input box (clienv.Idle); submit then checks that it takes what is typed.
func startCLI(t *testing.T, env *clienv.Env, args ...string) *tmuxterm.Term {
	t.Helper()
	argv := append([]string{clienv.Bin(t)}, args...)
	term := tmuxterm.Start(t, tmuxterm.Options{Dir: env.Project, Env: env.Vars(), Width: 120, Height: 40}, argv...)
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	if _, err := term.WaitUntil(ctx, "the CLI idling at an empty input box", clienv.Idle); err != nil {
		t.Fatalf("the CLI did not get ready for input: %v", err)
	}
	return term
}

// submit types prompt into the input box, waits until it shows there, and presses Enter.
func submit(t *testing.T, term *tmuxterm.Term, prompt string) {
	t.Helper()
	if err := term.Type(prompt); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	defer cancel()
	if _, err := term.WaitUntil(ctx, "the typed prompt in the input box", func(screen string) bool {
		in, ok := clienv.InputLine(screen)
		return ok && in == prompt
	}); err != nil {
		t.Fatalf("the typed prompt did not show in the input box: %v", err)
	}
	if err := term.Send("Enter"); err != nil {
		t.Fatal(err)
	}
}

func TestCLIShowsTheScriptedAnswerToATypedPrompt(t *testing.T) {
	clienv.Bin(t)
	const (
		prompt = "Please greet the e2e suite"
		answer = "Hello from the scripted stand-in."
	)
	api := fakeapi.New(t, fakeapi.Say(answer))
	env := clienv.New(t, api.URL())
	term := startCLI(t, env)

	submit(t, term, prompt)
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	defer cancel()
	if _, err := term.WaitForText(ctx, answer); err != nil {
		t.Fatalf("the scripted answer did not show: %v", err)
	}

	req, err := api.NextMain(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := req.LastUserText(); !strings.Contains(got, prompt) {
		t.Errorf("the main request's new user text = %q, want it to contain the prompt %q", got, prompt)
	}
	if got := req.ToolNames(); !contains(got, "Read") || !contains(got, "Edit") {
		t.Errorf("the main request offers tools %q, want Read and Edit among them", got)
	}
	if n := api.Remaining(); n != 0 {
		t.Errorf("%d scripted turns left, want 0", n)
	}
	side := 0
	for _, r := range api.Requests() {
		switch {
		case r.Kind == fakeapi.Side:
			side++
		case r.Kind == fakeapi.Other && !(r.Method == "HEAD" && r.Path == "/"):
			t.Errorf("unexpected request %s %s", r.Method, r.Path)
		}
	}
	// The session title (one side request for a first prompt of several words) must not
	// have taken the scripted answer: that would have failed above.
	t.Logf("%d requests, %d of them side requests", len(api.Requests()), side)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
