package attention

import (
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/claude-nvim/claude.nvim/hooks"
)

// State is where a session stands, from the user's side.
type State string

// The states, in the order the attention list shows them.
const (
	NeedsYou State = "needs_you" // a permission, a question, a plan, a diff, an unseen idle prompt
	Working  State = "working"   // a turn runs
	Done     State = "done"      // the last turn ended (or none ran yet)
	Exited   State = "exited"    // the CLI is gone
)

// What a session needing the user waits for (Session.Kind).
const (
	KindPermission = "permission" // a tool's permission, in the CLI's own prompt or the chat's
	KindQuestion   = "question"   // AskUserQuestion in the chat
	KindPlan       = "plan"       // ExitPlanMode's plan in the chat
	KindDiff       = "diff"       // an edit under review in the diff view
	KindIdle       = "idle"       // the CLI's idle prompt after a turn the user has not looked at
)

// maxPrompt bounds the prompt kept for the list: one line of it is shown.
const maxPrompt = 200

// Session is what Lua gets of one session (lua/claude/attention/init.lua).
type Session struct {
	Key          string `msgpack:"key"` // "terminal:N" or "chat:<dir>"
	State        State  `msgpack:"state"`
	Kind         string `msgpack:"kind"` // with NeedsYou: what waits
	Cwd          string `msgpack:"cwd"`
	Prompt       string `msgpack:"prompt"` // the last prompt the user sent, cut to maxPrompt
	Since        int64  `msgpack:"since"`  // when State began, Unix seconds
	Conversation string `msgpack:"conversation"`
	// Mode is a terminal CLI's permission mode as its last hook event that carried one said
	// ("default", "acceptEdits", "plan", "auto", "dontAsk", "bypassPermissions"): a switch
	// made inside the CLI (shift+tab) shows with its next event. Empty until one did.
	Mode string `msgpack:"mode"`
	// Wait numbers the session's waits and finished turns: it grows when the session comes
	// to need the user or to be done, and only then.
	Wait int `msgpack:"wait"`
}

// Board holds the sessions. Its methods are quick and never block: hooks wait on them.
type Board struct {
	now  func() time.Time
	wake chan struct{}

	mu       sync.Mutex // guards the fields below
	sessions map[string]*entry
	dirty    map[string]bool
	here     string // the session whose window the cursor is in
}

type entry struct {
	Session
	seen bool // the user was in its window since its turn ended
}

// New returns an empty board; now is the clock (nil: time.Now).
func New(now func() time.Time) *Board {
	if now == nil {
		now = time.Now
	}
	return &Board{now: now, wake: make(chan struct{}, 1), sessions: map[string]*entry{}, dirty: map[string]bool{}}
}

// Changes is signalled (coalesced) after sessions changed: Take them.
func (b *Board) Changes() <-chan struct{} { return b.wake }

