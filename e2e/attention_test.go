package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The attention list (issue 26) with the real CLI: two terminal sessions and a chat, each
// talking to a stand-in of its own.

// attentionEntry is a session as lua/claude/attention/init.lua keeps it.
type attentionEntry struct {
	Key          string `msgpack:"key"`
	State        string `msgpack:"state"`
	Kind         string `msgpack:"kind"`
	Cwd          string `msgpack:"cwd"`
	Conversation string `msgpack:"conversation"`
}

// attentionList returns Lua's attention list, by key.
func (s *session) attentionList() map[string]attentionEntry {
	s.t.Helper()
	var list []attentionEntry
	s.nv.Lua(&list, `return package.loaded['claude.attention'] and require('claude.attention').all() or {}`)
	out := map[string]attentionEntry{}
	for _, e := range list {
		out[e.Key] = e
	}
	return out
}

// waitAttention waits until every session of want is in its state ("needs_you permission",
// "working", …) and no other session is listed.
func (s *session) waitAttention(what string, want map[string]string) map[string]attentionEntry {
	s.t.Helper()
	var got map[string]attentionEntry
	deadline := time.Now().Add(turnTimeout)
	for {
		got = s.attentionList()
		same := len(got) == len(want)
		for key, state := range want {
			e := got[key]
			if strings.TrimSpace(e.State+" "+e.Kind) != state {
				same = false
			}
		}
		if same {
			return got
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("waiting for %s: the attention list is %+v, want %v", what, got, want)
		}
		time.Sleep(pollInterval)
	}
}

// useAPI makes the CLIs started from now on talk to api (and the session's checks expect
// it).
func (s *session) useAPI(api *fakeapi.Server) {
	s.t.Helper()
	s.api = api
	s.nv.Lua(nil, `require('claude.config').get().env = { ANTHROPIC_BASE_URL = ... }`, api.URL())
}

// restartOnSameState quits Neovim, waits for every CLI and the host to exit, and starts a
// second Neovim set up as newSession does, in the same environment: the same state
// directory (clienv's XDG_STATE_HOME, where the plugin remembers the sessions) and the CLI's
// config directory (its stored conversations).
func (s *session) restartOnSameState() {
	s.t.Helper()
	_ = s.nv.Nvim.Close()
	s.waitExited()
	s.cliPID, s.hostPID, s.earlierCLIs = 0, 0, nil
	s.nv = nvimtest.New(s.t, nvimtest.WithEnv(s.env.Vars()...), nvimtest.AlreadyParallel())
	s.setUp()
}

// terminalIn returns the id of the terminal session running in dir.
func (s *session) terminalIn(dir string) int {
	s.t.Helper()
	var id int
	s.nv.Lua(&id, `
		for _, x in ipairs(require('claude.terminal').sessions()) do
			if x.cwd == ... then return x.id end
		end
		return 0`, dir)
	if id == 0 {
		s.t.Fatalf("no terminal session in %s", dir)
	}
	return id
}

// requestWith waits for api's n-th main request and checks that its user text holds each
// of want: what the conversation said before.
func requestWith(t *testing.T, api *fakeapi.Server, n int, what string, want ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	defer cancel()
	req, err := api.WaitMain(ctx, n)
	if err != nil {
		t.Fatalf("%s: no main request #%d: %v", what, n, err)
	}
	text := req.UserText()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%s: the request lacks %q; its user text:\n%s", what, w, tail(text))
		}
	}
}

