package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The chat's permissions with the real CLI: edits reviewed in the diff, other tools waiting in
// the transcript until the user opens the answers (vim.ui.select), and the permission mode.

// startChatEdit opens a chat on greet.txt and sends a prompt the script answers with a Read,
// an Edit of "two" into "TWO" and then closing; it returns once the diff is open and the
// cursor is in the proposal.
func startChatEdit(t *testing.T, closing string) (*session, string) {
	t.Helper()
	s := newSession(t)
	t.Cleanup(s.logTranscript)
	path := s.writeFile("greet.txt", original)
	s.api.Push(fakeapi.Read(path), fakeapi.Edit(path, "two", "TWO"), fakeapi.Say(closing))
	s.openChat()
	s.chatSend("Please make the second line of greet.txt louder")
	s.nextDiffOpened(path)
	s.waitChat("? Edit(greet.txt): review the proposed change in the diff")
	s.nv.Cmd("ClaudeDiffFocus")
	return s, path
}

func TestAChatEditAcceptedUnchangedIsWrittenByTheCLI(t *testing.T) {
	t.Parallel()
	s, path := startChatEdit(t, "The second line is louder now.")
	s.nv.Cmd("ClaudeDiffAccept")
	s.nextDiffClosed("accepted")
	s.waitChat("  ⎿  accepted")
	s.waitChat("The second line is louder now.")
	if result := s.editResult(3); !strings.Contains(result, "The file "+path+" has been updated successfully.") || strings.Contains(result, "modified") {
		t.Errorf("the model got the tool result %q, want the edit done as proposed", result)
	}
	if got := s.fileContent(path); got != proposed {
		t.Errorf("after accepting the proposal unchanged, %s holds %q, want %q", path, got, proposed)
	}
}

// Rejecting stops the turn, as the terminal's "No" does: the model hears of it with the
// user's next message, in the CLI's words.
func TestAChatEditRejectedLeavesTheFileAndStopsTheTurn(t *testing.T) {
	t.Parallel()
	s, path := startChatEdit(t, "Understood, I left it alone.")
	s.nv.Cmd("ClaudeDiffReject")
	s.nextDiffClosed("rejected")
	s.waitChat("  ⎿  rejected; the turn stops")
	nvimtest.Wait(t, "the turn to end", turnTimeout, func() bool {
		return strings.Contains(s.chatTranscript(), " tokens in, ")
	})
	if n := len(s.api.Main()); n != 2 || strings.Contains(s.chatTranscript(), "Understood, I left it alone.") {
		t.Errorf("after rejecting, the model was asked %d times (want 2: the Read, the Edit) and the turn went on: %v",
			n, strings.Contains(s.chatTranscript(), "Understood"))
	}
	if got := s.fileContent(path); got != original {
		t.Errorf("after rejecting the proposal, %s holds %q, want it untouched: %q", path, got, original)
	}
	s.chatSend("Leave it")
	s.waitChat("Understood, I left it alone.")
	if result := s.editResult(3); !strings.Contains(result, "The tool use was rejected") {
		t.Errorf("the model got the tool result %q, want the CLI's rejection", result)
	}
}

// bashTurns is a script that runs command with Bash, then says closing.
func bashTurns(command, closing string) []fakeapi.Turn {
	return []fakeapi.Turn{
		fakeapi.Use("Bash", map[string]any{"command": command, "description": "Create a file"}),
		fakeapi.Say(closing),
	}
}

func TestAChatBashCommandAllowedOnceRuns(t *testing.T) {
	t.Parallel()
	s := newSession(t, bashTurns("touch made-by-bash.txt", "The file is there.")...)
	t.Cleanup(s.logTranscript)
	s.answerPermissions("Allow once", "")
	s.openChat()
	s.chatSend("Create made-by-bash.txt")
	s.waitChat("? Bash(touch made-by-bash.txt) asks for permission")
	s.goToTranscript()
	s.nv.Keys("<CR>") // Enter in the transcript opens the answers
	s.waitChat("  ⎿  allowed: Allow once")
	s.waitChat("The file is there.")
	if asked := s.asked(); len(asked) != 1 || asked[0] != "Claude wants to use Bash: touch made-by-bash.txt" {
		t.Errorf("the user was asked %q, want one prompt showing the exact command", asked)
	}
	if _, err := os.Stat(filepath.Join(s.env.Project, "made-by-bash.txt")); err != nil {
		t.Errorf("after allowing the command once: %v", err)
	}
	if r := s.chatRequest(2).ToolResults(); len(r) != 1 || r[0].IsError {
		t.Errorf("the model got the tool results %+v, want one that is not an error", r)
	}
}

