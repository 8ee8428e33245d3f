package e2e

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The native chat (:ClaudeChat): the real CLI in its stream-json mode, run by the plugin's
// host, against the API stand-in.

// openChat runs :ClaudeChat with args and records the host's and the chat CLI's pids, so the
// cleanup waits for them before the temporary directories go.
func (s *session) openChat(args ...string) {
	s.t.Helper()
	s.nv.Cmd(strings.Join(append([]string{"ClaudeChat"}, args...), " "))
	s.readChatPIDs()
}

// readChatPIDs records the host's and the chat CLI's pids (see openChat).
func (s *session) readChatPIDs() {
	s.t.Helper()
	s.nv.Lua(&s.hostPID, `return vim.fn.jobpid(require('claude.host').channel())`)
	// Just after the host forks the CLI, the child still shows the host's command line
	// until its exec: under load CI read it there and found no CLI.
	deadline := time.Now().Add(turnTimeout)
	for s.cliPID = chatCLIOf(s.hostPID); s.cliPID == 0 && time.Now().Before(deadline); s.cliPID = chatCLIOf(s.hostPID) {
		time.Sleep(20 * time.Millisecond)
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
	// The CLI's words from the terminal's diff flow, in the same request as the tool result.
	told := "The user modified your proposed changes to " + strconv.Quote(path) + " before accepting them."
	if got := s.mainRequest(3).LastUserText(); !strings.Contains(got, told) {
		t.Errorf("with the tool result the model got %q, want it told %q", got, told)
	}
	if t.Failed() {
		t.Logf("transcript:\n%s", s.chatTranscript())
	}
}

// chatRequest waits for the n-th main-conversation request (1-based) to reach the API.
func (s *session) chatRequest(n int) fakeapi.Request {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	defer cancel()
	req, err := s.api.WaitMain(ctx, n)
	if err != nil {
		s.t.Fatalf("waiting for main request #%d: %v; transcript:\n%s", n, err, s.chatTranscript())
	}
	return req
}

// chatSend types text into the chat's input and sends it with <CR>, as the user does.
func (s *session) chatSend(text string) {
	s.t.Helper()
	s.nv.Lua(nil, `
		local b = require('claude.chat').buffers()
		vim.api.nvim_set_current_win(vim.fn.bufwinid(b.input))`)
	// <C-\><C-n> first: a :startinsert still pending from a terminal window the test passed
	// through (its BufEnter) would otherwise put the input in Insert mode and "i" in the text.
	s.nv.Keys("<C-\\><C-n>i" + text + "<Esc><CR>")
	s.waitChat("> " + text)
}

// goToTranscript moves the cursor to the chat's transcript, as the user does with a window
// command.
func (s *session) goToTranscript() {
	s.t.Helper()
	s.nv.Lua(nil, `vim.api.nvim_set_current_win(vim.fn.bufwinid(require('claude.chat').buffers().transcript))`)
}

// answerPermissions makes the permission picker (vim.ui.select) pick the choice labelled
// choice, and the reason prompt (vim.ui.input) answer reason. Each prompt's text is kept
// in _G.asked, in order.
func (s *session) answerPermissions(choice, reason string) {
	s.t.Helper()
	s.nv.Lua(nil, `
		local choice, reason = ...
		_G.asked = {}
		vim.ui.select = function(items, opts, on_choice)
			table.insert(_G.asked, opts.prompt)
			for i, it in ipairs(items) do
				if opts.format_item(it) == choice then
					return on_choice(it, i)
				end
			end
			on_choice(nil, nil)
		end
		vim.ui.input = function(opts, on_confirm)
			table.insert(_G.asked, opts.prompt)
			on_confirm(reason)
		end`, choice, reason)
}

// asked returns the prompts answerPermissions answered so far.
func (s *session) asked() []string {
	var asked []string
	s.nv.Lua(&asked, `return _G.asked or {}`)
	return asked
}

// logTranscript shows the transcript of a failed scenario.
func (s *session) logTranscript() {
	if s.t.Failed() {
		s.t.Logf("transcript:\n%s", s.chatTranscript())
	}
}
