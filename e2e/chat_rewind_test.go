package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// Checkpoints in the chat (issue 25.4) with the real CLI: rewind the code and the conversation
// to an earlier prompt, fork from there, edit a prompt and run it again.

const (
	rewindOriginal = "one\ntwo\nthree\n"
	afterFirst     = "one\nTWO\nthree\n"
	firstPrompt    = "First: make the second line louder"
	secondPrompt   = "Second: change the third line"
)

// startTwoEditTurns runs two turns in acceptEdits mode, each editing f.txt, and returns once
// both have ended.
func startTwoEditTurns(t *testing.T) (*session, string) {
	t.Helper()
	s := newSession(t)
	t.Cleanup(s.logTranscript)
	path := s.writeFile("f.txt", rewindOriginal)
	s.api.Push(
		fakeapi.Read(path), fakeapi.Edit(path, "two", "TWO"), fakeapi.Say("First edit done."),
		fakeapi.Edit(path, "three", "THREE\nfour"), fakeapi.Say("Second edit done."),
	)
	s.openChat()
	s.nv.Cmd("ClaudeChatMode acceptEdits")
	s.waitChat("_Mode: acceptEdits_")
	s.chatSend(firstPrompt)
	s.waitTurns(1)
	s.chatSend(secondPrompt)
	s.waitTurns(2)
	if got := s.fileContent(path); got != "one\nTWO\nTHREE\nfour\n" {
		t.Fatalf("after two edit turns f.txt holds %q", got)
	}
	return s, path
}

// waitTurns waits until n turns have ended in the transcript (their summary lines).
func (s *session) waitTurns(n int) {
	s.t.Helper()
	nvimtest.Wait(s.t, "turn summaries in the transcript", turnTimeout, func() bool {
		return strings.Count(s.chatTranscript(), " tokens in, ") >= n
	})
}

// rewindPreview puts the cursor on the prompt in the transcript and presses R, as the user
// does, and waits for the dry run's line.
func (s *session) rewindPreview(prompt, code string) {
	s.t.Helper()
	s.goToTranscript()
	s.nv.Lua(nil, `vim.fn.cursor(1, 1); vim.fn.search('^> ' .. vim.pesc(...))`, prompt)
	s.nv.Keys("R")
	s.waitChat("⏪ Rewind to your prompt: " + prompt)
	s.waitChat("  ⎿  " + code)
}

// pickRewind presses <CR> in the transcript, the picker (vim.ui.select) choosing the choice
// whose what is what.
func (s *session) pickRewind(what string) {
	s.t.Helper()
	s.nv.Lua(nil, `
		local what = ...
		vim.ui.select = function(items, opts, on_choice)
			for i, it in ipairs(items) do
				if it.what == what then return on_choice(it, i) end
			end
			on_choice(nil, nil)
		end`, what)
	s.goToTranscript()
	s.nv.Keys("<CR>")
}

// clearInput empties the chat's input (a rewind puts the prompt back there).
func (s *session) clearInput() {
	s.nv.Lua(nil, `vim.api.nvim_buf_set_lines(require('claude.chat').buffers().input, 0, -1, false, {})`)
}

// conversations returns the stored conversation files of the session's project.
func (s *session) conversations() []string {
	files, _ := filepath.Glob(filepath.Join(s.env.ConfigDir, "projects", "*", "*.jsonl"))
	return files
}

