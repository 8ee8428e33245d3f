package host

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/hooks"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// luaSession is a session as lua/claude/attention/init.lua keeps it.
type luaSession struct {
	State  string `msgpack:"state"`
	Kind   string `msgpack:"kind"`
	Cwd    string `msgpack:"cwd"`
	Prompt string `msgpack:"prompt"`
	Wait   int    `msgpack:"wait"`
}

func (e *env) attentionOf(key string) luaSession {
	e.t.Helper()
	var s luaSession
	e.nv.Lua(&s, `return package.loaded['claude.attention'] and require('claude.attention').get(...) or vim.empty_dict()`, key)
	return s
}

func (e *env) waitAttention(key, state, kind string) {
	e.t.Helper()
	nvimtest.Wait(e.t, key+" to be "+state+" "+kind+" in Lua", waitTimeout, func() bool {
		s := e.attentionOf(key)
		return s.State == state && s.Kind == kind
	})
}

func (e *env) statusline() string {
	e.t.Helper()
	var s string
	e.nv.Lua(&s, `return require('claude').statusline()`)
	return s
}

// noMore fails if ch holds an event: called once Lua has taken a later push, every event of
// the earlier ones has been delivered (rpcnotify keeps their order).
func noMore(t *testing.T, ch <-chan map[string]any, what string) {
	t.Helper()
	select {
	case ev := <-ch:
		t.Errorf("a second %s: %v", what, ev)
	default:
	}
}

// A terminal's hooks, as the hook bus hands them to the host, reach Lua's list, its
// statusline count and its User events: ClaudeNeedsYou once per wait (a permission's
// request and notification are one wait), ClaudeDone once per finished turn; looking at the
// session ends an idle wait.
func TestATerminalsHooksReachTheAttentionListOncePerWait(t *testing.T) {
	e := newEnv(t)
	e.nv.Lua(nil, `require('claude.host').ensure()`) // as any :Claude command has done before Go pushes
	dir := t.TempDir()
	needs := e.nv.UserEvents("ClaudeNeedsYou")
	done := e.nv.UserEvents("ClaudeDone")
	hook := func(name string, set func(*hooks.Event)) {
		ev := hooks.Event{Name: name, SessionID: "conv-1", Cwd: dir, Origin: "terminal:1"}
		if set != nil {
			set(&ev)
		}
		e.host.hookBus.handle(context.Background(), ev)
	}

	hook(hooks.UserPromptSubmit, func(ev *hooks.Event) { ev.Prompt = "make a file" })
	e.waitAttention("terminal:1", "working", "")
	if got := e.attentionOf("terminal:1"); got.Prompt != "make a file" || got.Cwd != dir {
		t.Errorf("working session %+v", got)
	}
	if st := e.statusline(); strings.Contains(st, "need") {
		t.Errorf("statusline %q while nothing needs the user", st)
	}

	hook(hooks.PreToolUse, nil)
	hook(hooks.PermissionRequest, nil)
	hook(hooks.Notification, func(ev *hooks.Event) { ev.Notification = "permission_prompt" })
	e.waitAttention("terminal:1", "needs_you", "permission")
	ev := nvimtest.Next(t, needs, "User ClaudeNeedsYou for the permission", waitTimeout)
	if ev["session"] != "terminal:1" || ev["kind"] != "permission" || ev["cwd"] != dir {
		t.Errorf("ClaudeNeedsYou data %v", ev)
	}
	if st := e.statusline(); !strings.Contains(st, "1 needs you") {
		t.Errorf("statusline %q, want the session that needs the user counted", st)
	}

	hook(hooks.PostToolUse, nil)
	hook(hooks.Stop, nil)
	e.waitAttention("terminal:1", "done", "")
	noMore(t, needs, "ClaudeNeedsYou for one permission")
	if ev := nvimtest.Next(t, done, "User ClaudeDone", waitTimeout); ev["session"] != "terminal:1" || ev["kind"] != "done" {
		t.Errorf("ClaudeDone data %v", ev)
	}

	// The idle prompt of a turn nobody looked at: a new wait; looking at it ends it.
	hook(hooks.Notification, func(ev *hooks.Event) { ev.Notification = "idle_prompt" })
	e.waitAttention("terminal:1", "needs_you", "idle")
	if ev := nvimtest.Next(t, needs, "User ClaudeNeedsYou for the idle prompt", waitTimeout); ev["kind"] != "idle" {
		t.Errorf("ClaudeNeedsYou data %v", ev)
	}
	e.nv.Lua(nil, `require('claude.host').tell_attention('here', 'terminal:1')`)
	e.waitAttention("terminal:1", "done", "")
	hook(hooks.SessionEnd, nil)
	e.waitAttention("terminal:1", "exited", "")
	noMore(t, done, "ClaudeDone after looking at a finished turn")
	noMore(t, needs, "ClaudeNeedsYou")
}

