package acpchat_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/acpchat"
	"github.com/claude-nvim/claude.nvim/chat"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

func TestAStreamedAnswerIsTheChatsText(t *testing.T) {
	answer := strings.Repeat("Streamed from the stand-in. ", 20)
	r := newRun(t, fakeapi.Turn{Thinking: "Let me think.", Text: answer, Chunk: 16})
	r.start(acpchat.Options{Name: "claude-acp"})
	init := r.ev.await(t, "the session's Init", func(ev chat.Event) bool { _, ok := ev.(chat.Init); return ok }).(chat.Init)
	if init.SessionID == "" || init.PermissionMode != "default" {
		t.Errorf("Init = %+v; want the session's id and the mode set to default (the agent starts in auto)", init)
	}
	if err := r.b.SendAs(r.ctx(), "m1", "say something"); err != nil {
		t.Fatal(err)
	}
	end := r.ev.await(t, "the turn's end", turnEnd).(chat.TurnEnd)
	if end.IsError || end.Subtype != "success" {
		t.Errorf("the turn ended %+v; want success", end)
	}
	if got := r.ev.text(); got != answer {
		t.Errorf("the chat's text = %q; want the stand-in's answer %q", got, answer)
	}
	r.ev.await(t, "the thinking", func(ev chat.Event) bool {
		d, ok := ev.(chat.ThinkingDelta)
		return ok && strings.Contains(d.Text, "think")
	})
	r.ev.await(t, "the message completed", func(ev chat.Event) bool {
		m, ok := ev.(chat.MessageState)
		return ok && m.ID == "m1" && m.State == "completed"
	})
	r.ev.await(t, "the slash commands", func(ev chat.Event) bool { c, ok := ev.(chat.Commands); return ok && len(c.List) > 0 })
	if u, err := r.b.ContextUsage(r.ctx()); err != nil || u.MaxTokens == 0 {
		t.Errorf("ContextUsage = %+v, %v; want the agent's usage_update", u, err)
	}
}