func TestTheAttentionListShowsWhoNeedsYouAndTheSessionsComeBack(t *testing.T) {
	t.Parallel()
	const (
		promptA    = "Please make a file in the project"
		promptB    = "Think hard about the worktree"
		promptChat = "Say that the chat is done"
	)
	gate := make(chan struct{})
	var release sync.Once
	open := func() { release.Do(func() { close(gate) }) }
	t.Cleanup(open)

	s := newSession(t)
	apiA := s.api
	t.Cleanup(s.logTranscript)
	apiB := fakeapi.New(t, fakeapi.Turn{Text: "Done thinking about the worktree.", Gate: gate})
	apiChat := fakeapi.New(t, fakeapi.Say("The chat is done."))
	worktree := filepath.Join(s.env.Project, "wt")
	if err := os.MkdirAll(worktree, 0o755); err != nil {
		t.Fatal(err)
	}
	s.env.Trust(t, worktree)
	needsYou := s.nv.UserEvents("ClaudeNeedsYou")
	chatKey := "chat:" + s.env.Project

	// Terminal a in the project (tab page 1), terminal b in the worktree (tab page 2): b
	// works, its answer held by the stand-in.
	s.useAPI(apiA)
	s.open()
	s.nv.Cmd("tabnew")
	s.nv.Lua(nil, `vim.cmd.tcd(vim.fn.fnameescape(...))`, worktree)
	s.useAPI(apiB)
	s.open()
	s.prompt(promptB)
	requestWith(t, apiB, 1, "b's turn", promptB)

	// The chat, in the project, done; then a asks for a permission in its own prompt.
	s.nv.Cmd("stopinsert")
	s.nv.Cmd("tabnext 1")
	s.useAPI(apiChat)
	s.earlierCLIs = append(s.earlierCLIs, s.cliPID)
	s.openChat()
	s.chatSend(promptChat)
	s.waitChat("The chat is done.")
	s.earlierCLIs = append(s.earlierCLIs, s.cliPID)
	s.useAPI(apiA)
	s.api.Push(
		fakeapi.Use("Bash", map[string]any{"command": "touch made-by-a.txt", "description": "Make a file"}),
		fakeapi.Say("Made it."),
	)
	s.prompt(promptA)
	s.waitText(clienv.PermissionMarker, turnTimeout)

	s.waitAttention("a waiting, b working, the chat done", map[string]string{
		"terminal:1": "needs_you permission", "terminal:2": "working", chatKey: "done",
	})
	var status string
	s.nv.Lua(&status, `return require('claude').statusline()`)
	if !strings.HasSuffix(status, " · 1 needs you") {
		t.Errorf("statusline %q, want it to end with the one session that needs you", status)
	}
	ev := nvimtest.Next(t, needsYou, "User ClaudeNeedsYou for a's permission", turnTimeout)
	if ev["session"] != "terminal:1" || ev["kind"] != "permission" || ev["cwd"] != s.env.Project {
		t.Errorf("ClaudeNeedsYou data %v, want a's permission", ev)
	}

	// From b's tab page, out of any terminal (a's tab page too has its cursor elsewhere):
	// :Claude sessions lists exactly that, and picking a lands in a's terminal, in Terminal
	// mode, on its question.
	s.nv.Cmd("stopinsert")
	s.nv.Cmd("wincmd p")
	s.nv.Cmd("tabnext 2")
	s.nv.Cmd("wincmd p")
	s.pickSession("terminal 1")
	s.nv.Cmd("ClaudeSessions")
	var offered []string
	s.nv.Lua(&offered, `return _G.offered`)
	if len(offered) != 3 || !strings.HasPrefix(offered[0], "needs you (permission) · terminal 1 ") ||
		!strings.Contains(offered[0], `"`+promptA+`"`) || !strings.HasPrefix(offered[1], "working · terminal 2 ") ||
		!strings.HasPrefix(offered[2], "done · chat ") {
		t.Errorf(":Claude sessions offered %q, want a (needs you), b (working), the chat (done)", offered)
	}
	s.waitMode("t", "Terminal mode after picking a")
	var where struct {
		Tab int  `msgpack:"tab"`
		InA bool `msgpack:"in_a"`
	}
	s.nv.Lua(&where, `return { tab = vim.fn.tabpagenr(), in_a = vim.api.nvim_get_current_buf() == require('claude.terminal').buf(1) }`)
	if where.Tab != 1 || !where.InA {
		t.Errorf("after picking a: tab page %d, in a's terminal %v; want a's terminal in tab page 1", where.Tab, where.InA)
	}
	if screen := s.screenOf(1); !strings.Contains(screen, clienv.PermissionMarker) {
		t.Errorf("a's terminal does not show its question:\n%s", screen)
	}

	// Answered: a works on and is done; b's answer comes, b is done. One ClaudeNeedsYou in
	// all: the permission's request and notification were one wait.
	s.answerYes(clienv.PermissionMarker) // typed again if the key came while the dialog drew
	s.waitText("Made it.", turnTimeout)
	open()
	list := s.waitAttention("everyone done", map[string]string{"terminal:1": "done", "terminal:2": "done", chatKey: "done"})
	select {
	case ev := <-needsYou:
		t.Errorf("a second ClaudeNeedsYou: %v", ev)
	default:
	}

	// A second Neovim on the same state: :Claude sessions restore brings the three back, each
	// with its conversation (the stand-in sees the earlier prompt in the resumed request).
	s.restartOnSameState()
	apiAfter := fakeapi.New(t, fakeapi.Say("Back in a."), fakeapi.Say("Back in b."), fakeapi.Say("Back in the chat."))
	s.useAPI(apiAfter)
	before := s.nv.Messages()
	s.nv.Cmd("ClaudeSessions restore")
	if msgs := strings.TrimPrefix(s.nv.Messages(), before); !strings.Contains(msgs, "3 sessions restored") {
		var remembered string
		s.nv.Lua(&remembered, `local a = require('claude.attention') return a.state_file() .. ': ' .. vim.inspect(a.remembered())`)
		t.Fatalf(":Claude sessions restore said %q, want 3 sessions restored; the sessions remembered in %s", msgs, remembered)
	}
	s.earlierCLIs = append(s.earlierCLIs, s.hostChildren()...) // the chat's CLI
	for i := 0; i < 2; i++ {
		nvimtest.Next(t, s.connected, "a restored terminal's CLI to connect", startTimeout)
	}
	for _, c := range []struct {
		dir, prompt, before, conversation string
	}{
		{s.env.Project, "Go on in a", promptA, list["terminal:1"].Conversation},
		{worktree, "Go on in b", promptB, list["terminal:2"].Conversation},
	} {
		id := s.terminalIn(c.dir)
		s.nv.Lua(nil, `require('claude.terminal').go_to(...)`, id)
		s.readPIDs("restore")
		s.prompt(c.prompt)
		requestWith(t, apiAfter, map[string]int{s.env.Project: 1, worktree: 2}[c.dir], "the resumed terminal in "+c.dir, c.before, c.prompt)
		key := fmt.Sprintf("terminal:%d", id)
		nvimtest.Wait(t, key+" to run conversation "+c.conversation, turnTimeout, func() bool {
			return s.attentionList()[key].Conversation == c.conversation
		})
		s.nv.Cmd("stopinsert")
	}
	s.nv.Cmd("tabnext 1")
	s.chatSend("Go on in the chat")
	requestWith(t, apiAfter, 3, "the resumed chat", promptChat, "Go on in the chat")
}

// pickSession makes the next vim.ui.select pick the entry whose label contains want; the
// labels offered are kept in _G.offered.
func (s *session) pickSession(want string) {
	s.nv.Lua(nil, `
		local want = ...
		_G.offered = {}
		vim.ui.select = function(items, opts, on_choice)
			local pick
			for _, it in ipairs(items) do
				local label = opts.format_item(it)
				table.insert(_G.offered, label)
				if not pick and label:find(want, 1, true) then pick = it end
			end
			on_choice(pick)
		end`, want)
}
