package e2e

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The change ledger (:Claude changes) with the real CLI: a turn written without any review
// (auto, acceptEdits) edits two files with Edit and a third with a shell command; the hooks
// record it; the user reverts one hunk (their own later edit to that file survives) and one
// file; the next prompt tells the model what was undone.

const (
	ledgerA = "a1\na2\na3\na4\na5\na6\na7\na8\n"
	ledgerB = "b1\nb2\n"
	ledgerC = "c1\n"
)

// ledgerRepo makes the project a git repository holding a.txt, b.txt and c.txt.
func (s *session) ledgerRepo() {
	s.t.Helper()
	s.writeFile("a.txt", ledgerA)
	s.writeFile("b.txt", ledgerB)
	s.writeFile("c.txt", ledgerC)
	for _, args := range [][]string{{"init", "-q"}, {"add", "a.txt", "b.txt", "c.txt"}, {"commit", "-qm", "base"}} {
		cmd := exec.Command("git", append([]string{"-c", "user.name=U", "-c", "user.email=u@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = s.env.Project
		if out, err := cmd.CombinedOutput(); err != nil {
			s.t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// ledgerTurn is the model's side of the turn: two Edits of a.txt (two hunks), one of
// b.txt, a shell command that rewrites c.txt, then closing.
func (s *session) ledgerTurn(closing string) []fakeapi.Turn {
	a, b := filepath.Join(s.env.Project, "a.txt"), filepath.Join(s.env.Project, "b.txt")
	return []fakeapi.Turn{
		fakeapi.Read(a),
		fakeapi.Edit(a, "a2", "A2"),
		fakeapi.Edit(a, "a7", "A7"),
		fakeapi.Read(b),
		fakeapi.Edit(b, "b2", "b2\nb3"),
		fakeapi.Use("Bash", map[string]any{"command": "sed -i s/c1/C1/ c.txt", "description": "Upper-case c.txt"}),
		fakeapi.Say(closing),
	}
}

// changesRequest runs lua (a user's action in :Claude changes) and waits for the host's
// answer to op.
func (s *session) changesRequest(op, lua string) {
	s.t.Helper()
	replies := s.nv.UserEvents("ClaudeChanges")
	s.nv.Lua(nil, lua)
	for {
		data := nvimtest.Next(s.t, replies, "the host's answer to "+op, turnTimeout)
		if data["op"] == op {
			if e, _ := data["error"].(string); e != "" {
				s.t.Fatalf("%s: %s", op, e)
			}
			return
		}
	}
}

func (s *session) currentLines() string {
	var lines []string
	s.nv.Lua(&lines, `return vim.api.nvim_buf_get_lines(0, 0, -1, false)`)
	return strings.Join(lines, "\n")
}

func (s *session) cursorToLineWith(text string) {
	s.t.Helper()
	var ok bool
	s.nv.Lua(&ok, `local text = ...
		for i, l in ipairs(vim.api.nvim_buf_get_lines(0, 0, -1, false)) do
			if l:find(text, 1, true) then vim.api.nvim_win_set_cursor(0, { i, 0 }) return true end
		end
		return false`, text)
	if !ok {
		s.t.Fatalf("no line with %q in:\n%s", text, s.currentLines())
	}
}

// reviewAndRevert is the user's part once the turn is recorded: the list, one hunk of a.txt
// reverted in the diff after the user's own edit to a.txt, b.txt reverted from the list.
func (s *session) reviewAndRevert() {
	s.t.Helper()
	t := s.t
	s.changesRequest("list", `vim.cmd('ClaudeChanges')`)
	list := s.currentLines()
	for _, want := range []string{"M a.txt  +2 -2", "M b.txt  +1 -0", "M c.txt  +1 -1"} {
		if !strings.Contains(list, want) {
			t.Errorf(":Claude changes has no %q:\n%s", want, list)
		}
	}
	// The user's own edit to a.txt, after Claude's, away from its hunks.
	s.writeFile("a.txt", strings.Replace(s.fileContent(filepath.Join(s.env.Project, "a.txt")), "a4", "a4 mine", 1))
	s.cursorToLineWith("a.txt")
	s.changesRequest("open", `vim.api.nvim_feedkeys(vim.keycode('<CR>'), 'x', false)`)
	s.nv.Lua(nil, `vim.api.nvim_win_set_cursor(0, { 7, 0 })`)
	s.changesRequest("revert_hunk", `vim.api.nvim_feedkeys(vim.keycode('\\ar'), 'x', false)`)
	if got, want := s.fileContent(filepath.Join(s.env.Project, "a.txt")), "a1\nA2\na3\na4 mine\na5\na6\na7\na8\n"; got != want {
		t.Errorf("a.txt = %q after reverting its second hunk, want %q", got, want)
	}
	s.nv.Cmd("tabclose")
	s.nv.Cmd("ClaudeChanges")
	s.cursorToLineWith("b.txt")
	s.changesRequest("revert_file", `vim.api.nvim_feedkeys('X', 'x', false)`)
	if got := s.fileContent(filepath.Join(s.env.Project, "b.txt")); got != ledgerB {
		t.Errorf("b.txt = %q after reverting it, want %q", got, ledgerB)
	}
	if got := s.fileContent(filepath.Join(s.env.Project, "c.txt")); got != "C1\n" {
		t.Errorf("c.txt = %q, want the shell command's change kept", got)
	}
}

// assertNoteHeard checks the model's newest request carries the revert note.
func (s *session) assertNoteHeard(req fakeapi.Request) {
	s.t.Helper()
	got := req.LastUserText()
	for _, want := range []string{"reverted", `"a.txt" line 7`, `all changes to "b.txt"`} {
		if !strings.Contains(got, want) {
			s.t.Errorf("the next prompt's request lacks %q; its user text:\n%s", want, tail(got))
		}
	}
}

func TestATerminalTurnWrittenUnreviewedIsRecordedRevertedAndTheModelHearsOfIt(t *testing.T) {
	for _, mode := range []string{"auto", "acceptEdits"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			s := newSession(t)
			s.ledgerRepo()
			s.api.Push(s.ledgerTurn("Turn over.")...)
			s.withPermissionMode(mode)
			signs := s.nv.UserEvents("ClaudeChangeSigns")
			s.open()
			s.prompt("Change the three files")
			s.waitScreen("the turn to end", turnTimeout, func(screen string) bool {
				if strings.Contains(screen, "Do you want") { // a mode that asks for the shell command
					t.Logf("%s mode asks before the shell command; allowing it", mode)
					_, _ = s.nv.Input("<CR>")
				}
				return strings.Contains(screen, "Turn over.")
			})
			nvimtest.Next(t, signs, "the signs pushed when the turn ended (its Stop hook)", turnTimeout)
			s.nv.Keys(`<C-\><C-n>`)
			s.nv.Cmd("wincmd p")
			s.reviewAndRevert()
			s.api.Push(fakeapi.Say("Heard you."))
			n := len(s.api.Main())
			s.prompt("Carry on")
			s.waitText("Heard you.", turnTimeout)
			s.assertNoteHeard(s.mainRequest(n + 1))
		})
	}
}

func TestAChatTurnInAcceptEditsIsRecordedRevertedAndTheModelHearsOfIt(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	t.Cleanup(s.logTranscript)
	s.ledgerRepo()
	s.api.Push(s.ledgerTurn("Chat turn over.")...)
	s.answerPermissions("Allow once", "")
	signs := s.nv.UserEvents("ClaudeChangeSigns")
	s.openChat()
	s.nv.Cmd("ClaudeChatMode acceptEdits")
	s.waitChat("_Mode: acceptEdits_")
	s.chatSend("Change the three files")
	nvimtest.Wait(t, "the chat's turn to end", turnTimeout, func() bool {
		transcript := s.chatTranscript()
		if strings.Contains(transcript, "asks for permission") && !strings.Contains(transcript, "allowed: Allow once") {
			t.Logf("acceptEdits asks before the shell command in the chat; allowing it")
			s.nv.Cmd("ClaudeChatAnswer") // the shell command, in a mode that asks for it
		}
		return strings.Contains(transcript, "Chat turn over.")
	})
	nvimtest.Next(t, signs, "the signs pushed when the chat's turn ended", turnTimeout)
	s.nv.Cmd("tabnew")
	s.reviewAndRevert()
	s.nv.Cmd("tabclose") // back to the chat's tab page
	s.api.Push(fakeapi.Say("Heard you in the chat."))
	n := len(s.api.Main())
	s.chatSend("Carry on")
	s.waitChat("Heard you in the chat.")
	s.assertNoteHeard(s.chatRequest(n + 1))
}