func TestAChatRewoundToTheFirstPromptPutsTheFilesBackAndForgetsTheLaterTurns(t *testing.T) {
	t.Parallel()
	s, path := startTwoEditTurns(t)
	s.rewindPreview(firstPrompt, "code: 1 file, +2 −3: f.txt")
	if got := s.fileContent(path); got == rewindOriginal {
		t.Fatalf("the dry run already rewound f.txt")
	}
	s.pickRewind("both")
	if cliVersion == "2.1.197" {
		// It refuses to cut at the first prompt ("no preceding assistant"): the chat says so
		// and nothing is rewound, the files neither.
		nvimtest.Wait(t, "the rewind's error", turnTimeout, func() bool {
			return strings.Contains(s.chatTranscript(), "**Error:** rewind failed: this Claude Code can only rewind the conversation to its last prompt")
		})
		if got := s.fileContent(path); got != "one\nTWO\nTHREE\nfour\n" || !strings.Contains(s.chatTranscript(), "Second edit done.") {
			t.Errorf("a refused rewind changed f.txt (%q) or the transcript", got)
		}
		t.Skip("Claude Code 2.1.197 cannot rewind the conversation to its first prompt (rewind_conversation: no preceding assistant)")
	}
	s.waitChat("⏪ Rewound the conversation to before your prompt: " + firstPrompt)
	if got := s.fileContent(path); got != rewindOriginal {
		t.Errorf("after the rewind f.txt holds %q, want it as before the first prompt: %q", got, rewindOriginal)
	}
	transcript := s.chatTranscript()
	for _, gone := range []string{"> " + firstPrompt, "First edit done.", "> " + secondPrompt, "Second edit done."} {
		if strings.Contains(transcript, gone) {
			t.Errorf("after the rewind the transcript still shows %q", gone)
		}
	}
	if got := s.chatInput(); got != firstPrompt {
		t.Errorf("after the rewind the input holds %q, want the prompt back: %q", got, firstPrompt)
	}

	s.startAgainAfterRewind()
}

