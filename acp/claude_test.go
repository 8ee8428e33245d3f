package acp_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/acp"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

func TestClaudeAgentStreamsAnAnswer(t *testing.T) {
	answer := strings.Repeat("The stand-in streams this answer in small pieces. ", 8)
	r := newClaudeRun(t, fakeapi.Turn{Thinking: "Let me think.", Text: answer, Chunk: 16})
	ed := newEditor(r.env.Project)
	a := r.start(ed)
	init, err := a.Initialize(r.wait(), acp.Implementation{Name: "claude.nvim", Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	caps := init.AgentCapabilities
	if init.AgentInfo == nil || init.AgentInfo.Name != "@agentclientprotocol/claude-agent-acp" || init.AgentInfo.Version != "0.101.0" ||
		!caps.LoadSession || !caps.SessionCapabilities.CanList() || !caps.SessionCapabilities.CanResume() || !caps.SessionCapabilities.CanClose() ||
		!caps.PromptCapabilities.Image || !caps.PromptCapabilities.EmbeddedContext || len(init.AuthMethods) != 0 {
		t.Errorf("initialize = %+v, agent %+v; want claude-agent-acp 0.101.0 with load, list, resume, close, images, embedded context, no auth methods", init, init.AgentInfo)
	}

	s, err := a.NewSession(r.wait(), acp.NewSessionRequest{Cwd: r.env.Project})
	if err != nil {
		t.Fatal(err)
	}
	var modes []string
	if s.Modes != nil {
		for _, m := range s.Modes.AvailableModes {
			modes = append(modes, m.ID)
		}
	}
	if !slices.Equal(modes, []string{"default", "acceptEdits", "plan", "auto"}) {
		t.Errorf("session/new modes = %v; want default, acceptEdits, plan, auto", modes)
	}
	var options []string
	for _, o := range s.ConfigOptions {
		options = append(options, o.ID)
	}
	if len(options) < 2 || options[0] != "mode" || options[1] != "model" {
		t.Errorf("session/new config options = %v; want mode and model first", options)
	}

	set, err := a.SetConfigOption(r.wait(), s.SessionID, "mode", "default")
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.IndexFunc(set.ConfigOptions, func(o acp.ConfigOption) bool { return o.ID == "mode" }); i < 0 || set.ConfigOptions[i].Current() != "default" {
		t.Errorf("after setting mode to default the options say %+v", set.ConfigOptions)
	}
	ed.waitFor(t, "the mode change", func(ups []acp.SessionNotification) bool {
		for _, u := range ups {
			if m, ok := u.Update.(*acp.CurrentModeUpdate); ok && m.CurrentModeID == "default" {
				return true
			}
		}
		return false
	})

	res := r.prompt(a, s.SessionID, "tell me a story")
	if res.StopReason != acp.StopEndTurn {
		t.Errorf("stop reason %q; want end_turn", res.StopReason)
	}
	ups := ed.all()
	if got := text(ups, acp.KindAgentMessageChunk); got != answer {
		t.Errorf("the streamed answer = %q; want the stand-in's %q", got, answer)
	}
	if got := text(ups, acp.KindAgentThoughtChunk); got != "Let me think." {
		t.Errorf("the thinking = %q", got)
	}
	chunks := 0
	for _, u := range ups {
		if u.Update.Kind() == acp.KindAgentMessageChunk {
			chunks++
		}
		if u.SessionID != s.SessionID {
			t.Errorf("an update of session %q; want %q", u.SessionID, s.SessionID)
		}
	}
	if chunks < 2 {
		t.Errorf("the answer came in %d chunk(s); want it streamed", chunks)
	}
	if main := r.api.Main(); len(main) != 1 || !strings.Contains(main[0].LastUserText(), "tell me a story") {
		t.Errorf("the model was asked %d times; want once, with our prompt", len(main))
	}
}

// A tool call waits for the user: allowed it runs, refused it does not, and the agent
// asked by the options' kinds. It writes the file itself: no fs/* request comes although
// the client serves them.
func TestClaudeAgentAsksBeforeItWrites(t *testing.T) {
	t.Run("allowed", func(t *testing.T) {
		r := newClaudeRun(t)
		file := filepath.Join(r.env.Project, "notes.txt")
		if err := os.WriteFile(file, []byte("one\ntwo\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		r.api.Push(fakeapi.Read(file), fakeapi.Edit(file, "two", "TWO"), fakeapi.Say("Edited."))
		ed := newEditor(r.env.Project)
		a, s := r.session(ed)
		if err := a.SetMode(r.wait(), s.SessionID, "default"); err != nil {
			t.Fatal(err)
		}
		ed.answer(acp.AllowOnce)
		res := r.prompt(a, s.SessionID, "edit notes.txt")
		asked := ed.permissions()
		if len(asked) != 1 {
			t.Fatalf("%d permission requests; want one, for the Edit", len(asked))
		}
		req := asked[0]
		kinds := map[string]bool{}
		for _, o := range req.Options {
			kinds[o.Kind] = true
		}
		if !kinds[acp.AllowOnce] || !kinds[acp.RejectOnce] || req.ToolCall.Title == nil || *req.ToolCall.Title != "Edit notes.txt" ||
			len(req.ToolCall.Content) != 1 || req.ToolCall.Content[0].Type != "diff" || req.ToolCall.Content[0].Path != file ||
			req.ToolCall.Content[0].OldText == nil || *req.ToolCall.Content[0].OldText != "two" || req.ToolCall.Content[0].NewText != "TWO" {
			t.Errorf("the permission request = %+v, tool call %+v; want the Edit with its diff and allow/reject options", req, req.ToolCall)
		}
		if got := fileText(t, file); got != "one\nTWO\n" {
			t.Errorf("notes.txt after the Edit was allowed = %q", got)
		}
		if st := toolStatus(ed.all(), req.ToolCall.ToolCallID); st != "completed" || res.StopReason != acp.StopEndTurn {
			t.Errorf("the allowed Edit ended %q, the turn %q; want completed, end_turn", st, res.StopReason)
		}
		if calls := ed.fs(); len(calls) != 0 {
			t.Errorf("the agent used the client's fs: %v (it wrote through its own tools in 0.101.0; doc.go says so)", calls)
		}
	})
	t.Run("refused", func(t *testing.T) {
		r := newClaudeRun(t)
		file := filepath.Join(r.env.Project, "new.txt")
		r.api.Push(fakeapi.Write(file, "fresh\n"), fakeapi.Say("Not written."))
		ed := newEditor(r.env.Project)
		a, s := r.session(ed)
		if err := a.SetMode(r.wait(), s.SessionID, "default"); err != nil {
			t.Fatal(err)
		}
		ed.answer(acp.RejectOnce)
		res := r.prompt(a, s.SessionID, "write new.txt")
		asked := ed.permissions()
		if len(asked) != 1 || asked[0].ToolCall.Title == nil || *asked[0].ToolCall.Title != "Write new.txt" {
			t.Fatalf("permission requests = %+v; want one, for the Write", asked)
		}
		if _, err := os.Stat(file); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("new.txt after the Write was refused: %v (%q); want no file", err, fileText(t, file))
		}
		if st := toolStatus(ed.all(), asked[0].ToolCall.ToolCallID); st != "failed" || res.StopReason != acp.StopEndTurn {
			t.Errorf("the refused Write ended %q, the turn %q; want failed, end_turn", st, res.StopReason)
		}
		// The model heard of the refusal.
		if b, err := r.api.ToolResult(r.wait(), "Write"); err != nil || !b.IsError {
			t.Errorf("the Write's result to the model = %+v (%v); want an error", b, err)
		}
	})
}

func TestClaudeAgentCancelsMidTurn(t *testing.T) {
	t.Run("streaming", func(t *testing.T) {
		long := strings.Repeat("A slow answer that will not finish. ", 200)
		r := newClaudeRun(t, fakeapi.Stream(long, 10, 100*time.Millisecond), fakeapi.Say("Second answer."))
		ed := newEditor(r.env.Project)
		a, s := r.session(ed)
		turn := make(chan *acp.PromptResult, 1)
		go func() {
			res, err := a.Prompt(r.wait(), s.SessionID, []acp.ContentBlock{acp.Text("talk slowly")})
			if err != nil {
				t.Error(err)
			}
			turn <- res
		}()
		ed.waitFor(t, "the first chunk", func(ups []acp.SessionNotification) bool { return text(ups, acp.KindAgentMessageChunk) != "" })
		if err := a.Cancel(r.wait(), s.SessionID); err != nil {
			t.Fatal(err)
		}
		select {
		case res := <-turn:
			if res == nil || res.StopReason != acp.StopCancelled {
				t.Errorf("the cancelled turn ended %s; want cancelled", stopReason(res))
			}
		case <-time.After(claudeTimeout):
			t.Fatal("the turn did not end after Cancel")
		}
		if got := text(ed.all(), acp.KindAgentMessageChunk); len(got) >= len(long) {
			t.Errorf("the whole answer came (%d bytes) although the turn was cancelled", len(got))
		}
		// The session goes on.
		if res := r.prompt(a, s.SessionID, "again"); res.StopReason != acp.StopEndTurn {
			t.Errorf("the turn after a cancel ended %q", res.StopReason)
		}
	})
	t.Run("waiting for a permission", func(t *testing.T) {
		r := newClaudeRun(t)
		file := filepath.Join(r.env.Project, "new.txt")
		r.api.Push(fakeapi.Write(file, "fresh\n"), fakeapi.Say("unreachable"))
		ed := newEditor(r.env.Project)
		a, s := r.session(ed)
		if err := a.SetMode(r.wait(), s.SessionID, "default"); err != nil {
			t.Fatal(err)
		}
		turn := make(chan *acp.PromptResult, 1)
		go func() {
			res, err := a.Prompt(r.wait(), s.SessionID, []acp.ContentBlock{acp.Text("write new.txt")})
			if err != nil {
				t.Error(err)
			}
			turn <- res
		}()
		ed.nextPermission(t) // nobody answers it
		if err := a.Cancel(r.wait(), s.SessionID); err != nil {
			t.Fatal(err)
		}
		select {
		case res := <-turn:
			if res == nil || res.StopReason != acp.StopCancelled {
				t.Errorf("the turn cancelled at its permission ended %s; want cancelled", stopReason(res))
			}
		case <-time.After(claudeTimeout):
			t.Fatal("the turn did not end after Cancel")
		}
		if _, err := os.Stat(file); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("new.txt exists after the turn was cancelled at its permission: %q", fileText(t, file))
		}
	})
}

// History: the session is listed, session/load replays it, session/resume continues it
// without a replay.
func TestClaudeAgentReopensAStoredSession(t *testing.T) {
	r := newClaudeRun(t, fakeapi.Say("The first answer."), fakeapi.Say("The resumed answer."))
	first := newEditor(r.env.Project)
	a, s := r.session(first)
	r.prompt(a, s.SessionID, "remember this")
	r.end(a, s.SessionID)

	loader := newEditor(r.env.Project)
	b := r.start(loader)
	if _, err := b.Initialize(r.wait(), acp.Implementation{Name: "claude.nvim", Version: "test"}); err != nil {
		t.Fatal(err)
	}
	list, err := b.ListSessions(r.wait(), acp.ListSessionsRequest{Cwd: r.env.Project})
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.IndexFunc(list.Sessions, func(x acp.SessionInfo) bool { return x.SessionID == s.SessionID }); i < 0 || list.Sessions[i].Cwd != r.env.Project {
		t.Errorf("session/list = %+v; want %s in %s", list.Sessions, s.SessionID, r.env.Project)
	}
	if _, err := b.LoadSession(r.wait(), acp.LoadSessionRequest{SessionID: s.SessionID, Cwd: r.env.Project}); err != nil {
		t.Fatal(err)
	}
	ups := loader.all()
	if got := text(ups, acp.KindUserMessageChunk); got != "remember this" {
		t.Errorf("the replay's user text = %q; want our prompt", got)
	}
	if got := text(ups, acp.KindAgentMessageChunk); got != "The first answer." {
		t.Errorf("the replay's answer = %q", got)
	}
	if err := b.Close(r.wait()); err != nil {
		t.Fatal(err)
	}

	resumer := newEditor(r.env.Project)
	c := r.start(resumer)
	if _, err := c.Initialize(r.wait(), acp.Implementation{Name: "claude.nvim", Version: "test"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ResumeSession(r.wait(), acp.ResumeSessionRequest{SessionID: s.SessionID, Cwd: r.env.Project}); err != nil {
		t.Fatal(err)
	}
	if got := text(resumer.all(), acp.KindUserMessageChunk); got != "" {
		t.Errorf("session/resume replayed %q; want no replay", got)
	}
	r.prompt(c, s.SessionID, "and now?")
	if got := text(resumer.all(), acp.KindAgentMessageChunk); got != "The resumed answer." {
		t.Errorf("the resumed session answered %q", got)
	}
	main := r.api.Main()
	if last := main[len(main)-1]; !strings.Contains(last.UserText(), "remember this") {
		t.Errorf("the resumed turn did not carry the conversation to the model: %q", last.UserText())
	}
}

func TestClaudeAgentKilledMidTurnFailsTheTurn(t *testing.T) {
	gate := make(chan struct{})
	r := newClaudeRun(t, fakeapi.Turn{Text: "never sent", Gate: gate})
	t.Cleanup(func() { close(gate) })
	ed := newEditor(r.env.Project)
	a, s := r.session(ed)
	turn := make(chan error, 1)
	go func() {
		_, err := a.Prompt(r.wait(), s.SessionID, []acp.ContentBlock{acp.Text("hello")})
		turn <- err
	}()
	if _, err := r.api.NextMain(r.wait()); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(a.PID(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-turn:
		var exit *acp.ExitError
		if !errors.As(err, &exit) || exit.Signal != "killed" || !strings.Contains(err.Error(), "session/prompt") {
			t.Errorf("the turn of a killed agent: %v; want an ExitError saying it was killed", err)
		}
	case <-time.After(claudeTimeout):
		t.Fatal("the turn did not end when the agent was killed")
	}
}
