package chat

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

// AskUserQuestion and ExitPlanMode with the real CLI: what reaches the model for each answer.

var colourAndFruit = []fakeapi.Question{
	{Question: "Which colour?", Header: "Colour", Options: []fakeapi.Option{{Label: "Red", Description: "warm"}, {Label: "Blue", Description: "cold", Preview: "#0000ff"}}},
	{Question: "Which fruits?", Header: "Fruit", MultiSelect: true, Options: []fakeapi.Option{{Label: "Apple"}, {Label: "Pear"}, {Label: "Fig"}}},
	{Question: "Anything else?", Header: "Else", Options: []fakeapi.Option{{Label: "No"}, {Label: "Yes"}}},
}

func TestCLIAskUserQuestionAnswersReachTheModel(t *testing.T) {
	r := newCLIRun(t, fakeapi.Ask(colourAndFruit...), fakeapi.Say("thanks"))
	r.start(Options{})
	r.send("ask me")
	req := r.permission()
	qs, err := Questions(req.Input)
	if req.ToolName != ToolAskUserQuestion || err != nil || len(qs) != 3 || !qs[1].MultiSelect || qs[0].Options[1].Description != "cold" || qs[0].Options[1].Preview != "#0000ff" {
		t.Fatalf("request %s with input %s (%v): want the three questions as asked", req.ToolName, req.Input, err)
	}
	if err := r.s.AnswerQuestions(r.ctx, req.Ticket, map[string]string{"Which colour?": "Red"}); err == nil {
		t.Errorf("answering one question of three: no error")
	}
	if err := r.s.ApprovePlan(r.ctx, req.Ticket, "", ""); err == nil {
		t.Errorf("approving questions as a plan: no error")
	}
	answers := map[string]string{"Which colour?": "Red", "Which fruits?": "Apple, Fig", "Anything else?": "make it \"quick\""}
	if err := r.s.AnswerQuestions(r.ctx, req.Ticket, answers); err != nil {
		t.Fatal(err)
	}
	r.turnEnd()
	main := r.api.Main()
	got := strings.Join(main[len(main)-1].ToolResults()[0].Texts(), "")
	// 2.1.332 words it "The user answered: …" when an answer is the user's own text (with
	// labels only, and always in 2.1.197: "Your questions have been answered: …"); the
	// pairs are the same.
	const want = `: "Which colour?"="Red", "Which fruits?"="Apple, Fig", "Anything else?"="make it "quick"". `
	if !strings.Contains(got, want) {
		t.Errorf("the model got %q, want %q", got, want)
	}
}

// planTurns writes plan to the plan file and asks to leave plan mode with it.
func planTurns(plan string) []fakeapi.Turn {
	return []fakeapi.Turn{fakeapi.WritePlan(plan), fakeapi.ExitPlanMode()}
}

func TestCLIPlanApprovedEditedInAcceptEditsMode(t *testing.T) {
	const plan = "# Plan\n\n1. Shout hello\n"
	r := newCLIRun(t, planTurns(plan)...)
	file := filepath.Join(r.env.Project, "greet.txt")
	if err := os.WriteFile(file, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.api.Push(fakeapi.Read(file), fakeapi.Edit(file, "hello", "HELLO"), fakeapi.Say("done"))
	r.start(Options{PermissionMode: "plan"})
	r.send("plan it")
	req := r.permission()
	shown, path := Plan(req.Input)
	if req.ToolName != ToolExitPlanMode || shown != plan || path == "" || len(req.Suggestions) != 0 {
		t.Fatalf("request %s with input %s, suggestions %q: want the plan file's text and path, no suggestions", req.ToolName, req.Input, req.Suggestions)
	}
	if err := r.s.ApprovePlan(r.ctx, req.Ticket, "", "plan"); err == nil {
		t.Errorf("approving to go on in plan mode: no error")
	}
	const edited = "# Plan\n\n1. Shout hello, loudly\n"
	if err := r.s.ApprovePlan(r.ctx, req.Ticket, edited, "acceptEdits"); err != nil {
		t.Fatal(err)
	}
	evs, _ := r.until("the edit's result", func(e Event) bool {
		_, asked := e.(PermissionRequest)
		res, ok := e.(ToolResult)
		return asked || ok && strings.Contains(res.Content, "greet.txt has been updated")
	})
	modes := []string{}
	for _, e := range evs {
		switch e := e.(type) {
		case PermissionRequest:
			t.Fatalf("after approving in acceptEdits mode the CLI asked about %s", e.ToolName)
		case Status:
			if e.PermissionMode != "" {
				modes = append(modes, e.PermissionMode)
			}
		}
	}
	if len(modes) != 1 || modes[0] != "acceptEdits" {
		t.Errorf("mode changes %q, want [acceptEdits]", modes)
	}
	r.turnEnd()
	result, _ := r.api.ToolResult(r.ctx, "ExitPlanMode")
	got := strings.Join(result.Texts(), "")
	if !strings.Contains(got, "User has approved your plan.") || !strings.Contains(got, "## Approved Plan (edited by user):\n"+strings.TrimSpace(edited)) {
		t.Errorf("the model got %q, want the approval with the edited plan", got)
	}
}

func TestCLIPlanKeptWithFeedbackStaysInPlanMode(t *testing.T) {
	const feedback = "Please add a test first."
	r := newCLIRun(t, planTurns("# Plan\n\n1. Shout\n")...)
	r.api.Push(fakeapi.Say("I will add a test to the plan."))
	r.start(Options{PermissionMode: "plan"})
	r.send("plan it")
	req := r.permission()
	if err := r.s.Deny(r.ctx, req.Ticket, feedback); err != nil {
		t.Fatal(err)
	}
	evs, te := r.turnEnd()
	for _, e := range evs {
		if s, ok := e.(Status); ok && s.PermissionMode != "" {
			t.Errorf("keeping on planning switched the mode to %s", s.PermissionMode)
		}
	}
	if len(te.Denied) != 1 || te.Denied[0] != ToolExitPlanMode {
		t.Errorf("TurnEnd.Denied = %q, want [ExitPlanMode]", te.Denied)
	}
	result, _ := r.api.ToolResult(r.ctx, "ExitPlanMode")
	if got := strings.Join(result.Texts(), ""); !result.IsError || got != feedback {
		t.Errorf("the model got %q (error %v), want the feedback %q as an error", got, result.IsError, feedback)
	}
	r.api.Push(fakeapi.Say("still planning"))
	r.send("and now?")
	evs, _ = r.turnEnd()
	for _, e := range evs {
		if in, ok := e.(Init); ok && in.PermissionMode != "plan" {
			t.Errorf("the next turn runs in mode %q, want plan", in.PermissionMode)
		}
	}
}