func TestAChatForkedFromASecondPromptIsASeparateStoredConversation(t *testing.T) {
	t.Parallel()
	s, path := startTwoEditTurns(t)
	original := s.chatState().Conversation
	files := s.conversations()
	if len(files) != 1 {
		t.Fatalf("before the fork the CLI stores %d conversations, want 1: %q", len(files), files)
	}
	// 2.1.197 writes a turn's last assistant line after the turn's result.
	var stored []byte
	nvimtest.Wait(t, "the second turn's answer in the stored conversation", turnTimeout, func() bool {
		stored, _ = os.ReadFile(files[0])
		return strings.Contains(string(stored), "Second edit done.")
	})
	s.rewindPreview(secondPrompt, "code: 1 file, +1 −2: f.txt")
	s.pickRewind("fork")
	s.waitChat("⑂ Forked: a new conversation from before your prompt: " + secondPrompt)
	if got := s.chatInput(); got != secondPrompt {
		t.Errorf("after the fork the input holds %q, want the prompt: %q", got, secondPrompt)
	}
	if strings.Contains(s.chatTranscript(), "Second edit done.") || !strings.Contains(s.chatTranscript(), "First edit done.") {
		t.Errorf("after the fork the transcript should show the first turn only")
	}

	s.clearInput()
	before := len(s.api.Main())
	s.api.Push(fakeapi.Say("Answered in the fork."))
	s.chatSend("Second, forked: leave the third line")
	s.waitChat("Answered in the fork.")
	s.waitTurns(2)
	body := string(s.chatRequest(before + 1).Body)
	if strings.Contains(body, secondPrompt) || strings.Contains(body, "Second edit done.") || !strings.Contains(body, "First edit done.") {
		t.Errorf("the fork's first request should hold the first turn and not the second")
	}
	fork := s.chatState().Conversation
	if fork == "" || fork == original {
		t.Errorf("the chat's conversation after the fork is %q, the original %q: want a new one", fork, original)
	}
	if now := s.conversations(); len(now) != 2 {
		t.Errorf("after the fork the CLI stores %d conversations, want 2 (the original and the fork): %q", len(now), now)
	}
	// Its CLI, closed by the fork, appends its last-prompt and cost-state lines: nothing of
	// the conversation.
	b, err := os.ReadFile(files[0])
	if err != nil || !strings.HasPrefix(string(b), string(stored)) {
		t.Fatalf("the original conversation's file was rewritten with the fork (%v)", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(strings.TrimPrefix(string(b), string(stored))), "\n") {
		var entry struct{ Type string }
		if line != "" && (json.Unmarshal([]byte(line), &entry) != nil || entry.Type != "last-prompt" && entry.Type != "cost-state") {
			t.Errorf("with the fork the original conversation got the line %q", line)
		}
	}
	if got := s.fileContent(path); got != "one\nTWO\nTHREE\nfour\n" {
		t.Errorf("a fork left f.txt as %q; it does not rewind the code", got)
	}
}

func TestAChatPromptEditedAndRunAgainReachesTheModelFromThatPoint(t *testing.T) {
	t.Parallel()
	s, path := startTwoEditTurns(t)
	s.rewindPreview(secondPrompt, "code: 1 file, +1 −2: f.txt")
	s.pickRewind("edit")
	var name string
	nvimtest.Wait(t, "the prompt's buffer", turnTimeout, func() bool {
		s.nv.Lua(&name, `return vim.api.nvim_buf_get_name(0)`)
		return strings.HasPrefix(name, "claude-prompt://")
	})
	var shown []string
	s.nv.Lua(&shown, `return vim.api.nvim_buf_get_lines(0, 0, -1, false)`)
	if strings.Join(shown, "\n") != secondPrompt {
		t.Errorf("the prompt's buffer holds %q, want the prompt %q", shown, secondPrompt)
	}
	const edited = "Second, edited: leave the third line alone"
	before := len(s.api.Main())
	s.api.Push(fakeapi.Say("Left it alone."))
	s.nv.Keys("ggdGi" + edited + "<C-s>")
	s.waitChat("> " + edited)
	s.waitChat("Left it alone.")
	req := s.chatRequest(before + 1)
	if got := req.LastUserText(); !strings.Contains(got, edited) {
		t.Errorf("the model got %q, want the edited prompt %q", got, edited)
	}
	body := string(req.Body)
	if strings.Contains(body, secondPrompt) || strings.Contains(body, "Second edit done.") || !strings.Contains(body, "First edit done.") {
		t.Errorf("the edited prompt should follow the first turn, without the second")
	}
	if got := s.fileContent(path); got != afterFirst {
		t.Errorf("after the edited prompt ran f.txt holds %q, want it as before the second prompt: %q", got, afterFirst)
	}
	if strings.Contains(s.chatTranscript(), "> "+secondPrompt) {
		t.Errorf("the transcript still shows the prompt that was edited")
	}
}

func TestAChatCodeRewoundAloneKeepsTheConversation(t *testing.T) {
	t.Parallel()
	s, path := startTwoEditTurns(t)
	s.rewindPreview(secondPrompt, "code: 1 file, +1 −2: f.txt")
	s.pickRewind("code")
	s.waitChat("⏪ Rewound the code to before your prompt: " + secondPrompt)
	if got := s.fileContent(path); got != afterFirst {
		t.Errorf("after the rewind of the code f.txt holds %q, want it as before the second prompt: %q", got, afterFirst)
	}
	if got := s.chatTranscript(); !strings.Contains(got, "Second edit done.") {
		t.Errorf("a rewind of the code alone cut the transcript")
	}
	before := len(s.api.Main())
	s.api.Push(fakeapi.Say("Still here."))
	s.chatSend("Third: go on")
	s.waitChat("Still here.")
	if body := string(s.chatRequest(before + 1).Body); !strings.Contains(body, secondPrompt) || !strings.Contains(body, "Second edit done.") {
		t.Errorf("after a rewind of the code alone the model should still have the second turn")
	}
}

// startAgainAfterRewind sends a new prompt after a rewind to the first of
// startTwoEditTurns' prompts: the request carries it, and nothing of the two
// turns rewound.
func (s *session) startAgainAfterRewind() {
	s.t.Helper()
	s.clearInput()
	before := len(s.api.Main())
	s.api.Push(fakeapi.Say("A fresh start."))
	s.chatSend("Third: start again")
	s.waitChat("A fresh start.")
	body := string(s.chatRequest(before + 1).Body)
	for _, gone := range []string{firstPrompt, "First edit done.", secondPrompt, "Second edit done."} {
		if strings.Contains(body, gone) {
			s.t.Errorf("the request after the rewind still carries %q", gone)
		}
	}
	if !strings.Contains(body, "Third: start again") {
		s.t.Errorf("the request after the rewind lacks the new prompt")
	}
}
