package acpchat_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/acp/acptest"
	"github.com/claude-nvim/claude.nvim/acpchat"
	"github.com/claude-nvim/claude.nvim/chat"
)

// The scripted agent as a process: this test binary started with ACPTEST_SCENARIO set
// plays that scenario on its stdin and stdout instead of running the tests.
func TestMain(m *testing.M) {
	if name := os.Getenv("ACPTEST_SCENARIO"); name != "" {
		p := acptest.New(os.Stdin, os.Stdout, func(msg string) {
			fmt.Fprintln(os.Stderr, msg)
			os.Exit(99)
		})
		scenarios[name](p)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

const bigUpdate = 10 << 20

var scenarios = map[string]func(p *acptest.Peer){
	// Answers a little, then dies in the middle of the turn.
	"die-mid-turn": func(p *acptest.Peer) {
		handshake(p)
		p.Expect("session/prompt")
		p.Update("s1", map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": "Let me"}})
		fmt.Fprintln(os.Stderr, "Error: the model went away")
		os.Exit(3)
	},
	// Sends an update of a kind nobody knows, then a 10 MiB chunk, then ends the turn.
	"odd-updates": func(p *acptest.Peer) {
		handshake(p)
		m := p.Expect("session/prompt")
		p.Update("s1", map[string]any{"sessionUpdate": "hologram", "payload": 1})
		p.Update("s1", map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": strings.Repeat("x", bigUpdate)}})
		p.Update("s1", map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": "END"}})
		p.Reply(m, map[string]any{"stopReason": "end_turn"})
		p.EOF()
	},
	// Sends its plan, asks for a permission offering "always", and says which option it got.
	"plan-and-always": func(p *acptest.Peer) {
		handshake(p)
		m := p.Expect("session/prompt")
		p.Update("s1", map[string]any{"sessionUpdate": "plan", "entries": []any{
			map[string]any{"content": "Read the code", "priority": "high", "status": "completed"},
			map[string]any{"content": "Fix the bug", "priority": "high", "status": "in_progress"},
		}})
		id := p.Request("session/request_permission", map[string]any{"sessionId": "s1",
			"toolCall": map[string]any{"toolCallId": "t1", "title": "Run make", "kind": "execute", "status": "pending", "rawInput": map[string]any{"command": "make"}},
			"options": []any{
				map[string]any{"optionId": "yes", "name": "Allow", "kind": "allow_once"},
				map[string]any{"optionId": "always", "name": "Always allow make", "kind": "allow_always"},
				map[string]any{"optionId": "no", "name": "Reject", "kind": "reject_once"},
			}})
		r := p.ExpectResponse(id)
		p.Update("s1", map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": "got " + string(r.Result)}})
		p.Reply(m, map[string]any{"stopReason": "end_turn"})
		p.EOF()
	},
}

func handshake(p *acptest.Peer) {
	p.Initialize(acptest.Capabilities())
	p.NewSession("s1")
}

func startScenario(t *testing.T, name string) (*acpchat.Backend, *events) {
	t.Helper()
	t.Parallel()
	b, err := acpchat.Start(acpchat.Options{Name: "scripted", Path: os.Args[0], Env: append(os.Environ(), "ACPTEST_SCENARIO="+name), Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ev := collect(b)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitFor)
		defer cancel()
		_ = b.Close(ctx)
		<-ev.gone
	})
	return b, ev
}

func TestAnAgentDyingMidTurnEndsTheTurnAndSaysSo(t *testing.T) {
	b, ev := startScenario(t, "die-mid-turn")
	if err := b.SendAs(context.Background(), "m1", "hi"); err != nil {
		t.Fatal(err)
	}
	end := ev.await(t, "the turn's end", turnEnd).(chat.TurnEnd)
	if !end.IsError || !strings.Contains(strings.Join(end.Errors, " "), "exited mid-turn") {
		t.Errorf("the turn ended %+v; want an error saying the agent exited mid-turn", end)
	}
	n := ev.await(t, "the exit's notice", func(e chat.Event) bool { x, ok := e.(chat.Notice); return ok && x.IsError }).(chat.Notice)
	if !strings.Contains(n.Text, "status 3") || !strings.Contains(n.Text, "the model went away") {
		t.Errorf("the notice = %q; want the exit status and the end of its stderr", n.Text)
	}
	ex := ev.await(t, "Exited", func(e chat.Event) bool { _, ok := e.(chat.Exited); return ok }).(chat.Exited)
	if ex.Code != 3 || !ex.MidTurn {
		t.Errorf("Exited = %+v; want code 3, mid-turn", ex)
	}
	if got := ev.text(); got != "Let me" {
		t.Errorf("the text before the exit = %q; want it kept", got)
	}
	if err := b.SendAs(context.Background(), "m2", "again"); err == nil {
		t.Errorf("a turn sent to the agent gone was taken; want an error (the text goes back to the input)")
	}
}

func TestAnUnknownUpdateIsSaidAndA10MiBUpdateArrivesWhole(t *testing.T) {
	b, ev := startScenario(t, "odd-updates")
	if err := b.SendAs(context.Background(), "", "hi"); err != nil {
		t.Fatal(err)
	}
	ev.await(t, "the turn's end", turnEnd)
	n := ev.await(t, "the unknown update's notice", func(e chat.Event) bool { _, ok := e.(chat.Notice); return ok }).(chat.Notice)
	if !strings.Contains(n.Text, "hologram") {
		t.Errorf("the notice = %q; want it to name the kind", n.Text)
	}
	got := ev.text()
	if len(got) != bigUpdate+3 || !strings.HasSuffix(got, "END") {
		t.Errorf("the text is %d bytes ending %q; want the 10 MiB chunk whole and the next", len(got), got[max(0, len(got)-5):])
	}
}

func TestThePlanIsTheTaskListAndAlwaysIsAllowAlways(t *testing.T) {
	b, ev := startScenario(t, "plan-and-always")
	if err := b.SendAs(context.Background(), "", "fix it"); err != nil {
		t.Fatal(err)
	}
	l := ev.await(t, "the task list", func(e chat.Event) bool { _, ok := e.(chat.TaskList); return ok }).(chat.TaskList)
	if len(l.Items) != 2 || l.Items[0].Subject != "Read the code" || l.Items[1].Status != "in_progress" {
		t.Errorf("the task list = %+v; want the plan's two entries", l)
	}
	req := ev.await(t, "the permission request", func(e chat.Event) bool { _, ok := e.(chat.PermissionRequest); return ok }).(chat.PermissionRequest)
	if len(req.Suggestions) != 1 || !strings.Contains(string(req.Suggestions[0]), "Always allow make") || req.Description != "Run make" {
		t.Errorf("the request = %+v; want \"Run make\" with the always option as its one suggestion", req)
	}
	if err := b.Allow(context.Background(), req.Ticket, nil, 0); err != nil {
		t.Fatal(err)
	}
	ev.await(t, "the turn's end", turnEnd)
	if got := ev.text(); !strings.Contains(got, `"optionId":"always"`) {
		t.Errorf("the agent got %s; want the allow_always option", got)
	}
	if err := b.Allow(context.Background(), req.Ticket, nil); err == nil {
		t.Errorf("a second answer to the same request was taken")
	}
}
