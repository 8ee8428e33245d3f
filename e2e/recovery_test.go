package e2e

// What happens to a running CLI when the plugin's server goes away: :Claude server stop and a crash
// of the Go host. The CLI must find the editor again without being restarted.

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// hostPIDNow is the pid of the plugin's Go host as it runs now (it changes on a restart).
func (s *session) hostPIDNow() int {
	s.t.Helper()
	var pid int
	s.nv.Lua(&pid, `local c = require('claude.host').channel() return c and vim.fn.jobpid(c) or 0`)
	return pid
}

// assertEditorReaches checks the CLI hears from the editor again: a selection made now shows
// in its footer.
func (s *session) assertEditorReaches(when string, selectKeys, indicator string) {
	s.t.Helper()
	s.nv.Lua(nil, `vim.cmd.stopinsert() vim.fn.win_gotoid(vim.fn.bufwinid(...))`, s.editing)
	s.nv.Keys(selectKeys)
	s.waitScreen(when+": the CLI showing the new selection", turnTimeout, func(sc string) bool {
		return strings.Contains(sc, indicator)
	})
	s.nv.Keys("<Esc>")
}

// openOnGreet starts a scenario the usual way: greet.txt open, Claude connected.
func openOnGreet(t *testing.T, script ...fakeapi.Turn) (*session, string) {
	t.Helper()
	s := newSession(t, script...)
	path := s.writeFile("greet.txt", original)
	s.edit(path)
	s.open()
	return s, path
}

func TestTheCLIReconnectsWhenTheGoHostDies(t *testing.T) {
	t.Parallel()
	s, _ := openOnGreet(t)
	oldHost := s.hostPIDNow()

	if err := syscall.Kill(oldHost, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	ev := nvimtest.Next(t, s.connected, "the CLI to reconnect to the restarted host", startTimeout)
	if nvimtest.Int(ev["pid"]) != s.cliPID {
		t.Errorf("ClaudeConnected after the restart came from pid %v, want the running CLI %d", ev["pid"], s.cliPID)
	}
	if pid := s.hostPIDNow(); pid == 0 || pid == oldHost {
		t.Errorf("the host pid is %d after the crash of %d; want a new host", pid, oldHost)
	}
	if port := status(t, s).Port; port != s.port {
		t.Errorf("the restarted server listens on %d, want the port the CLI knows, %d", port, s.port)
	}
	msgs := s.nv.Messages()
	if !strings.Contains(msgs, "the Go host exited with code") || !strings.Contains(msgs, "restarting it") {
		t.Errorf("the user was not told the host died and was restarted; messages:\n%s", msgs)
	}
	s.assertEditorReaches("after the host's restart", "2GVj", "⧉ 2 lines selected")
}

func TestTheCLIReconnectsAfterClaudeStopAndClaudeOpen(t *testing.T) {
	t.Parallel()
	s, _ := openOnGreet(t)

	s.nv.Cmd("ClaudeStop")
	if msgs := s.nv.Messages(); !strings.Contains(msgs, "server stopped: Claude is disconnected. :Claude server start (or :Claude open) within about 15 s reconnects it") {
		t.Errorf(":Claude server stop said nothing true; messages:\n%s", msgs)
	}
	s.nv.Cmd("ClaudeOpen")
	nvimtest.Next(t, s.connected, "the CLI to reconnect after :Claude open", startTimeout)
	if port := status(t, s).Port; port != s.port {
		t.Errorf("after :Claude open the server listens on %d, want the port the CLI knows, %d", port, s.port)
	}
	s.assertEditorReaches("after :Claude open", "1GVj", "⧉ 2 lines selected")
}

type serverStatus struct {
	Running bool `msgpack:"running"`
	Port    int  `msgpack:"port"`
}

func status(t *testing.T, s *session) serverStatus {
	t.Helper()
	var st serverStatus
	s.nv.Lua(&st, `return require('claude').status()`)
	return st
}

// The user submits a prompt and keeps typing a follow-up into Claude's input, as the CLI
// invites, while Claude's edit arrives: the keys must all reach the CLI, none the proposal.
func TestKeysTypedIntoClaudesTerminalWhileAnEditArrivesStayThere(t *testing.T) {
	t.Parallel()
	s, path := openOnGreet(t)
	s.api.Push(fakeapi.Read(path), fakeapi.Edit(path, "two", "TWO"), fakeapi.Say("Louder now."))
	s.prompt("Please make the second line of greet.txt louder")

	// Typing goes on, a key at a time, until the proposal is on screen and a while after.
	const followUp = "also look at the README "
	typed, after := 0, -1
	for after < len(followUp) {
		select {
		case ev := <-s.diffOpened:
			if ev["path"] != path {
				t.Fatalf("ClaudeDiffOpened %v, want %s", ev, path)
			}
			after = 0
		case <-time.After(typingInterval):
		}
		s.typeKeys(followUp[typed%len(followUp) : typed%len(followUp)+1])
		typed++
		if after >= 0 {
			after++
		}
		if typed > 2000 {
			t.Fatal("no diff opened while typing")
		}
	}
	s.assertStillInTerminal("after typing through the diff's arrival")
	var prop struct {
		Text     string `msgpack:"text"`
		Modified bool   `msgpack:"modified"`
	}
	s.nv.Lua(&prop, `
		for _, b in ipairs(vim.api.nvim_list_bufs()) do
			if vim.b[b].claude_diff then
				return { text = table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), "\n") .. "\n", modified = vim.bo[b].modified }
			end
		end
		return { text = "", modified = false }`)
	if prop.Text != proposed || prop.Modified {
		t.Errorf("the proposal holds %q (modified %v), want Claude's %q untouched", prop.Text, prop.Modified, proposed)
	}
	if got := s.buffer(path); got.Text != original || got.Modified {
		t.Errorf("the file's buffer is %+v, want it untouched", got)
	}
	s.nv.Cmd("ClaudeDiffAccept")
	s.nextDiffClosed("accepted")
	s.assertWrittenAsProposed(path, "after accepting")
	// What was typed is in Claude's input, whole.
	s.waitScreen("the typed follow-up in Claude's input", turnTimeout, func(sc string) bool {
		return strings.Contains(strings.Join(strings.Fields(sc), " "), strings.TrimSpace(followUp))
	})
}

// typingInterval is the pause between two typed keys: a fast typist.
const typingInterval = 40 * time.Millisecond