func TestAChatBashCommandDeniedWithAReasonDoesNotRun(t *testing.T) {
	t.Parallel()
	const reason = "not in this directory, please"
	s := newSession(t, bashTurns("touch made-by-bash.txt", "I will not create it.")...)
	t.Cleanup(s.logTranscript)
	s.answerPermissions("Deny, and tell Claude why", reason)
	s.openChat()
	s.chatSend("Create made-by-bash.txt")
	s.waitChat("? Bash(touch made-by-bash.txt) asks for permission")
	s.nv.Cmd("ClaudeChatAnswer")
	s.waitChat("  ⎿  denied: " + reason)
	s.waitChat("I will not create it.")
	if _, err := os.Stat(filepath.Join(s.env.Project, "made-by-bash.txt")); err == nil {
		t.Errorf("the denied command ran: made-by-bash.txt exists")
	}
	r := s.chatRequest(2).ToolResults()
	if len(r) != 1 || !r[0].IsError || !strings.Contains(strings.Join(r[0].Texts(), "\n"), reason) {
		t.Errorf("the model got the tool results %+v, want one error carrying the reason %q", r, reason)
	}
}

func TestAChatModeSwitchToAcceptEditsWritesEditsWithoutAReview(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	t.Cleanup(s.logTranscript)
	path := s.writeFile("greet.txt", original)
	s.api.Push(fakeapi.Read(path), fakeapi.Edit(path, "two", "TWO"), fakeapi.Say("Done, without asking."))
	s.openChat()
	s.nv.Cmd("ClaudeChatMode acceptEdits")
	s.waitChat("_Mode: acceptEdits_")
	var status string
	s.nv.Lua(&status, `return vim.b[require('claude.chat').buffers().transcript].claude_chat_status`)
	if !strings.Contains(status, "acceptEdits") {
		t.Errorf("the chat's winbar says %q, want the mode acceptEdits", status)
	}
	s.chatSend("Please make the second line of greet.txt louder")
	s.waitChat("Done, without asking.")
	if strings.Contains(s.chatTranscript(), "review the proposed change") {
		t.Errorf("in acceptEdits mode the edit was still sent to review")
	}
	s.assertNoDiff("after an edit in acceptEdits mode")
	if got := s.fileContent(path); got != proposed {
		t.Errorf("after an edit in acceptEdits mode, %s holds %q, want %q", path, got, proposed)
	}
}

func TestAChatTurnInterruptedMidStreamStopsAndTheNextTurnWorks(t *testing.T) {
	t.Parallel()
	words := strings.Repeat("streaming slowly ", 200)
	s := newSession(t, fakeapi.Stream("BEGIN "+words+"END", 16, 50e6), fakeapi.Say("Back after the interruption."))
	t.Cleanup(s.logTranscript)
	s.openChat()
	s.chatSend("Tell me a long story")
	nvimtest.Wait(t, "the answer to start streaming", turnTimeout, func() bool {
		return strings.Contains(s.chatTranscript(), "BEGIN streaming")
	})
	s.nv.Keys("<C-c>") // in the chat's input
	s.waitChat("_[Request interrupted by user]_")
	nvimtest.Wait(t, "the turn to end", turnTimeout, func() bool {
		_, after, _ := strings.Cut(s.chatTranscript(), "_[Request interrupted by user]_")
		return strings.Contains(after, " tokens in, ")
	})
	// The result's errors hold only the CLI's "[ede_diagnostic] result_type=user …" line
	// and its subtype is no news: the interruption note above says it all (issue 22.4).
	for _, bad := range []string{"[ede_diagnostic]", "**Error:**"} {
		if got := s.chatTranscript(); strings.Contains(got, bad) {
			t.Errorf("the interrupted turn shows %q:\n%s", bad, got)
		}
	}
	if strings.Contains(s.chatTranscript(), "END") {
		t.Errorf("the whole answer was streamed despite the interrupt")
	}
	s.chatSend("Go on")
	s.waitChat("Back after the interruption.")
	if got := s.chatRequest(2).UserText(); !strings.Contains(got, "[Request interrupted by user]") {
		t.Errorf("the model's next request has %q, want the interruption noted", got)
	}
}
