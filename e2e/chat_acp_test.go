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

// The chat on an ACP agent: the real claude-agent-acp ($CLAUDE_ACP_AGENT) running the CLI
// under test against the API stand-in, configured as chat.agents entries.

// acpSession is a session whose setup names claude-agent-acp as the agents names (each an
// entry of its own, with the same command).
func acpSession(t *testing.T, names []string, script ...fakeapi.Turn) *session {
	t.Helper()
	agent := os.Getenv("CLAUDE_ACP_AGENT")
	if agent == "" {
		t.Skip("CLAUDE_ACP_AGENT is not set: run `make e2e` (it installs claude-agent-acp)")
	}
	t.Parallel()
	s := newSession(t, script...)
	t.Cleanup(s.logTranscript)
	s.nv.Lua(nil, `
		local agent, cli, log, names = ...
		local agents = {}
		for _, n in ipairs(names) do
			agents[n] = { command = agent, env = { CLAUDE_CODE_EXECUTABLE = cli } }
		end
		require('claude').setup({
			terminal_cmd = { cli },
			log = { level = 'debug', file = log },
			chat = { agents = agents },
		})`, agent, clienv.Bin(t), s.logFile, names)
	return s
}

// chatWinbar is the chat transcript's status text (its winbar's variable).
func (s *session) chatWinbar() string {
	var text string
	s.nv.Lua(&text, `local b = require('claude.chat').buffers()
		return b and vim.b[b.transcript].claude_chat_status or ''`)
	return text
}

func TestAnACPAgentsChatStreamsTheAnswer(t *testing.T) {
	const answer = "Hello from the stand-in, through an ACP agent."
	s := acpSession(t, []string{"acpclaude"}, fakeapi.Stream(answer, 8, 0))
	s.nv.Cmd("ClaudeChat acpclaude")
	s.chatSend("Please greet the chat")
	s.waitChat(answer)
	nvimtest.Wait(t, "the winbar to name the agent", turnTimeout, func() bool {
		return strings.Contains(s.chatWinbar(), "acpclaude chat (ACP)")
	})
	if got := s.mainRequest(1).LastUserText(); !strings.Contains(got, "Please greet the chat") {
		t.Errorf("the model got %q, want the prompt", got)
	}
}

func TestAnACPAgentsPermissionsAreTheChatsOwn(t *testing.T) {
	s := acpSession(t, []string{"acpclaude"})
	s.ledgerRepo()
	a, fresh := filepath.Join(s.env.Project, "a.txt"), filepath.Join(s.env.Project, "new.txt")
	s.api.Push(fakeapi.Read(a), fakeapi.Edit(a, "a2", "A2"), fakeapi.Use("Bash", map[string]any{"command": "echo fresh > new.txt", "description": "write new.txt"}), fakeapi.Say("Done editing."))
	s.nv.Cmd("ClaudeChat acpclaude")
	s.chatSend("Edit a.txt and write new.txt")
	// The Edit opens in the diff review (chat_acp_review_test.go); accepted whole.
	s.nextDiffOpened(a)
	if got := s.fileContent(a); got != ledgerA {
		t.Fatalf("a.txt before the answer = %q; want it untouched", got)
	}
	s.nv.Cmd("ClaudeDiffFocus")
	s.nv.Keys(`\aa`)
	s.waitChat("  ⎿  accepted")
	nvimtest.Wait(t, "the Bash's permission line", turnTimeout, func() bool {
		return strings.Contains(s.chatTranscript(), "? Bash(") && strings.Contains(s.chatTranscript(), "asks for permission")
	})
	// The chat's plain deny stops the turn, as it does Claude's: session/cancel, then the
	// request answered "cancelled" (a refusal alone does not stop an ACP turn).
	s.nv.Cmd("ClaudeChatAnswer deny")
	s.waitChat("  ⎿  denied; the turn stops")
	nvimtest.Wait(t, "the turn to end", turnTimeout, func() bool {
		return strings.Contains(s.chatTranscript(), " tokens in, ")
	})
	// Whether the model's "Done editing." shows is the agent's race, not ours: the chat
	// sends session/cancel before it answers the request "cancelled", but claude-agent-acp
	// 0.101.0 may hand the refusal to its CLI before the interrupt lands, and the stand-in
	// answers that last request at once (seen once in eight runs). What the user relies on
	// is checked: the turn ends, the command never runs, nothing after it is asked.
	if n := strings.Count(s.chatTranscript(), "asks for permission"); n != 1 {
		t.Errorf("%d permission requests after a plain deny, want the one denied", n)
	}
	if got, want := s.fileContent(a), strings.Replace(ledgerA, "a2", "A2", 1); got != want {
		t.Errorf("a.txt after the Edit was allowed = %q, want %q", got, want)
	}
	if _, err := os.Stat(fresh); err == nil {
		t.Errorf("new.txt exists after the command writing it was denied")
	}
	// The turn is in the ledger, and reverted from it.
	s.changesRequest("list", `vim.cmd('ClaudeChanges')`)
	if list := s.currentLines(); !strings.Contains(list, "M a.txt  +1 -1") {
		t.Fatalf(":Claude changes has no a.txt:\n%s", list)
	}
	s.cursorToLineWith("M a.txt") // not the turn's line: its prompt names a.txt too
	s.changesRequest("revert_file", `vim.api.nvim_feedkeys('X', 'x', false)`)
	if got := s.fileContent(a); got != ledgerA {
		t.Errorf("a.txt after reverting the ACP turn = %q, want %q", got, ledgerA)
	}
}