// :Claude sessions lists what needs the user first, with the workspace and the last prompt.
func TestClaudeSessionsListsWhatNeedsYouFirst(t *testing.T) {
	e := newEnv(t)
	a, b := t.TempDir(), t.TempDir()
	ctx := context.Background()
	e.host.hookBus.handle(ctx, hooks.Event{Name: hooks.UserPromptSubmit, Cwd: a, Prompt: "work on a", Origin: "terminal:1"})
	e.host.hookBus.handle(ctx, hooks.Event{Name: hooks.UserPromptSubmit, Cwd: b, Prompt: "ask about b", Origin: "terminal:2"})
	e.host.hookBus.handle(ctx, hooks.Event{Name: hooks.PermissionRequest, Cwd: b, Origin: "terminal:2"})
	e.waitAttention("terminal:2", "needs_you", "permission")
	e.waitAttention("terminal:1", "working", "")
	e.nv.Lua(nil, `
		vim.ui.select = function(items, opts)
			_G.picked = {}
			for _, it in ipairs(items) do table.insert(_G.picked, opts.format_item(it)) end
		end`)
	e.nv.Cmd("ClaudeSessions")
	var items []string
	e.nv.Lua(&items, `return _G.picked`)
	if len(items) != 2 || !strings.HasPrefix(items[0], "needs you (permission) · terminal 2 ") || !strings.Contains(items[0], `"ask about b"`) ||
		!strings.HasPrefix(items[1], "working · terminal 1 ") || !strings.Contains(items[1], `"work on a"`) {
		t.Errorf(":Claude sessions items %q, want b's permission first, then a working", items)
	}
	if msgs := commandMessages(t, e.nv, "ClaudeSessions bogus"); !strings.Contains(msgs, "takes next, restore, restore-from or nothing") {
		t.Errorf(":Claude sessions bogus said %q", msgs)
	}
}

// attention.notify = "system": notify-send runs when a session comes to need the user while
// Neovim is not focused, and not while it is.
func TestANoticeGoesOutOnlyWhileNeovimIsNotFocused(t *testing.T) {
	bin := t.TempDir()
	record := filepath.Join(bin, "record")
	script := "#!/bin/sh\nfor a in \"$@\"; do printf '%s|' \"$a\"; done >> '" + record + "'\necho >> '" + record + "'\n"
	if err := os.WriteFile(filepath.Join(bin, "notify-send"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, nvimtest.WithEnv("PATH="+bin+":"+os.Getenv("PATH")))
	e.nv.Lua(nil, `require('claude').setup({ attention = { notify = 'system' } }); require('claude.host').ensure()`)
	hook := func(origin, dir, name string) {
		e.host.hookBus.handle(context.Background(), hooks.Event{Name: name, Cwd: dir, Origin: origin})
	}
	// Focused: terminal 1 (shop) needs the user, no notice. Not focused: terminal 2 (mall).
	// Notices are started in order, so once mall's is written shop's would be too.
	hook("terminal:1", "/w/shop", hooks.PermissionRequest)
	e.waitAttention("terminal:1", "needs_you", "permission")
	e.nv.Cmd("doautocmd FocusLost")
	hook("terminal:2", "/w/mall", hooks.PermissionRequest)
	var lines []string
	nvimtest.Wait(t, "notify-send to run for mall", waitTimeout, func() bool {
		data, _ := os.ReadFile(record)
		lines = strings.Split(strings.TrimSpace(string(data)), "\n")
		return strings.Contains(string(data), "mall")
	})
	if want := "--app-name=Neovim|Claude needs you|mall (permission)|"; len(lines) != 1 || lines[0] != want {
		t.Errorf("notify-send ran with %q, want once with %q (not for shop's wait while focused)", lines, want)
	}
}
