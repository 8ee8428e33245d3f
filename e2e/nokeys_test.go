package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// Issue 29: nothing Claude asks for (a diff, a permission) moves the cursor or takes a key
// from a user who is typing in their own file, from the terminal or the chat. Each scenario
// has the user start typing, waits until Claude's request has arrived, has them finish (and
// :w), and checks every key landed in their file; then the user goes to the request and
// answers it.

const notes = "n1\nn2\nn3\nn4\nn5\nn6\n"

// typing is one way of being busy in notes.txt when Claude asks: start is typed before the
// request arrives, finish after it. Each round's keys end by :w, so the file on disk shows
// exactly what the user typed; after[i] is notes.txt after i+1 rounds.
type typing struct {
	name          string
	start, finish string
	after         []string
}

var typings = []typing{
	// The first d of dd is pending when the request arrives; more dd's follow.
	{"deleting lines with dd", "d", "ddd:w<CR>", []string{"n3\nn4\nn5\nn6\n", "n5\nn6\n"}},
	{"in Insert mode, then :w", "Atyped", " by hand<Esc>:w<CR>", []string{"n1typed by hand\nn2\nn3\nn4\nn5\nn6\n", "n1typed by handtyped by hand\nn2\nn3\nn4\nn5\nn6\n"}},
	{"on the command line", ":s/$/!", "/<CR>:w<CR>", []string{"n1!\nn2\nn3\nn4\nn5\nn6\n", "n1!!\nn2\nn3\nn4\nn5\nn6\n"}},
}

// goToNotes puts the cursor in notes.txt's window in Normal mode, as the user does with
// CTRL-W commands after talking to Claude.
func (s *session) goToNotes(path string) {
	s.t.Helper()
	s.nv.Lua(nil, `vim.cmd.stopinsert(); vim.api.nvim_set_current_win(vim.fn.bufwinid(vim.fn.bufnr(...)))`, path)
	s.waitMode("n", "Normal mode in notes.txt")
}

// typeWhileClaudeAsks types ty's round (0-based) into notes.txt around the arrival of
// Claude's request (arrived), and checks that every key landed there.
func (s *session) typeWhileClaudeAsks(ty typing, round int, path string, arrived func() bool) {
	s.t.Helper()
	s.nv.Keys(ty.start)
	nvimtest.Wait(s.t, "Claude's request to arrive while the user types", turnTimeout, arrived)
	s.nv.Keys(ty.finish)
	want := ty.after[round]
	nvimtest.Wait(s.t, "the user's :w to write what they typed", turnTimeout, func() bool {
		got, _ := os.ReadFile(path)
		return string(got) == want
	})
	var st struct {
		Buf  string `msgpack:"buf"`
		Mode string `msgpack:"mode"`
	}
	s.nv.Lua(&st, `return { buf = vim.api.nvim_buf_get_name(0), mode = vim.api.nvim_get_mode().mode }`)
	if st.Buf != path || st.Mode != "n" {
		s.t.Errorf("after the user's keys the cursor is in %q, mode %q; want it where they typed, %s in Normal mode", st.Buf, st.Mode, path)
	}
}

// diffArrived reports whether a proposal is registered (shown or waiting).
func (s *session) diffArrived() bool {
	var n int
	s.nv.Lua(&n, `return #require('claude.diff').ids()`)
	return n == 1
}

