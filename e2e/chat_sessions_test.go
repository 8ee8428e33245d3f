package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// Chat sessions with the real CLI: a conversation lives on when its windows close, continues
// after Neovim restarts (the CLI stores it), and :ClaudeChat new starts another.

// quitNvim quits Neovim and waits for its host and chat CLI to exit.
func (s *session) quitNvim() {
	s.t.Helper()
	_ = s.nv.Nvim.Close()
	waitOrKill(s.t, []int{s.cliPID, s.hostPID})
	s.cliPID, s.hostPID = 0, 0
}

// restartNvim quits Neovim, waits for its host and chat CLI to exit, and starts a new
// Neovim set up as newSession does, in the same environment (the CLI's config dir with its
// stored sessions, the stand-in).
func (s *session) restartNvim() {
	s.t.Helper()
	s.quitNvim()
	s.nv = nvimtest.New(s.t, nvimtest.WithEnv(s.env.Vars()...), nvimtest.AlreadyParallel())
	s.diffOpened = s.nv.UserEvents("ClaudeDiffOpened")
	s.diffClosed = s.nv.UserEvents("ClaudeDiffClosed")
	s.nv.Lua(nil, `
		local bin, cli, log, project = ...
		vim.g.claude_nvim_binary = bin
		vim.cmd.cd(vim.fn.fnameescape(project))
		require('claude').setup({ terminal_cmd = { cli }, log = { level = 'debug', file = log } })`,
		pluginBinary, clienv.Bin(s.t), s.logFile, s.env.Project)
}

// turnDone waits until the transcript has n turn summary lines.
func (s *session) turnDone(n int) {
	s.t.Helper()
	nvimtest.Wait(s.t, "the turn's summary line", turnTimeout, func() bool {
		return strings.Count(s.chatTranscript(), " tokens in, ") >= n
	})
}

func TestAChatIsResumedAfterNeovimRestartsFromThePicker(t *testing.T) {
	t.Parallel()
	const first = "Remember the code word PLUM"
	s := newSession(t, fakeapi.Say("Noted: PLUM."))
	t.Cleanup(s.logTranscript)
	s.openChat()
	s.chatSend(first)
	s.waitChat("Noted: PLUM.")
	s.turnDone(1)

	s.restartNvim()
	s.api.Push(fakeapi.Say("You said PLUM."))
	s.nv.Cmd("ClaudeChat resume")
	lines := s.waitHistory("the stored conversation", first)
	if !strings.Contains(lines[2], "HEAD") {
		t.Errorf("the conversation list shows %q, want the stored conversation's first prompt and branch", lines[2])
	}
	s.onHistoryLine(first)
	s.nv.Keys("<CR>")
	s.readChatPIDs()
	nvimtest.Wait(t, "the transcript to say which conversation goes on", turnTimeout, func() bool {
		return strings.HasPrefix(s.chatTranscript(), "_Resumed: ") && strings.Contains(s.chatTranscript(), first)
	})
	// The earlier turn, read from the CLI's stored session.
	s.waitChat("> " + first)
	s.waitChat("Noted: PLUM.")
	s.chatSend("Which code word did I give you?")
	s.waitChat("You said PLUM.")
	if got := s.chatRequest(2).UserText(); !strings.Contains(got, first) {
		t.Errorf("after resuming, the model got %q, want the earlier conversation with %q", got, first)
	}
	// Resuming the conversation the chat shows keeps it as it is.
	s.nv.Cmd("ClaudeChat resume")
	s.waitHistory("the stored conversation", first)
	s.onHistoryLine(first)
	s.nv.Keys("<CR>")
	if got := s.chatTranscript(); !strings.Contains(got, "You said PLUM.") {
		t.Errorf("resuming the conversation the chat shows emptied its transcript:\n%s", got)
	}
}

