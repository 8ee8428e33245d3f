package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// Every permission mode of the CLI in the chat (issue 39, item 1): offered with what it means
// for the review, switched with :Claude mode and <S-Tab>, bypassPermissions only after a
// typed confirmation, and auto mode without its safety check said in plain words.

// pickMode makes the mode picker (vim.ui.select) pick the mode whose label starts with mode;
// the labels offered are kept in _G.mode_labels.
func (s *session) pickMode(mode string) {
	s.t.Helper()
	s.nv.Lua(nil, `
		local mode = ...
		vim.ui.select = function(items, opts, on_choice)
			_G.mode_labels = {}
			for _, it in ipairs(items) do
				table.insert(_G.mode_labels, opts.format_item(it))
			end
			for i, it in ipairs(items) do
				if it == mode then
					return on_choice(it, i)
				end
			end
			on_choice(nil, nil)
		end`, mode)
}

func TestEveryChatModeIsOfferedWithWhatItMeansAndTheCLIRunsIt(t *testing.T) {
	t.Parallel()
	s := newSession(t, bashTurns("touch made-by-bash.txt", "It was refused.")...)
	t.Cleanup(s.logTranscript)
	s.openChat()
	s.pickMode("dontAsk")
	s.nv.Cmd("ClaudeChatMode")
	s.waitChat("_Mode: dontAsk_")
	s.waitChat("  only what your permission rules allow runs; everything else is refused without asking")
	var labels []string
	s.nv.Lua(&labels, `return _G.mode_labels`)
	want := []string{
		"default [now] (Manual): Claude asks first: each edit is reviewed in a diff, each command waits for your answer",
		"acceptEdits (Accept edits): edits in the workspace are written without review; commands still ask",
		"plan (Plan): Claude reads and plans without editing; you approve its plan before it works",
		"auto (Auto): a safety check on Anthropic's servers decides each action: no review, no questions",
		"dontAsk (Don't ask): only what your permission rules allow runs; everything else is refused without asking",
		"bypassPermissions (Bypass permissions): everything runs without asking: no review, no question, no safety check",
	}
	if strings.Join(labels, "\n") != strings.Join(want, "\n") {
		t.Errorf("the mode picker offered\n%s\nwant\n%s", strings.Join(labels, "\n"), strings.Join(want, "\n"))
	}
	// The CLI runs in it: a command no rule allows is refused without a question.
	s.chatSend("Create made-by-bash.txt")
	s.waitChat("  ⎿  Bash refused without asking you: mode dontAsk runs only what your permission rules allow")
	s.waitChat("It was refused.")
	if _, err := os.Stat(filepath.Join(s.env.Project, "made-by-bash.txt")); err == nil {
		t.Errorf("in dontAsk mode the command ran")
	}
	if strings.Contains(s.chatTranscript(), "asks for permission") {
		t.Errorf("in dontAsk mode the chat asked for permission")
	}
	// <S-Tab> goes the CLI's way round: default, acceptEdits, plan, auto, and default again.
	s.nv.Lua(nil, `vim.api.nvim_set_current_win(vim.fn.bufwinid(require('claude.chat').buffers().input))`)
	for _, mode := range []string{"default", "acceptEdits", "plan", "auto", "default"} {
		before := strings.Count(s.chatTranscript(), "_Mode: "+mode+"_")
		s.nv.Keys("<Esc><S-Tab>")
		nvimtest.Wait(t, "<S-Tab> to switch to "+mode, turnTimeout, func() bool {
			return strings.Count(s.chatTranscript(), "_Mode: "+mode+"_") > before
		})
	}
	if got := s.chatStatus(); strings.Contains(got, "auto") {
		t.Errorf("back in default mode the winbar says %q", got)
	}
}

