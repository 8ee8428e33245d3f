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

// chatCLIOf returns the chat CLI the host hostPID runs, or 0.
func chatCLIOf(hostPID int) int {
	// The CLI is the host's child that runs stream-json: others may be the change ledger's
	// git (CI once saw one beside it, and read no CLI). /proc lists children per thread of
	// the parent.
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(hostPID) + "/task/*/children")
	for _, task := range tasks {
		children, _ := os.ReadFile(task)
		for _, child := range strings.Fields(string(children)) {
			cmdline, _ := os.ReadFile("/proc/" + child + "/cmdline")
			if strings.Contains(string(cmdline), "\x00stream-json") {
				pid, _ := strconv.Atoi(child)
				return pid
			}
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
	nvimtest.Wait(s.t, "the host and its chat CLI to run before the kill", startTimeout, func() bool {
		host = s.hostPIDNow()
		cli = chatCLIOf(host)
		return host != 0 && cli != 0
	})
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
		first   = "Remember the code word PEAR"
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
	if got := s.chatTranscript(); strings.Count(got, "Noted: PEAR.") != 1 || strings.Count(got, "> "+first) != 1 {
		t.Errorf("after the restart the transcript does not show its earlier turn once, as it was:\n%s", got)
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
		t.Errorf("after the restart the model's request (%d bytes of user text) lacks the earlier prompt %q", len(got), first)
	}
	s.turnDone(2)
	if status(t, s).Running {
		t.Errorf("the host's restart for the chat started the terminal's server, which was not running")
	}
	if got := s.chatState().Conversation; got != conversation {
		t.Errorf("after the restart the chat runs conversation %q, want the same %q", got, conversation)
	}
}

func TestAPermissionWaitingWhenTheGoHostDiesIsCancelledAndAnsweringItDoesNothing(t *testing.T) {
	t.Parallel()
	s := newSession(t, bashTurns("touch made-by-bash.txt", "The file is there.")...)
	t.Cleanup(s.logTranscript)
	s.answerPermissions("Allow once", "")
	s.openChat()
	s.chatSend("Create made-by-bash.txt")
	s.waitChat("? Bash(touch made-by-bash.txt) asks for permission")
	oldHost, oldCLI := s.killHost()

	s.waitChat("  ⎿  Bash permission request cancelled: the Go process stopped")
	s.waitChat("**The Go process stopped (SIGKILL): the turn in flight was cut.** It is restarted and the conversation resumed.")
	if st := s.chatState(); strings.Contains(st.Status, "waits for you") || strings.Contains(st.Status, "working") {
		t.Errorf("after the host died the winbar says %q, want it waiting for nothing", st.Status)
	}
	s.waitGone("the dead host's chat CLI", oldCLI)
	s.waitRevived(oldHost)
	// Answered late, by the command and by <CR> in the transcript: nothing is allowed.
	s.nv.Cmd("ClaudeChatAnswer allow")
	if msgs := s.nv.Messages(); !strings.Contains(msgs, "Claude waits for no answer in this chat") {
		t.Errorf(":Claude chat answer allow after the host died said nothing true; messages:\n%s", msgs)
	}
	s.goToTranscript()
	s.nv.Keys("<CR>")
	if asked := s.asked(); len(asked) != 0 {
		t.Errorf("<CR> in the transcript after the host died asked %q, want nothing asked", asked)
	}
	if strings.Contains(s.chatTranscript(), "allowed") {
		t.Errorf("a cancelled request was answered:\n%s", s.chatTranscript())
	}
	if _, err := os.Stat(filepath.Join(s.env.Project, "made-by-bash.txt")); err == nil {
		t.Errorf("the command of a cancelled request ran")
	}
}

func TestAChatEditUnderReviewWhenTheGoHostDiesIsCancelledAndNotWritten(t *testing.T) {
	t.Parallel()
	s, path := startChatEdit(t, "The second line is louder now.")
	_, oldCLI := s.killHost()

	s.nextDiffClosed("closed")
	s.waitChat("  ⎿  Edit review cancelled: the Go process stopped, nothing was written")
	s.waitGone("the dead host's chat CLI", oldCLI)
	// The proposal is gone: nothing is left to accept.
	s.nv.Lua(nil, `pcall(vim.cmd, 'ClaudeDiffAccept')`)
	if got := s.fileContent(path); got != original {
		t.Errorf("after the host died under a review, %s holds %q, want it untouched: %q", path, got, original)
	}
	if st := s.chatState(); strings.Contains(st.Status, "working") {
		t.Errorf("after the host died the winbar says %q, want no working", st.Status)
	}
	nvimtest.Wait(t, "a new host running the chat's CLI again", startTimeout, func() bool {
		return chatCLIOf(s.hostPIDNow()) != 0
	})
	s.hostPID = s.hostPIDNow()
	s.cliPID = chatCLIOf(s.hostPID)
}

// pidsRunning returns the pids of the processes whose command line contains marker.
func pidsRunning(marker string) []int {
	var pids []int
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, f := range cmdlines {
		b, err := os.ReadFile(f)
		if err != nil || !strings.Contains(string(b), marker) {
			continue
		}
		pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(f)))
		if pid != os.Getpid() && tmuxterm.Alive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// The CLI runs each Bash command in a session of its own, which a kill of the CLI's process
// group misses: the command must end all the same.
func TestABashCommandRunningWhenTheGoHostDiesEndsWithItsCLI(t *testing.T) {
	t.Parallel()
	marker := "revive-marker-" + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	command := "bash -c 'while :; do read -t 1 x; done' " + marker
	s := newSession(t, bashTurns(command, "It ended.")...)
	t.Cleanup(s.logTranscript)
	t.Cleanup(func() { // what this test started, by pid, should it outlive the test
		for _, pid := range pidsRunning(marker) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	s.openChat()
	s.chatSend("Run the endless command")
	s.waitChat("? Bash(" + command + ") asks for permission")
	s.nv.Cmd("ClaudeChatAnswer allow")
	nvimtest.Wait(t, "the command to run", turnTimeout, func() bool { return len(pidsRunning(marker)) > 0 })
	oldHost, oldCLI := s.killHost()

	s.waitChat("**The Go process stopped (SIGKILL): the turn in flight was cut.** It is restarted and the conversation resumed.")
	s.waitGone("the dead host's chat CLI", oldCLI)
	nvimtest.Wait(t, "the CLI's Bash command to end", exitTimeout, func() bool { return len(pidsRunning(marker)) == 0 })
	s.waitRevived(oldHost)
}

// A host that dies again right after its restart is not restarted again (it could be dying at
// every start): the chat says so, and the user's next message starts it and resumes.
func TestAGoHostDyingAgainRightAfterItsRestartWaitsForTheNextMessage(t *testing.T) {
	t.Parallel()
	const first = "Remember the code word PLUM"
	s := newSession(t, fakeapi.Say("Noted: PLUM."), fakeapi.Say("You said PLUM."))
	t.Cleanup(s.logTranscript)
	s.openChat()
	s.chatSend(first)
	s.waitChat("Noted: PLUM.")
	s.turnDone(1)
	oldHost, _ := s.killHost()
	s.waitChat("**The Go process stopped (SIGKILL).** It is restarted and the conversation resumed.")
	s.waitRevived(oldHost)

	_, cli := s.killHost()
	s.waitChat("**The Go process stopped (SIGKILL).** It stopped again right after a restart, so it is not restarted now (see :Claude log); your next message starts it and resumes the conversation.")
	s.waitGone("the dead host's chat CLI", cli)
	// A restart would come once the dead host's CLIs have ended: after that, none came.
	s.nv.Lua(nil, `require('claude.reap').after(function() vim.g.revive_test_ended = true end)`)
	nvimtest.Wait(t, "the dead host's CLIs to be ended", exitTimeout, func() bool {
		var ended bool
		s.nv.Lua(&ended, `return vim.g.revive_test_ended == true`)
		return ended
	})
	if pid := s.hostPIDNow(); pid != 0 {
		t.Errorf("a host (pid %d) runs after the second death; want none until the next message", pid)
	}
	if got := strings.Count(s.chatTranscript(), "_Resumed the conversation after the restart._"); got != 1 {
		t.Errorf("the transcript says %d times that the conversation was resumed, want once (before the second death)", got)
	}

	const question = "Which code word did I give you?"
	s.chatSend(question)
	s.waitChat("You said PLUM.")
	s.hostPID = s.hostPIDNow()
	s.cliPID = chatCLIOf(s.hostPID)
	if got := strings.Count(s.chatTranscript(), "_Resumed the conversation after the restart._"); got != 2 {
		t.Errorf("after the next message the transcript says %d times that the conversation was resumed, want twice", got)
	}
	req := s.chatRequest(2)
	if got := req.UserText(); !strings.Contains(got, first) {
		t.Errorf("after the second restart the model's request (%d bytes of user text) lacks the earlier prompt %q", len(got), first)
	}
}
