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
				t.Fatalf("after :ClaudeDiffFocus: %+v; want the cursor in the proposal", st)
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
