package e2e

import (
	"strconv"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// Per-hunk decisions in the before-write review (issue 24): the scripted model proposes one
// Edit that makes two hunks; the user takes the first back and accepts the rest. The file
// gets only the kept hunk, written by the CLI, and the model is told the user changed it.

const (
	fiveLines = "one\ntwo\nthree\nfour\nfive\n"
	// onlyKept is fiveLines with the Edit's second hunk (FOUR) and not its first (TWO).
	onlyKept = "one\ntwo\nthree\nFOUR\nfive\n"
)

// twoHunkEdit scripts the model: it reads path, proposes an Edit with two hunks (lines 2 and
// 4), and once it is decided says final.
func twoHunkEdit(s *session, path, final string) {
	s.api.Push(fakeapi.Read(path), fakeapi.Edit(path, "two\nthree\nfour", "TWO\nthree\nFOUR"), fakeapi.Say(final))
}

// takeBackTheFirstHunkAndAccept does what the user does in the proposal: the cursor to the
// first change (]c), take it back, accept the rest.
func (s *session) takeBackTheFirstHunkAndAccept() {
	s.t.Helper()
	s.nv.Keys(`gg]c\ab`)
	var st struct {
		Text   string `msgpack:"text"`
		Winbar string `msgpack:"winbar"`
	}
	s.nv.Lua(&st, `
		local w = vim.api.nvim_get_current_win()
		return {
			text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n") .. "\n",
			winbar = vim.api.nvim_eval_statusline(vim.wo[w].winbar, { winid = w, use_winbar = true }).str,
		}`)
	if st.Text != onlyKept {
		s.t.Errorf("after taking back the first hunk the proposal holds %q, want %q", st.Text, onlyKept)
	}
	// The count shows where the window is wide enough; narrower it goes first, the keys stay.
	counted := strings.Contains(st.Winbar, "2 hunks: 1 taken back, 1 open") || strings.Contains(st.Winbar, "1 hunk open")
	if !counted && (strings.Contains(st.Winbar, "hunk") || !strings.Contains(st.Winbar, ":w accept")) {
		s.t.Errorf("after taking back the first hunk the winbar shows %q, want 1 of 2 hunks taken back, or the keys alone", st.Winbar)
	}
	s.nv.Keys(`\aa`)
	s.nextDiffClosed("accepted")
}

func TestAHunkTakenBackInTheTerminalsDiffIsNotWritten(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	path := s.writeFile("poem.txt", fiveLines)
	twoHunkEdit(s, path, "Only the fourth line shouts now.")
	s.edit(path)
	s.open()
	s.prompt("Please make lines two and four of poem.txt louder")
	s.nextDiffOpened(path)
	s.goToTheProposal()

	s.takeBackTheFirstHunkAndAccept()
	// The tool result comes after the CLI wrote the file.
	result := s.editResult(3)
	t.Logf("tool result: %q", result)
	if !strings.Contains(result, "has been updated successfully") || !strings.Contains(result, "The user modified your proposed changes before accepting them") {
		t.Errorf("the model got the tool result %q, want it told that the user modified the proposal", result)
	}
	if got := s.fileContent(path); got != onlyKept {
		t.Errorf("after taking back one hunk and accepting, %s holds %q, want only the kept hunk: %q", path, got, onlyKept)
	}
	s.waitBuffer(path, onlyKept)
	s.assertNoDiff("after accepting")
	s.waitText("Only the fourth line shouts now.", turnTimeout)
}

func TestAHunkTakenBackInTheChatsEditReviewIsNotWritten(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	path := s.writeFile("poem.txt", fiveLines)
	twoHunkEdit(s, path, "Only the fourth line shouts now.")
	s.openChat() // in the default permission mode: the Edit asks
	s.nv.Keys("iPlease make lines two and four of poem.txt louder<Esc><CR>")
	s.nextDiffOpened(path)
	s.nv.Cmd("ClaudeDiffFocus")

	s.takeBackTheFirstHunkAndAccept()
	s.waitChat("  ⎿  accepted with your changes")
	s.waitChat("Only the fourth line shouts now.")
	if got := s.fileContent(path); got != onlyKept {
		t.Errorf("after taking back one hunk and accepting, %s holds %q, want only the kept hunk: %q", path, got, onlyKept)
	}
	result := s.editResult(3)
	t.Logf("tool result: %q", result)
	if !strings.Contains(result, "has been updated successfully") {
		t.Errorf("the model got the tool result %q, want the edit done", result)
	}
	told := "The user modified your proposed changes to " + strconv.Quote(path) + " before accepting them."
	if got := s.mainRequest(3).LastUserText(); !strings.Contains(got, told) {
		t.Errorf("with the tool result the model got %q, want it told %q", got, told)
	}
	if t.Failed() {
		t.Logf("transcript:\n%s", s.chatTranscript())
	}
}

// Every hunk taken back, then accepted: the terminal's CLI takes the file's own text as a
// rejection (its screen says "Rejected update", the turn stops), and the chat does the same
// (an Edit changing nothing would fail in the CLI: "String not found in file").
func TestEveryHunkTakenBackIsARejection(t *testing.T) {
	t.Run("in the terminal", func(t *testing.T) {
		t.Parallel()
		s := newSession(t)
		path := s.writeFile("poem.txt", fiveLines)
		twoHunkEdit(s, path, "Nothing changed then.")
		s.edit(path)
		s.open()
		s.prompt("Please make lines two and four of poem.txt louder")
		s.nextDiffOpened(path)
		s.goToTheProposal()
		s.nv.Keys(`gg]c\ab\ab\aa`)
		s.nextDiffClosed("accepted")
		s.waitRejected("poem.txt")
		s.waitScreen("the CLI to end the turn", turnTimeout, isReady)
		if n := len(s.api.Main()); n != 2 {
			t.Errorf("%d main requests after every hunk was taken back, want 2 (Read, Edit): the turn must stop", n)
		}
		if got := s.fileContent(path); got != fiveLines {
			t.Errorf("%s holds %q, want it unchanged", path, got)
		}
	})
	t.Run("in the chat", func(t *testing.T) {
		t.Parallel()
		s := newSession(t)
		t.Cleanup(s.logTranscript)
		path := s.writeFile("poem.txt", fiveLines)
		twoHunkEdit(s, path, "Nothing changed then.")
		s.openChat()
		s.nv.Keys("iPlease make lines two and four of poem.txt louder<Esc><CR>")
		s.nextDiffOpened(path)
		s.nv.Cmd("ClaudeDiffFocus")
		s.nv.Keys(`gg]c\ab\ab\aa`)
		s.nextDiffClosed("accepted")
		s.waitChat("  ⎿  every change taken back: rejected; the turn stops")
		nvimtest.Wait(t, "the turn to end", turnTimeout, func() bool {
			return strings.Contains(s.chatTranscript(), " tokens in, ")
		})
		if n := len(s.api.Main()); n != 2 || strings.Contains(s.chatTranscript(), "Nothing changed then.") {
			t.Errorf("the model was asked %d times (want 2: the Read, the Edit) and the turn went on: %v",
				n, strings.Contains(s.chatTranscript(), "Nothing changed then."))
		}
		if got := s.fileContent(path); got != fiveLines {
			t.Errorf("%s holds %q, want it unchanged", path, got)
		}
	})
}

// Take back and tell Claude why, before the write (issue 36): the key that takes a hunk back
// asks why, and the reason reaches the model with the edit's result, beside the CLI's own
// "the user modified your proposed changes" (the CLI's tool result has no room for it: a
// PostToolUse hook's additionalContext carries it).
func TestAHunkTakenBackWithAReasonTellsTheModelWhy(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	path := s.writeFile("poem.txt", fiveLines)
	twoHunkEdit(s, path, "Only the fourth line shouts now.")
	s.edit(path)
	s.open()
	s.prompt("Please make lines two and four of poem.txt louder")
	s.nextDiffOpened(path)
	s.goToTheProposal()

	const reason = "line two is a whisper in the poem"
	s.nv.Keys(`gg]c\aw`)
	s.nv.Keys(reason + "<CR>")
	s.nv.Keys(`\aa`)
	s.nextDiffClosed("accepted")
	req := s.mainRequest(3)
	told := req.LastUserText()
	t.Logf("with the tool result the model got: %q", told)
	if !strings.Contains(told, "The user modified your proposed changes before accepting them") {
		t.Errorf("the model got %q, want the CLI's word that the user modified the proposal", told)
	}
	for _, want := range []string{reason, "took back part of your proposed change to " + strconv.Quote(path), `you proposed "TWO", the file keeps "two"`} {
		if !strings.Contains(told, want) {
			t.Errorf("with the tool result the model got %q, want it to hold %q", told, want)
		}
	}
	if got := s.fileContent(path); got != onlyKept {
		t.Errorf("%s holds %q, want only the kept hunk: %q", path, got, onlyKept)
	}
	s.waitText("Only the fourth line shouts now.", turnTimeout)
}

// The same in the chat's review, the reason given as :Claude review take-back's argument: it goes
// with the chat's own word that the user modified the proposal.
func TestAHunkTakenBackWithAReasonInTheChatTellsTheModelWhy(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	path := s.writeFile("poem.txt", fiveLines)
	twoHunkEdit(s, path, "Only the fourth line shouts now.")
	s.openChat()
	s.nv.Keys("iPlease make lines two and four of poem.txt louder<Esc><CR>")
	s.nextDiffOpened(path)
	s.nv.Cmd("ClaudeDiffFocus")
	const reason = "line two is a whisper in the poem"
	s.nv.Keys(`gg]c`)
	s.nv.Cmd("ClaudeDiffTakeBack " + reason)
	s.nv.Keys(`\aa`)
	s.waitChat("  ⎿  accepted with your changes")
	s.waitChat("Only the fourth line shouts now.") // the chat has no terminal for mainRequest to watch
	told := s.mainRequest(3).LastUserText()
	for _, want := range []string{"The user modified your proposed changes to " + strconv.Quote(path), reason, `you proposed "TWO", the file keeps "two"`} {
		if !strings.Contains(told, want) {
			t.Errorf("with the tool result the model got %q, want it to hold %q", told, want)
		}
	}
	if got := s.fileContent(path); got != onlyKept {
		t.Errorf("%s holds %q, want only the kept hunk: %q", path, got, onlyKept)
	}
}