func TestAnACPAgentsTurnInterruptedStopsAndTheNextTurnWorks(t *testing.T) {
	words := strings.Repeat("streaming slowly ", 200)
	s := acpSession(t, []string{"acpclaude"}, fakeapi.Stream("BEGIN "+words+"END", 16, 50e6), fakeapi.Say("Back after the interruption."))
	s.nv.Cmd("ClaudeChat acpclaude")
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
	if strings.Contains(s.chatTranscript(), "END") {
		t.Errorf("the whole answer was streamed despite the interrupt")
	}
	s.chatSend("Go on")
	s.waitChat("Back after the interruption.")
}

// chatSendIn sends text in the chat named key (a folder, or "DIR//AGENT").
func (s *session) chatSendIn(key, text string) {
	s.t.Helper()
	s.nv.Lua(nil, `
		local b = require('claude.chat').buffers(...)
		vim.api.nvim_set_current_win(vim.fn.bufwinid(b.input))`, key)
	s.chatSend(text)
}

// transcriptOf is the transcript of the chat named key.
func (s *session) transcriptOf(key string) string {
	var lines []string
	s.nv.Lua(&lines, `local b = require('claude.chat').buffers(...)
		return b and vim.api.nvim_buf_get_lines(b.transcript, 0, -1, false) or {}`, key)
	return strings.Join(lines, "\n")
}

func TestTwoAgentsChatsRunSideBySideInOneFolder(t *testing.T) {
	s := acpSession(t, []string{"first", "second"}, fakeapi.Say("Answer one."), fakeapi.Say("Answer two."), fakeapi.Say("Answer three."))
	one, two := s.env.Project+"//first", s.env.Project+"//second"
	s.nv.Cmd("ClaudeChat first")
	s.chatSendIn(one, "Question one")
	s.waitChat("Answer one.")
	s.nv.Cmd("ClaudeChat second")
	s.chatSendIn(two, "Question two")
	s.waitChat("Answer two.")
	// The first agent still runs its chat, and its conversation goes on.
	s.chatSendIn(one, "Question three")
	nvimtest.Wait(t, "the first chat's second answer", turnTimeout, func() bool {
		return strings.Contains(s.transcriptOf(one), "Answer three.")
	})
	if got := s.transcriptOf(two); strings.Contains(got, "Answer one.") || strings.Contains(got, "Answer three.") {
		t.Errorf("the second agent's chat shows the first's answers:\n%s", got)
	}
	reqs := s.api.Main()
	if last := reqs[len(reqs)-1].UserText(); !strings.Contains(last, "Question one") || strings.Contains(last, "Question two") {
		t.Errorf("the first agent's second turn does not continue its own conversation: %q", last)
	}
}

// The editor's tools reach an ACP agent: its session is offered the host's MCP endpoint
// (the one the Claude chat gets through --mcp-config), whose getDiagnostics answers from
// the editor.
func TestAnACPAgentCallsTheEditorsTools(t *testing.T) {
	const message = "e2e: greeting is never used"
	s := acpSession(t, []string{"acpclaude"})
	path := s.writeFile("greet.txt", original)
	s.api.Push(
		fakeapi.Use("mcp__nvim__getDiagnostics", map[string]any{"uri": "file://" + path}),
		fakeapi.Say("One warning in greet.txt."),
	)
	s.edit(path)
	s.nv.Lua(nil, `
		local ns = vim.api.nvim_create_namespace('e2e')
		vim.diagnostic.set(ns, 0, { { lnum = 1, col = 0, message = ..., severity = vim.diagnostic.severity.WARN } })`, message)
	s.nv.Cmd("ClaudeChat acpclaude")
	s.chatSend("What does the editor say about greet.txt?")
	nvimtest.Wait(t, "the answer or a permission line", turnTimeout, func() bool {
		got := s.chatTranscript()
		return strings.Contains(got, "One warning in greet.txt.") || strings.Contains(got, "asks for permission")
	})
	if strings.Contains(s.chatTranscript(), "asks for permission") {
		// The agent's mode asks before any MCP tool: the user allows it, as in any chat.
		s.nv.Cmd("ClaudeChatAnswer allow")
	}
	s.waitChat("One warning in greet.txt.")
	s.assertToolAnswered("mcp__nvim__getDiagnostics", message)
}