func TestAPermissionIsTheUsersToAnswer(t *testing.T) {
	t.Run("allowed", func(t *testing.T) {
		r := newRun(t)
		file := filepath.Join(r.env.Project, "notes.txt")
		if err := os.WriteFile(file, []byte("one\ntwo\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		r.api.Push(fakeapi.Read(file), fakeapi.Edit(file, "two", "TWO"), fakeapi.Say("Edited."))
		r.start(acpchat.Options{})
		if err := r.b.SendAs(r.ctx(), "", "edit notes.txt"); err != nil {
			t.Fatal(err)
		}
		req := r.ev.await(t, "the permission request", func(ev chat.Event) bool { _, ok := ev.(chat.PermissionRequest); return ok }).(chat.PermissionRequest)
		if req.ToolName != "Edit" || !strings.Contains(req.Description, "-two") || !strings.Contains(req.Description, "+TWO") {
			t.Errorf("the request = %+v; want the Edit with its diff", req)
		}
		if got := fileText(t, file); got != "one\ntwo\n" {
			t.Fatalf("notes.txt before the answer = %q", got)
		}
		if err := r.b.Allow(r.ctx(), req.Ticket, nil); err != nil {
			t.Fatal(err)
		}
		end := r.ev.await(t, "the turn's end", turnEnd).(chat.TurnEnd)
		if got := fileText(t, file); got != "one\nTWO\n" || end.IsError {
			t.Errorf("after the Edit was allowed: notes.txt = %q, the turn %+v", got, end)
		}
		res := r.ev.await(t, "the Edit's result", func(ev chat.Event) bool { x, ok := ev.(chat.ToolResult); return ok && x.ID == req.ToolUseID }).(chat.ToolResult)
		if res.IsError {
			t.Errorf("the allowed Edit's result = %+v", res)
		}
	})
	t.Run("denied", func(t *testing.T) {
		r := newRun(t)
		file := filepath.Join(r.env.Project, "new.txt")
		r.api.Push(fakeapi.Write(file, "fresh\n"), fakeapi.Say("Not written."))
		r.start(acpchat.Options{})
		if err := r.b.SendAs(r.ctx(), "", "write new.txt"); err != nil {
			t.Fatal(err)
		}
		req := r.ev.await(t, "the permission request", func(ev chat.Event) bool { _, ok := ev.(chat.PermissionRequest); return ok }).(chat.PermissionRequest)
		if err := r.b.Deny(r.ctx(), req.Ticket, "no"); err != nil {
			t.Fatal(err)
		}
		r.ev.await(t, "the turn's end", turnEnd)
		if _, err := os.Stat(file); !os.IsNotExist(err) {
			t.Errorf("new.txt after the Write was denied: %v; want no file", err)
		}
		res := r.ev.await(t, "the Write's result", func(ev chat.Event) bool { x, ok := ev.(chat.ToolResult); return ok && x.ID == req.ToolUseID }).(chat.ToolResult)
		if !res.IsError {
			t.Errorf("the denied Write's result = %+v; want failed", res)
		}
	})
}

func fileText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestAStoredSessionIsResumed(t *testing.T) {
	r := newRun(t, fakeapi.Say("First answer."), fakeapi.Say("Second answer."))
	r.start(acpchat.Options{})
	if err := r.b.SendAs(r.ctx(), "", "remember the word tangerine"); err != nil {
		t.Fatal(err)
	}
	first := r.ev.await(t, "the first turn's end", turnEnd).(chat.TurnEnd)
	if err := r.b.Close(r.ctx()); err != nil {
		t.Fatal(err)
	}
	<-r.ev.gone
	r.start(acpchat.Options{Resume: first.SessionID})
	init := r.ev.await(t, "the resumed session's Init", func(ev chat.Event) bool { _, ok := ev.(chat.Init); return ok }).(chat.Init)
	if init.SessionID != first.SessionID {
		t.Errorf("the resumed session is %q; want %q", init.SessionID, first.SessionID)
	}
	if err := r.b.SendAs(r.ctx(), "", "which word?"); err != nil {
		t.Fatal(err)
	}
	r.ev.await(t, "the second turn's end", turnEnd)
	reqs := r.api.Main()
	if len(reqs) < 2 || !strings.Contains(reqs[len(reqs)-1].UserText(), "tangerine") {
		t.Errorf("the resumed turn's request does not hold the first prompt (%d main requests)", len(reqs))
	}
}

func TestTheModelIsTheAgentsModelOption(t *testing.T) {
	r := newRun(t, fakeapi.Say("From haiku."))
	r.start(acpchat.Options{})
	init, err := r.b.Initialize(r.ctx())
	if err != nil {
		t.Fatal(err)
	}
	var values []string
	for _, m := range init.Models {
		values = append(values, m.Value)
	}
	if !strings.Contains(strings.Join(values, " "), "haiku") {
		t.Fatalf("the models = %v; want the agent's model option's values", values)
	}
	if err := r.b.SetModel(r.ctx(), "haiku"); err != nil {
		t.Fatal(err)
	}
	if err := r.b.SendAs(r.ctx(), "", "hi"); err != nil {
		t.Fatal(err)
	}
	r.ev.await(t, "the turn's end", turnEnd)
	reqs := r.api.Main()
	if len(reqs) == 0 || !strings.Contains(reqs[len(reqs)-1].Messages.Model, "haiku") {
		t.Errorf("the turn's request went to %q; want haiku", reqs[len(reqs)-1].Messages.Model)
	}
}

// A chat closed as soon as the answer shows keeps the conversation: the agent's session is
// closed and its CLI let exit before the agent goes, so the conversation is on disk whole.
// The CLI writes its last messages as it ends the turn, tens of milliseconds after the
// answer's text; SIGTERMed by an agent exiting at once, it did not, and the conversation
// was gone from the agent's list (a new conversation started right after an answer).
func TestAChatClosedAsSoonAsTheAnswerShowsKeepsTheConversation(t *testing.T) {
	const answer = "Noted: the word is quince."
	r := newRun(t, fakeapi.Say(answer))
	r.start(acpchat.Options{})
	init := r.ev.await(t, "the session's Init", func(ev chat.Event) bool { _, ok := ev.(chat.Init); return ok }).(chat.Init)
	if err := r.b.SendAs(r.ctx(), "", "remember the word quince"); err != nil {
		t.Fatal(err)
	}
	var shown strings.Builder
	r.ev.await(t, "the answer", func(ev chat.Event) bool {
		if d, ok := ev.(chat.TextDelta); ok {
			shown.WriteString(d.Text)
		}
		return strings.Contains(shown.String(), answer)
	})
	if err := r.b.Close(r.ctx()); err != nil {
		t.Fatal(err)
	}
	<-r.ev.gone
	stored, _ := filepath.Glob(filepath.Join(r.env.ConfigDir, "projects", "*", init.SessionID+".jsonl"))
	if len(stored) != 1 {
		t.Fatalf("the conversation %s is not stored under %s/projects", init.SessionID, r.env.ConfigDir)
	}
	text := fileText(t, stored[0])
	for _, want := range []string{"remember the word quince", answer} {
		if !strings.Contains(text, want) {
			t.Errorf("the stored conversation lacks %q (%d bytes stored)", want, len(text))
		}
	}
}
