package attention

import (
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/hooks"
)

func ev(name string, fields ...string) hooks.Event {
	e := hooks.Event{Name: name, SessionID: "conv-1", Cwd: "/w"}
	for i := 0; i+1 < len(fields); i += 2 {
		switch fields[i] {
		case "notification":
			e.Notification = fields[i+1]
		case "prompt":
			e.Prompt = fields[i+1]
		case "session":
			e.SessionID = fields[i+1]
		case "mode":
			e.PermissionMode = fields[i+1]
		case "tool":
			e.ToolName = fields[i+1]
		}
	}
	return e
}

// at gives e the origin.
func at(origin string, e hooks.Event) hooks.Event {
	e.Origin = origin
	return e
}

// only returns the one session of the board, failing if there is not exactly one.
func only(t *testing.T, b *Board) Session {
	t.Helper()
	all := b.All()
	if len(all) != 1 {
		t.Fatalf("%d sessions, want 1: %+v", len(all), all)
	}
	return all[0]
}

func TestATerminalsHooksMoveItsState(t *testing.T) {
	for _, tt := range []struct {
		name  string
		hooks []hooks.Event
		state State
		kind  string
		wait  int
	}{
		{"a started CLI is done, with no wait yet", []hooks.Event{ev(hooks.SessionStart)}, Done, "", 0},
		{"a prompt makes it work", []hooks.Event{ev(hooks.SessionStart), ev(hooks.UserPromptSubmit, "prompt", "fix it")}, Working, "", 0},
		{"a permission asked in its prompt needs you, once for the request and its notification",
			[]hooks.Event{ev(hooks.UserPromptSubmit), ev(hooks.PreToolUse), ev(hooks.PermissionRequest), ev(hooks.Notification, "notification", "permission_prompt")},
			NeedsYou, KindPermission, 1},
		{"an edit asked about is a review (its diff is open), not a permission, also after the notification",
			[]hooks.Event{ev(hooks.UserPromptSubmit), ev(hooks.PreToolUse, "tool", "Edit"), ev(hooks.PermissionRequest, "tool", "Edit"), ev(hooks.Notification, "notification", "permission_prompt")},
			NeedsYou, KindDiff, 1},
		{"the tool that ran after the answer makes it work again",
			[]hooks.Event{ev(hooks.UserPromptSubmit), ev(hooks.PermissionRequest), ev(hooks.PostToolUse)}, Working, "", 1},
		{"Stop makes it done", []hooks.Event{ev(hooks.UserPromptSubmit), ev(hooks.Stop)}, Done, "", 1},
		{"an idle prompt after an unseen turn needs you",
			[]hooks.Event{ev(hooks.UserPromptSubmit), ev(hooks.Stop), ev(hooks.Notification, "notification", "idle_prompt")}, NeedsYou, KindIdle, 2},
		{"an idle prompt before any turn says nothing",
			[]hooks.Event{ev(hooks.SessionStart), ev(hooks.Notification, "notification", "idle_prompt")}, Done, "", 0},
		{"an unknown notification says nothing",
			[]hooks.Event{ev(hooks.UserPromptSubmit), ev(hooks.Notification, "notification", "auth_success")}, Working, "", 0},
		{"SessionEnd makes it exited", []hooks.Event{ev(hooks.UserPromptSubmit), ev(hooks.SessionEnd)}, Exited, "", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := New(nil)
			for _, e := range tt.hooks {
				b.Hook(at("terminal:2", e))
			}
			got := only(t, b)
			if got.State != tt.state || got.Kind != tt.kind || got.Wait != tt.wait || got.Key != "terminal:2" || got.Cwd != "/w" {
				t.Errorf("after %d hooks: %+v, want state %s kind %q wait %d", len(tt.hooks), got, tt.state, tt.kind, tt.wait)
			}
		})
	}
}

// The permission mode follows the hooks that carry one (a switch made with shift+tab in the
// CLI shows with its next event); SessionStart, which carries none, keeps the last.
func TestATerminalsModeIsTheLastItsHooksSaid(t *testing.T) {
	for _, tt := range []struct {
		name  string
		hooks []hooks.Event
		mode  string
	}{
		{"none before an event says", []hooks.Event{ev(hooks.SessionStart)}, ""},
		{"a prompt's", []hooks.Event{ev(hooks.SessionStart), ev(hooks.UserPromptSubmit, "mode", "default")}, "default"},
		{"switched between two prompts", []hooks.Event{ev(hooks.UserPromptSubmit, "mode", "default"), ev(hooks.Stop, "mode", "default"), ev(hooks.UserPromptSubmit, "mode", "auto")}, "auto"},
		{"kept by an event without one", []hooks.Event{ev(hooks.UserPromptSubmit, "mode", "acceptEdits"), ev(hooks.SessionStart)}, "acceptEdits"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			b := New(nil)
			for _, e := range tt.hooks {
				b.Hook(at("terminal:1", e))
			}
			if got := only(t, b); got.Mode != tt.mode {
				t.Errorf("after %d hooks the mode is %q, want %q", len(tt.hooks), got.Mode, tt.mode)
			}
		})
	}
	b := New(nil)
	b.Hook(at("terminal:1", ev(hooks.UserPromptSubmit, "mode", "default")))
	b.Take()
	b.Hook(at("terminal:1", ev(hooks.UserPromptSubmit, "mode", "auto"))) // the same state: only the mode changed
	if changed := b.Take(); len(changed) != 1 || changed[0].Mode != "auto" {
		t.Errorf("after a switch alone Take gave %+v, want the session with mode auto (it is pushed to Lua)", changed)
	}
}

