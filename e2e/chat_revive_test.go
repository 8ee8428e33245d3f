package e2e

// The Go host killed while a chat runs (issue 22.7): the transcript says so at once, the
// host comes back and the chat's CLI resumes the same conversation, and the dead host's CLI
// is not left running.

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/e2e/tmuxterm"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// chatCLIOf returns the chat CLI the host hostPID runs (its one child), or 0.
func chatCLIOf(hostPID int) int {
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(hostPID) + "/task/*/children")
	for _, task := range tasks {
		children, _ := os.ReadFile(task)
		if f := strings.Fields(string(children)); len(f) == 1 {
			pid, _ := strconv.Atoi(f[0])
			return pid
		}
	}
	return 0
}

// chatState is what the chat's Lua side knows of its conversation and state.
type chatState struct {
	Conversation string `msgpack:"conversation"`
	Status       string `msgpack:"status"`
}

func (s *session) chatState() chatState {
	s.t.Helper()
	var st chatState
	s.nv.Lua(&st, `
		local c = require('claude.chat.state').chats[vim.fn.getcwd()]
		if not c then return {} end
		return { conversation = c.conversation or '', status = vim.b[c.tbuf].claude_chat_status or '' }`)
	return st
}

// killHost SIGKILLs the plugin's Go host, as the OOM killer would, and returns its pid and
// its chat CLI's.
func (s *session) killHost() (host, cli int) {
	s.t.Helper()
	host = s.hostPIDNow()
	cli = chatCLIOf(host)
	if host == 0 || cli == 0 {
		s.t.Fatalf("before the kill: host %d, its chat CLI %d; want both running", host, cli)
	}
	if err := syscall.Kill(host, syscall.SIGKILL); err != nil {
		s.t.Fatal(err)
	}
	return host, cli
}

// waitRevived waits until a new host (not old) runs a chat CLI again and the transcript says
// the conversation was resumed; it records the new pids for the cleanup.
func (s *session) waitRevived(old int) {
	s.t.Helper()
	nvimtest.Wait(s.t, "a new host running the chat's CLI again", startTimeout, func() bool {
		host := s.hostPIDNow()
		return host != 0 && host != old && chatCLIOf(host) != 0
	})
	s.hostPID = s.hostPIDNow()
	s.cliPID = chatCLIOf(s.hostPID)
	nvimtest.Wait(s.t, "the transcript to say the conversation was resumed", turnTimeout, func() bool {
		return strings.Contains(s.chatTranscript(), "_Resumed the conversation after the restart._")
	})
}

// waitGone waits until pid has exited: a CLI whose host died must not run on.
func (s *session) waitGone(what string, pid int) {
	s.t.Helper()
	nvimtest.Wait(s.t, what+" to exit", exitTimeout, func() bool { return !tmuxterm.Alive(pid) })
}

func TestAChatWhoseGoHostDiesMidTurnSaysSoAndResumesTheConversation(t *testing.T) {
	t.Parallel()
	const (
		first = "Remember the code word PEAR"
		opening = "Once upon a time there was a very long story. "
	)
	// Streamed for far longer than exitTimeout: a CLI left running mid-turn is seen.
	story := opening + strings.Repeat("It went on and on. ", 40)
	s := newSession(t, fakeapi.Say("Noted: PEAR."), fakeapi.Stream(story, 4, 300*time.Millisecond), fakeapi.Say("You said PEAR."))
	t.Cleanup(s.logTranscript)
	s.openChat()
	s.chatSend(first)
	s.waitChat("Noted: PEAR.")
	s.turnDone(1)
	conversation := s.chatState().Conversation
	if conversation == "" {
		t.Fatal("the chat knows no conversation id after its first turn")
	}

	s.chatSend("Tell me a story")
	nvimtest.Wait(t, "the story to start streaming", turnTimeout, func() bool {
		return strings.Contains(s.chatTranscript(), story[:8])
	})
	// Typed while Claude works, not sent: it must survive the crash.
	s.nv.Keys("iunsent draft")
	s.nv.Keys("<Esc>")
	oldHost, oldCLI := s.killHost()

	s.waitChat("**The Go process stopped (SIGKILL): the turn in flight was cut.** It is restarted and the conversation resumed.")
	if st := s.chatState(); strings.Contains(st.Status, "working") {
		t.Errorf("after the host died the winbar says %q, want no working", st.Status)
	}
	s.waitGone("the dead host's chat CLI", oldCLI)
	s.waitRevived(oldHost)
	var draft []string
	s.nv.Lua(&draft, `return vim.api.nvim_buf_get_lines(require('claude.chat').buffers().input, 0, -1, false)`)
	if strings.Join(draft, "\n") != "unsent draft" {
		t.Errorf("the input holds %q after the restart, want what the user typed: %q", draft, "unsent draft")
	}
	s.nv.Lua(nil, `vim.api.nvim_buf_set_lines(require('claude.chat').buffers().input, 0, -1, false, {})`)
	if got := s.chatTranscript(); !strings.Contains(got, "Noted: PEAR.") || !strings.Contains(got, "> "+first) {
		t.Errorf("the transcript lost its earlier turns after the restart:\n%s", got)
	}

	const question = "Which code word did I give you?"
	s.chatSend(question)
	s.waitChat("You said PEAR.")
	req, err := s.api.WaitFor(t.Context(), "the question after the restart", func(reqs []fakeapi.Request) (fakeapi.Request, bool) {
		for _, r := range reqs {
			if r.Kind == fakeapi.Main && strings.Contains(r.LastUserText(), question) {
				return r, true
			}
		}
		return fakeapi.Request{}, false
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := req.UserText(); !strings.Contains(got, first) {
		t.Errorf("after the restart the model got %q, want the earlier conversation with %q", got, first)
	}
	s.turnDone(2)
	if got := s.chatState().Conversation; got != conversation {
		t.Errorf("after the restart the chat runs conversation %q, want the same %q", got, conversation)
	}
}
