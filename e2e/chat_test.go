package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The native chat (:ClaudeChat): the real CLI in its stream-json mode, run by the plugin's
// host, against the API stand-in.

// openChat runs :ClaudeChat and records the host's and the chat CLI's pids, so the cleanup
// waits for them before the temporary directories go.
func (s *session) openChat() {
	s.t.Helper()
	s.nv.Cmd("ClaudeChat")
	s.nv.Lua(&s.hostPID, `return vim.fn.jobpid(require('claude.host').channel())`)
	// The CLI is the host's one child; /proc lists children per thread of the parent.
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(s.hostPID) + "/task/*/children")
	for _, task := range tasks {
		children, _ := os.ReadFile(task)
		if f := strings.Fields(string(children)); len(f) == 1 {
			s.cliPID, _ = strconv.Atoi(f[0])
		}
	}
	if s.cliPID == 0 {
		s.t.Fatalf(":ClaudeChat started no CLI; messages:\n%s", s.nv.Messages())
	}
}

// chatTranscript returns the chat's transcript.
func (s *session) chatTranscript() string {
	var lines []string
	s.nv.Lua(&lines, `
		local b = require('claude.chat').buffers()
		return b and vim.api.nvim_buf_get_lines(b.transcript, 0, -1, false) or {}`)
	return strings.Join(lines, "\n")
}

// waitChat waits until the transcript has a line equal to want.
func (s *session) waitChat(want string) {
	s.t.Helper()
	nvimtest.Wait(s.t, "the chat transcript to show "+want, turnTimeout, func() bool {
		return strings.Contains("\n"+s.chatTranscript()+"\n", "\n"+want+"\n")
	})
}

func TestClaudeChatShowsTheScriptedAnswerToATypedPrompt(t *testing.T) {
	t.Parallel()
	const (
		prompt = "Please greet the chat"
		answer = "Hello from the scripted stand-in, streamed into the chat."
	)
	s := newSession(t, fakeapi.Stream(answer, 8, 0))
	s.openChat()
	s.nv.Keys("i" + prompt + "<Esc><CR>")
	s.waitChat("> " + prompt)
	s.waitChat(answer)
	nvimtest.Wait(t, "the turn's summary line", turnTimeout, func() bool {
		return strings.Contains(s.chatTranscript(), " tokens in, ")
	})
	if got := s.mainRequest(1).LastUserText(); !strings.Contains(got, prompt) {
		t.Errorf("the model got %q, want the prompt %q", got, prompt)
	}
	if t.Failed() {
		t.Logf("transcript:\n%s", s.chatTranscript())
	}
}

func TestAChatEditChangedInTheDiffIsWrittenAsTheUserLeftIt(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	path := s.writeFile("greet.txt", original)
	s.api.Push(fakeapi.Read(path), fakeapi.Edit(path, "two", "TWO"), fakeapi.Say("Noted your addition."))
	s.openChat()
	s.nv.Keys("iPlease make the second line of greet.txt louder<Esc><CR>")
	s.nextDiffOpened(path)
	s.nv.Cmd("ClaudeDiffFocus")
	s.nv.Keys("Goadded by user<Esc>")
	s.nv.Cmd("write") // :w in the proposal accepts it
	s.nextDiffClosed("accepted")
	s.waitChat("  ⎿  accepted with your changes")
	s.waitChat("Noted your addition.")
	const want = "one\nTWO\nthree\nadded by user\n"
	if got := s.fileContent(path); got != want {
		t.Errorf("after accepting an edited proposal, %s holds %q, want the user's text %q", path, got, want)
	}
	if result := s.editResult(3); !strings.Contains(result, "has been updated successfully") {
		t.Errorf("the model got the tool result %q, want the edit done", result)
	}
	if t.Failed() {
		t.Logf("transcript:\n%s", s.chatTranscript())
	}
}