// Take returns the sessions that changed since the last Take, by key.
func (b *Board) Take() []Session {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]Session, 0, len(b.dirty))
	for key := range b.dirty {
		if e := b.sessions[key]; e != nil {
			out = append(out, e.Session)
		}
	}
	clear(b.dirty)
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// All returns every session, by key.
func (b *Board) All() []Session {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]Session, 0, len(b.sessions))
	for _, e := range b.sessions {
		out = append(out, e.Session)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// Hook takes a terminal CLI's hook event (Origin "terminal:N"). Events of other origins (a
// chat's CLI: its stream says more; a CLI we did not start) are ignored.
func (b *Board) Hook(e hooks.Event) {
	if !strings.HasPrefix(e.Origin, "terminal:") {
		return
	}
	b.update(e.Origin, func(s *entry) {
		if e.Cwd != "" {
			s.Cwd = e.Cwd
		}
		if e.SessionID != "" {
			s.Conversation = e.SessionID
		}
		if e.PermissionMode != "" { // SessionStart has none
			s.Mode = e.PermissionMode
		}
		switch e.Name {
		case hooks.SessionStart:
			if s.State == "" || s.State == Exited {
				b.enter(s, Done, "")
			}
		case hooks.UserPromptSubmit:
			s.Prompt = cut(e.Prompt)
			b.enter(s, Working, "")
		case hooks.PreToolUse, hooks.PostToolUse:
			b.enter(s, Working, "")
		case hooks.PermissionRequest:
			// An edit the CLI asks about is reviewed in its diff (openDiff): a review, as
			// :ClaudeChanges and the diff say, not a permission.
			kind := KindPermission
			if hooks.Reviewed(e.ToolName) {
				kind = KindDiff
			}
			b.enter(s, NeedsYou, kind)
		case hooks.Notification:
			switch e.Notification {
			case "permission_prompt":
				if s.State != NeedsYou || s.Kind != KindDiff { // the review's own notification
					b.enter(s, NeedsYou, KindPermission)
				}
			case "idle_prompt":
				// Only a finished turn nobody looked at: an idle prompt after the user was
				// there, or while a wait is up, says nothing new.
				if s.State == Done && !s.seen && s.Wait > 0 {
					b.enter(s, NeedsYou, KindIdle)
				}
			}
		case hooks.Stop:
			b.enter(s, Done, "")
		case hooks.SessionEnd:
			b.enter(s, Exited, "")
		}
	})
}

// ChatSent records a prompt the user sent to dir's chat: its turn runs.
func (b *Board) ChatSent(dir, prompt string) {
	b.update(chatKey(dir), func(s *entry) {
		s.Cwd = dir
		s.Prompt = cut(prompt)
		b.enter(s, Working, "")
	})
}

// ChatWorking records that dir's chat's turn runs (it streams, a tool ran, an answer went).
func (b *Board) ChatWorking(dir string) {
	b.update(chatKey(dir), func(s *entry) {
		s.Cwd = dir
		if s.State != NeedsYou || s.Kind == KindIdle {
			b.enter(s, Working, "")
		}
	})
}

// ChatAnswered records that the chat's wait was answered (or withdrawn): the turn goes on.
func (b *Board) ChatAnswered(dir string) {
	b.update(chatKey(dir), func(s *entry) {
		s.Cwd = dir
		if s.State == NeedsYou {
			b.enter(s, Working, "")
		}
	})
}

// ChatWaits records that dir's chat asks the user (kind: KindPermission, KindQuestion,
// KindPlan, KindDiff).
func (b *Board) ChatWaits(dir, kind string) {
	b.update(chatKey(dir), func(s *entry) {
		s.Cwd = dir
		b.enter(s, NeedsYou, kind)
	})
}

// ChatDone records the end of dir's chat's turn.
func (b *Board) ChatDone(dir string) {
	b.update(chatKey(dir), func(s *entry) {
		s.Cwd = dir
		b.enter(s, Done, "")
	})
}

// ChatExited records that dir's chat's CLI is gone.
func (b *Board) ChatExited(dir string) {
	b.update(chatKey(dir), func(s *entry) {
		s.Cwd = dir
		b.enter(s, Exited, "")
	})
}

// ChatConversation records the conversation dir's chat's CLI runs (its init's session id).
func (b *Board) ChatConversation(dir, id string) {
	b.update(chatKey(dir), func(s *entry) {
		s.Cwd = dir
		if id != "" {
			s.Conversation = id
		}
		if s.State == "" {
			b.enter(s, Done, "")
		}
	})
}

// Gone records that a session's process ended without saying so (a terminal's job that
// exited before its SessionEnd hook could run).
func (b *Board) Gone(key string) {
	b.mu.Lock()
	_, known := b.sessions[key]
	b.mu.Unlock()
	if known {
		b.update(key, func(s *entry) { b.enter(s, Exited, "") })
	}
}

// Here records that the cursor entered key's window ("" for none of ours): its finished
// turn is looked at, and an idle prompt no longer needs the user.
func (b *Board) Here(key string) {
	b.mu.Lock()
	b.here = key
	_, known := b.sessions[key]
	b.mu.Unlock()
	if known {
		b.update(key, func(s *entry) { b.look(s) })
	}
}

// look marks s seen; an idle wait ends. Called with b.mu held.
func (b *Board) look(s *entry) {
	s.seen = true
	if s.State == NeedsYou && s.Kind == KindIdle {
		s.State, s.Kind = Done, "" // back to what it was: the same wait, no new event
	}
}

// enter moves s to state (and kind); entering NeedsYou, or Done after a turn, starts a new
// wait. Called
// with b.mu held.
func (b *Board) enter(s *entry, state State, kind string) {
	if s.State == state && s.Kind == kind {
		return
	}
	fresh := s.State == "" || s.State == Exited // a CLI just started: no turn ended
	if state == NeedsYou || (state == Done && !fresh) {
		s.Wait++
	}
	if state == Done {
		s.seen = fresh || b.here == s.Key // nothing to look at, or it ended under the user's eyes
	}
	s.State, s.Kind, s.Since = state, kind, b.now().Unix()
}

// update runs change on key's entry (made if new) and, if it changed anything, marks it dirty
// and wakes the pusher.
func (b *Board) update(key string, change func(*entry)) {
	b.mu.Lock()
	s := b.sessions[key]
	if s == nil {
		s = &entry{Session: Session{Key: key}}
		b.sessions[key] = s
	}
	before := s.Session
	change(s)
	if key == b.here {
		b.look(s)
	}
	changed := s.Session != before
	if changed {
		b.dirty[key] = true
	}
	b.mu.Unlock()
	if changed {
		select {
		case b.wake <- struct{}{}:
		default:
		}
	}
}

func chatKey(dir string) string { return "chat:" + dir }

// cut keeps the start of a prompt, on a rune boundary.
func cut(prompt string) string {
	if len(prompt) <= maxPrompt {
		return prompt
	}
	r := []rune(prompt[:maxPrompt])
	return string(r[:len(r)-1]) + "…"
}