func TestHooksOfOtherOriginsAreIgnored(t *testing.T) {
	b := New(nil)
	for _, origin := range []string{"", "chat:/w", "terminal"} {
		b.Hook(at(origin, ev(hooks.UserPromptSubmit)))
	}
	if all := b.All(); len(all) != 0 {
		t.Errorf("sessions from foreign origins: %+v", all)
	}
}

func TestAFinishedTurnLookedAtNeedsNobody(t *testing.T) {
	b := New(nil)
	b.Hook(at("terminal:1", ev(hooks.UserPromptSubmit)))
	b.Hook(at("terminal:1", ev(hooks.Stop)))
	b.Here("terminal:1")
	b.Here("")
	b.Hook(at("terminal:1", ev(hooks.Notification, "notification", "idle_prompt")))
	if got := only(t, b); got.State != Done {
		t.Errorf("idle prompt after the user looked: %+v, want done", got)
	}

	// Waiting on an idle prompt, then looked at: done again, the same wait.
	b.Hook(at("terminal:1", ev(hooks.UserPromptSubmit)))
	b.Hook(at("terminal:1", ev(hooks.Stop)))
	b.Hook(at("terminal:1", ev(hooks.Notification, "notification", "idle_prompt")))
	waiting := only(t, b)
	if waiting.State != NeedsYou || waiting.Kind != KindIdle {
		t.Fatalf("idle prompt unseen: %+v", waiting)
	}
	b.Here("terminal:1")
	if got := only(t, b); got.State != Done || got.Wait != waiting.Wait {
		t.Errorf("looked at: %+v, want done with wait %d", got, waiting.Wait)
	}

	// A turn that ends while the user is in its window is seen.
	b.Hook(at("terminal:1", ev(hooks.UserPromptSubmit)))
	b.Hook(at("terminal:1", ev(hooks.Stop)))
	b.Hook(at("terminal:1", ev(hooks.Notification, "notification", "idle_prompt")))
	if got := only(t, b); got.State != Done {
		t.Errorf("a turn that ended under the user's eyes then idled: %+v, want done", got)
	}
}

func TestLookingAtAPermissionDoesNotAnswerIt(t *testing.T) {
	b := New(nil)
	b.Hook(at("terminal:1", ev(hooks.PermissionRequest)))
	b.Here("terminal:1")
	if got := only(t, b); got.State != NeedsYou || got.Kind != KindPermission {
		t.Errorf("%+v, want needs_you permission", got)
	}
}

func TestAChatsStates(t *testing.T) {
	b := New(nil)
	b.ChatConversation("/w", "c1")
	b.ChatSent("/w", "hello")
	b.ChatWorking("/w")
	b.ChatWaits("/w", KindQuestion)
	b.ChatWorking("/w") // a delta after the question does not answer it
	if got := only(t, b); got.State != NeedsYou || got.Kind != KindQuestion || got.Wait != 1 || got.Key != "chat:/w" || got.Conversation != "c1" || got.Prompt != "hello" {
		t.Fatalf("asking: %+v", got)
	}
	b.ChatAnswered("/w")
	b.ChatDone("/w")
	if got := only(t, b); got.State != Done || got.Wait != 2 {
		t.Fatalf("done: %+v", got)
	}
	b.ChatExited("/w")
	if got := only(t, b); got.State != Exited {
		t.Fatalf("exited: %+v", got)
	}
}

func TestTakeGivesEachChangedSessionOnceAndWakesOnce(t *testing.T) {
	clock := time.Unix(1000, 0)
	b := New(func() time.Time { return clock })
	b.Hook(at("terminal:1", ev(hooks.UserPromptSubmit, "prompt", "one")))
	b.Hook(at("terminal:1", ev(hooks.PreToolUse)))
	b.ChatSent("/w", "two")
	select {
	case <-b.Changes():
	default:
		t.Fatal("no wake after changes")
	}
	select {
	case <-b.Changes():
		t.Fatal("a second wake for the same burst")
	default:
	}
	got := b.Take()
	if len(got) != 2 || got[0].Key != "chat:/w" || got[1].Key != "terminal:1" || got[1].Since != 1000 || got[1].Prompt != "one" {
		t.Errorf("Take: %+v", got)
	}
	if again := b.Take(); len(again) != 0 {
		t.Errorf("a second Take: %+v", again)
	}
	b.Hook(at("terminal:1", ev(hooks.PostToolUse))) // working already: nothing changes
	if again := b.Take(); len(again) != 0 {
		t.Errorf("Take after an event that changed nothing: %+v", again)
	}
}

func TestAGoneProcessExitsOnlyAKnownSession(t *testing.T) {
	b := New(nil)
	b.Gone("terminal:3")
	if all := b.All(); len(all) != 0 {
		t.Fatalf("an unknown session appeared: %+v", all)
	}
	b.Hook(at("terminal:3", ev(hooks.UserPromptSubmit)))
	b.Gone("terminal:3")
	if got := only(t, b); got.State != Exited {
		t.Errorf("%+v, want exited", got)
	}
}

func TestALongPromptIsCut(t *testing.T) {
	b := New(nil)
	b.ChatSent("/w", strings.Repeat("é", maxPrompt))
	got := only(t, b).Prompt
	if len(got) > maxPrompt+len("…") || !strings.HasSuffix(got, "…") || !strings.HasPrefix(got, "éé") {
		t.Errorf("cut prompt %q (%d bytes)", got, len(got))
	}
}