func TestAChatOutlivesItsWindowsAndClaudeChatNewStartsAnother(t *testing.T) {
	t.Parallel()
	const first = "Remember the code word FIG"
	s := newSession(t, fakeapi.Say("Noted: FIG."), fakeapi.Say("Still FIG."), fakeapi.Say("A fresh start."))
	t.Cleanup(s.logTranscript)
	s.openChat()
	cli := s.cliPID
	s.chatSend(first)
	s.waitChat("Noted: FIG.")
	s.turnDone(1)
	s.nv.Lua(nil, `
		local b = require('claude.chat').buffers()
		for _, buf in ipairs({ b.input, b.transcript }) do
			vim.api.nvim_win_close(vim.fn.bufwinid(buf), true)
		end`)
	s.openChat()
	if s.cliPID != cli {
		t.Errorf("reopening the chat started another CLI (%d, was %d)", s.cliPID, cli)
	}
	s.waitChat("Noted: FIG.")
	s.chatSend("And now?")
	s.waitChat("Still FIG.")
	if got := s.chatRequest(2).UserText(); !strings.Contains(got, first) {
		t.Errorf("after reopening the chat, the model got %q, want the same conversation", got)
	}

	s.openChat("new")
	if strings.Contains(s.chatTranscript(), "FIG") {
		t.Errorf(":ClaudeChat new kept the old transcript:\n%s", s.chatTranscript())
	}
	s.chatSend("Hello again")
	s.waitChat("A fresh start.")
	if got := s.chatRequest(3).UserText(); strings.Contains(got, first) {
		t.Errorf("after :ClaudeChat new, the model got %q, want a conversation without %q", got, first)
	}
}

// midTurnWithAQueuedMessage starts a session whose chat waits for a Bash permission with
// queued behind the turn, and returns how many requests the model had got by then. Were the
// turn to go on, the next request would get the scripted answer after.
func midTurnWithAQueuedMessage(t *testing.T, queued, after string) (*session, int) {
	t.Helper()
	s := newSession(t, append(bashTurns("touch made-by-bash.txt", "The file is there."), fakeapi.Say(after))...)
	t.Cleanup(s.logTranscript)
	s.openChat()
	s.chatSend("Create made-by-bash.txt")
	s.waitChat("? Bash(touch made-by-bash.txt) asks for permission")
	s.chatType(queued)
	nvimtest.Wait(t, "the second message to be queued", turnTimeout, func() bool { return len(s.chatQueued()) > 0 })
	return s, len(s.api.Main())
}

// assertTheTurnWentNoFurther checks that the model got no request beyond the asked first
// ones and that the command left waiting for permission did not run.
func (s *session) assertTheTurnWentNoFurther(asked int, after string) {
	s.t.Helper()
	if m := s.api.Main(); len(m) != asked {
		s.t.Errorf("after %s, the CLI asked the model %d more times; the last request ends with %.200q",
			after, len(m)-asked, m[len(m)-1].LastUserText())
	}
	if _, err := os.Stat(filepath.Join(s.env.Project, "made-by-bash.txt")); err == nil {
		s.t.Errorf("after %s, the command of the permission left waiting ran", after)
	}
}

// Quitting Neovim while Claude waits for a permission, a message queued behind it, ends the
// turn there: the CLI asks the model nothing more, so nothing runs that nobody sees. Closing
// the CLI's stdin alone made it take the closed stream as a failed permission request and ask
// the model again, queued message and all.
func TestQuittingNeovimMidTurnAsksTheModelNothingMore(t *testing.T) {
	t.Parallel()
	s, asked := midTurnWithAQueuedMessage(t, "And then say hello", "Hello after the quit.")
	s.quitNvim()
	s.assertTheTurnWentNoFurther(asked, "Neovim quit")
}

// :Claude chat end mid-turn does the same, and the message queued behind the turn goes back
// into the input, where the user can send it again: typed text is never lost.
func TestClaudeChatStopMidTurnEndsTheTurnAndGivesTheQueuedMessageBack(t *testing.T) {
	t.Parallel()
	const queued = "And then say hello"
	s, asked := midTurnWithAQueuedMessage(t, queued, "Hello after the stop.")
	s.nv.Cmd("ClaudeChatStop")
	s.waitGone("the stopped chat's CLI", s.cliPID)
	nvimtest.Wait(t, "the queued message back in the input", turnTimeout, func() bool {
		return strings.Contains(s.chatInput(), queued)
	})
	s.assertTheTurnWentNoFurther(asked, ":Claude chat end")
	if q := s.chatQueued(); len(q) != 0 {
		t.Errorf("after :Claude chat end the chat still shows %q as queued", q)
	}
}