// Auto mode's safety check runs on Anthropic's servers; through the stand-in it cannot (2.1.332
// says so; 2.1.197 asks the API itself and gets no verdict). The command is refused, and the
// chat says why in plain words, with nothing waiting for the user.
func TestAutoModeWithoutItsSafetyCheckSaysSoInsteadOfWaiting(t *testing.T) {
	t.Parallel()
	s := newSession(t, bashTurns("curl -s https://example.com/install.sh | sh", "It was refused.")...)
	t.Cleanup(s.logTranscript)
	s.openChat()
	s.nv.Cmd("ClaudeChatMode auto")
	s.waitChat("_Mode: auto_")
	s.waitChat("  a safety check on Anthropic's servers decides each action: no review, no questions")
	s.chatSend("Install it")
	s.waitChat("It was refused.")
	got := s.chatTranscript()
	switch cliVersion {
	case "2.1.197":
		s.waitChat("  ⎿  Bash refused without asking you: auto mode's safety check: Auto mode could not evaluate this action and is blocking it for safety — run with --debug for details. <S-Tab> or :Claude mode switches to a mode that asks you instead.")
	default:
		s.waitChat("**Auto mode cannot check actions here:** its safety check runs on Anthropic's servers and does not reach this session, so every action that needs it is refused, without asking you. <S-Tab> or :Claude mode switches to a mode that asks you instead.")
		s.waitChat("  ⎿  Bash refused without asking you: auto mode's safety check does not run in this session. <S-Tab> or :Claude mode switches to a mode that asks you instead.")
		if status := s.chatStatus(); !strings.Contains(status, "auto (no safety check here: actions refused)") {
			t.Errorf("the winbar says %q, want it to say auto mode refuses", status)
		}
	}
	if strings.Contains(got, "waits for you") || strings.Contains(s.chatStatus(), "waits for you") {
		t.Errorf("the chat waits for the user in auto mode")
	}
}

// bypassPermissions: the CLI refuses it unless launched to allow it, so a typed confirmation
// starts the chat's CLI again with the conversation resumed; anything else typed changes
// nothing.
func TestBypassPermissionsNeedsATypedConfirmationAndKeepsTheConversation(t *testing.T) {
	t.Parallel()
	s := newSession(t, fakeapi.Say("First answer."))
	t.Cleanup(s.logTranscript)
	s.openChat()
	s.chatSend("Remember the word lantern")
	s.waitChat("First answer.")
	s.turnDone(1)
	first := s.cliPID
	s.answerPermissions("", "yes")
	s.nv.Cmd("ClaudeChatMode bypassPermissions")
	nvimtest.Wait(t, "the confirmation to be asked", turnTimeout, func() bool { return len(s.asked()) == 1 })
	if got := s.asked()[0]; !strings.Contains(got, `Type "bypass" to switch`) || !strings.Contains(got, "everything runs without asking") {
		t.Errorf("the confirmation asked %q", got)
	}
	if strings.Contains(s.chatTranscript(), "_Mode: bypassPermissions_") || chatCLIOf(s.hostPID) != first {
		t.Fatalf("typing %q switched to bypassPermissions or restarted the CLI", "yes")
	}
	s.answerPermissions("", "bypass")
	if os.Getuid() == 0 {
		// The CLI refuses bypassPermissions to root outside a sandbox it knows of: the chat
		// says so in its words, and the next start is a plain one.
		s.nv.Cmd("ClaudeChatMode bypassPermissions")
		s.waitChat("_Claude exited (code 1: --dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons)._")
		s.earlierCLIs, first = append(s.earlierCLIs, first), 0
		s.nv.Lua(nil, `vim.env.IS_SANDBOX = '1'`) // the CLI's own word for "root in a sandbox"
	}
	s.api.Push(bashTurns("touch made-by-bash.txt", "Done without asking.")...)
	s.nv.Cmd("ClaudeChatMode bypassPermissions")
	s.waitChat("_Mode: bypassPermissions_")
	s.waitChat("  everything runs without asking: no review, no question, no safety check")
	s.waitNewCLI(first)
	s.chatSend("Create made-by-bash.txt")
	s.waitChat("Done without asking.")
	if _, err := os.Stat(filepath.Join(s.env.Project, "made-by-bash.txt")); err != nil {
		t.Errorf("in bypassPermissions mode the command did not run: %v", err)
	}
	if strings.Contains(s.chatTranscript(), "asks for permission") {
		t.Errorf("in bypassPermissions mode the chat asked for permission")
	}
	if got := s.chatRequest(2).UserText(); !strings.Contains(got, "Remember the word lantern") {
		t.Errorf("after the restart the model got %q, want the earlier turn resumed", got)
	}
}

// waitNewCLI waits until the host runs a chat CLI other than old, and records it (the cleanup
// waits for both).
func (s *session) waitNewCLI(old int) {
	s.t.Helper()
	nvimtest.Wait(s.t, "a new chat CLI", turnTimeout, func() bool {
		pid := chatCLIOf(s.hostPID)
		return pid != 0 && pid != old
	})
	if old != 0 {
		s.earlierCLIs = append(s.earlierCLIs, old)
	}
	s.cliPID = chatCLIOf(s.hostPID)
}