func TestAReviewInTheTerminalNeverTakesTheKeysOfAUserTypingInTheirFile(t *testing.T) {
	t.Parallel()
	for _, ty := range typings {
		t.Run(ty.name, func(t *testing.T) {
			t.Parallel()
			s := newSession(t)
			path := s.writeFile("greet.txt", original)
			notesPath := s.writeFile("notes.txt", notes)
			s.api.Push(fakeapi.Read(path), fakeapi.Edit(path, "two", "TWO"), fakeapi.Say("Louder now."))
			s.edit(notesPath)
			s.open()
			s.prompt("Please make the second line of greet.txt louder")
			s.goToNotes(notesPath)
			s.typeWhileClaudeAsks(ty, 0, notesPath, s.diffArrived)
			if st := s.diffState(); st.DiffWindows != 0 {
				t.Errorf("after the user's keys: %+v; want the proposal waiting unseen", st)
			}
			if got := s.fileContent(path); got != original {
				t.Errorf("after the user typed and wrote their own file, %s holds %q: nothing may be accepted", path, got)
			}

			s.nv.Cmd("ClaudeDiffFocus") // the user goes to the review
			s.nextDiffOpened(path)
			if st := s.diffState(); !st.InProposal {
				t.Fatalf("after :Claude review focus: %+v; want the cursor in the proposal", st)
			}
			s.nv.Cmd("write")
			s.nextDiffClosed("accepted")
			s.waitText("Louder now.", turnTimeout)
			if got := s.fileContent(path); got != proposed {
				t.Errorf("after accepting, %s holds %q, want %q", path, got, proposed)
			}
			if got := s.fileContent(notesPath); got != ty.after[0] {
				t.Errorf("notes.txt holds %q, want what the user typed: %q", got, ty.after[0])
			}
		})
	}
}

func TestAChatPermissionAndReviewNeverTakeTheKeysOfAUserTypingInTheirFile(t *testing.T) {
	t.Parallel()
	for _, ty := range typings {
		t.Run(ty.name, func(t *testing.T) {
			t.Parallel()
			s := newSession(t)
			t.Cleanup(s.logTranscript)
			path := s.writeFile("greet.txt", original)
			notesPath := s.writeFile("notes.txt", notes)
			made := filepath.Join(s.env.Project, "made-by-bash.txt")
			s.api.Push(
				fakeapi.Use("Bash", map[string]any{"command": "touch made-by-bash.txt", "description": "Create a file"}),
				fakeapi.Read(path), fakeapi.Edit(path, "two", "TWO"), fakeapi.Say("Both done."),
			)
			s.answerPermissions("Allow once", "")
			s.edit(notesPath)
			s.openChat()
			s.chatSend("Create made-by-bash.txt, then make the second line of greet.txt louder")

			// The permission request arrives while the user types.
			s.goToNotes(notesPath)
			s.typeWhileClaudeAsks(ty, 0, notesPath, func() bool {
				return strings.Contains(s.chatTranscript(), "? Bash(touch made-by-bash.txt) asks for permission")
			})
			if tr := s.chatTranscript(); strings.Contains(tr, "allowed") || strings.Contains(tr, "denied") {
				t.Errorf("the permission request was answered by the user's keys:\n%s", tr)
			}
			if _, err := os.Stat(made); err == nil {
				t.Errorf("the command ran without the user allowing it")
			}
			if asked := s.asked(); len(asked) != 0 {
				t.Errorf("the user was prompted while typing: %q", asked)
			}
			s.goToTranscript() // the user goes to the request and answers it
			s.nv.Keys("<CR>")
			s.waitChat("  ⎿  allowed: Allow once")

			// The review arrives while the user types again.
			s.goToNotes(notesPath)
			s.typeWhileClaudeAsks(ty, 1, notesPath, s.diffArrived)
			if st := s.diffState(); st.DiffWindows != 0 {
				t.Errorf("after the user's keys: %+v; want the proposal waiting unseen", st)
			}
			if got := s.fileContent(path); got != original {
				t.Errorf("after the user typed and wrote their own file, %s holds %q: nothing may be accepted", path, got)
			}
			s.nv.Cmd("ClaudeDiffFocus")
			s.nextDiffOpened(path)
			s.nv.Cmd("write")
			s.nextDiffClosed("accepted")
			s.waitChat("Both done.")
			if got := s.fileContent(path); got != proposed {
				t.Errorf("after accepting, %s holds %q, want %q", path, got, proposed)
			}
			if _, err := os.Stat(made); err != nil {
				t.Errorf("after allowing the command: %v", err)
			}
			if got := s.fileContent(notesPath); got != ty.after[1] {
				t.Errorf("notes.txt holds %q, want what the user typed: %q", got, ty.after[1])
			}
		})
	}
}

// inputText returns the chat input's text and whether the cursor is in it.
func (s *session) inputText() (string, bool) {
	var st struct {
		Lines []string `msgpack:"lines"`
		Here  bool     `msgpack:"here"`
	}
	s.nv.Lua(&st, `
		local b = require('claude.chat').buffers().input
		return { lines = vim.api.nvim_buf_get_lines(b, 0, -1, false), here = vim.api.nvim_get_current_buf() == b }`)
	return strings.Join(st.Lines, "\n"), st.Here
}

// Issue 22 (2): the user types their next message while Claude asks. The permission request
// no longer pops up over the input (that lost the half-typed message, and the next Enter
// denied), and the review opens beside the chat, the keys staying in the input.
func TestTheChatInputKeepsWhatTheUserTypesWhileClaudeAsks(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	t.Cleanup(s.logTranscript)
	path := s.writeFile("greet.txt", original)
	s.api.Push(
		fakeapi.Use("Bash", map[string]any{"command": "touch made-by-bash.txt", "description": "Create a file"}),
		fakeapi.Read(path), fakeapi.Edit(path, "two", "TWO"), fakeapi.Say("Both done."),
	)
	// vim.ui.select as picker plugins have it: a window of its own that takes the focus
	// (Enter picks the line under the cursor). A prompt popping up on its own would take the
	// user's keys into it.
	s.nv.Lua(nil, `
		_G.popups = 0
		vim.ui.select = function(items, opts, on_choice)
			_G.popups = _G.popups + 1
			local buf = vim.api.nvim_create_buf(false, true)
			local lines = {}
			for i, it in ipairs(items) do lines[i] = opts.format_item and opts.format_item(it) or tostring(it) end
			vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
			local win = vim.api.nvim_open_win(buf, true, { relative = 'editor', row = 1, col = 1, width = 60, height = #lines })
			vim.keymap.set('n', '<CR>', function()
				local i = vim.fn.line('.')
				vim.api.nvim_win_close(win, true)
				on_choice(items[i], i)
			end, { buffer = buf })
		end`)
	s.openChat()
	s.chatSend("Create made-by-bash.txt, then make the second line of greet.txt louder")

	s.nv.Keys("iNext: ")
	s.waitChat("? Bash(touch made-by-bash.txt) asks for permission")
	s.nv.Keys("more<CR>words<Esc>")
	nvimtest.Wait(t, "the user's keys in the chat input", turnTimeout, func() bool {
		text, here := s.inputText()
		return text == "Next: more\nwords" && here
	})
	var popups int
	s.nv.Lua(&popups, `return _G.popups`)
	if tr := s.chatTranscript(); strings.Contains(tr, "allowed") || strings.Contains(tr, "denied") || popups != 0 {
		t.Errorf("%d prompts popped up; the transcript:\n%s\nwant none and the request unanswered", popups, tr)
	}
	s.nv.Cmd("ClaudeChatAnswer allow")
	s.waitChat("  ⎿  allowed: Allow once")

	s.nv.Keys("A and")
	s.nextDiffOpened(path) // beside: the input keeps the focus
	s.nv.Keys(" more<Esc>")
	nvimtest.Wait(t, "the user's keys in the chat input", turnTimeout, func() bool {
		text, here := s.inputText()
		return text == "Next: more\nwords and more" && here
	})
	if st := s.diffState(); st.DiffWindows != 2 || st.InProposal {
		t.Errorf("with the review open beside the input: %+v; want the diff shown, the cursor not in it", st)
	}
	s.nv.Cmd("ClaudeDiffFocus")
	s.nv.Cmd("write")
	s.nextDiffClosed("accepted")
	s.waitChat("Both done.")
	if got := s.fileContent(path); got != proposed {
		t.Errorf("after accepting, %s holds %q, want %q", path, got, proposed)
	}
}
