package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// setup()'s cli options (issue 38, item 4) as the real CLI gets them: its argv, read from
// /proc, and what they do to the requests the API stand-in sees.

// setupCLI runs setup() again with the session's configuration and cli (a Lua table).
func (s *session) setupCLI(cli string) {
	s.t.Helper()
	var problems []string
	s.nv.Lua(&problems, `
		local problems = {}
		local notify = vim.notify
		vim.notify = function(msg) table.insert(problems, msg) end
		local c = vim.deepcopy(require('claude').config())
		c.cli = assert(loadstring('return ' .. ...))()
		require('claude').setup(c)
		vim.notify = notify
		return problems`, cli)
	if len(problems) > 0 {
		s.t.Fatalf("setup() with cli = %s reported %q", cli, problems)
	}
}

// argv is a process's command line.
func argv(t *testing.T, pid int) []string {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil {
		t.Fatalf("read the CLI's command line: %v", err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
}

// assertFlags checks args holds each flag followed by its value ("" for none), and none of
// absent.
func assertFlags(t *testing.T, who string, args []string, want [][2]string, absent []string) {
	t.Helper()
	for _, w := range want {
		i := slices.Index(args, w[0])
		switch {
		case i < 0:
			t.Errorf("the %s's CLI was started without %s: %q", who, w[0], args)
		case w[1] != "" && (i+1 >= len(args) || args[i+1] != w[1]):
			t.Errorf("the %s's CLI got %s without the value %q: %q", who, w[0], w[1], args)
		}
	}
	for _, a := range absent {
		if slices.Contains(args, a) {
			t.Errorf("the %s's CLI got %s, which it must not: %q", who, a, args)
		}
	}
}

// resumingCLIOf is the chat CLI among hostPID's children that resumes a conversation, or 0.
func resumingCLIOf(hostPID int) int {
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(hostPID) + "/task/*/children")
	for _, task := range tasks {
		children, _ := os.ReadFile(task)
		for _, child := range strings.Fields(string(children)) {
			cmdline, _ := os.ReadFile("/proc/" + child + "/cmdline")
			if strings.Contains(string(cmdline), "\x00stream-json") && strings.Contains(string(cmdline), "\x00--resume\x00") {
				pid, _ := strconv.Atoi(child)
				return pid
			}
		}
	}
	return 0
}

const systemMarker = "Always end with the word MARMALADE."

func TestTheCLIOptionsReachTheTerminalsCLI(t *testing.T) {
	t.Parallel()
	s := newSession(t, fakeapi.Say("Hello from the terminal."))
	lib := filepath.Join(s.env.Project, "lib") // inside the trusted project: no trust question
	if err := os.MkdirAll(lib, 0o755); err != nil {
		t.Fatal(err)
	}
	s.setupCLI(`{
		append_system_prompt = "` + systemMarker + `",
		allowed_tools = { "Read", "Bash(git diff *)" },
		disallowed_tools = { "WebFetch" },
		setting_sources = { "user", "project", "local" },
		max_turns = 3, max_budget_usd = 2, no_session_persistence = true, fork_session = true,
		args = { "--add-dir", "` + lib + `" },
	}`)
	s.open()
	assertFlags(t, "terminal", argv(t, s.cliPID), [][2]string{
		{"--append-system-prompt", systemMarker},
		{"--allowedTools", "Read,Bash(git diff *)"},
		{"--disallowedTools", "WebFetch"},
		{"--setting-sources", "user,project,local"},
		{"--add-dir", lib},
	}, []string{"--max-turns", "--max-budget-usd", "--no-session-persistence", "--fork-session"})
	s.prompt("Say hello")
	if got := s.mainRequest(1).SystemText(); !strings.Contains(got, systemMarker) {
		t.Errorf("the model's system prompt does not end with the appended text %q:\n%s", systemMarker, tail(got))
	}
}

func TestTheCLIOptionsReachTheChatsCLIMaxTurnsStopsATurnAndNothingIsStored(t *testing.T) {
	t.Parallel()
	s := newSession(t, fakeapi.Read("notes.txt"), fakeapi.Say("This second model turn must never be asked for."))
	s.writeFile("notes.txt", "some notes\n")
	s.setupCLI(`{
		append_system_prompt = "` + systemMarker + `",
		allowed_tools = { "Read" },
		setting_sources = { "user", "project", "local" },
		max_turns = 1, max_budget_usd = 5, no_session_persistence = true,
	}`)
	t.Cleanup(s.logTranscript)
	s.openChat()
	assertFlags(t, "chat", argv(t, s.cliPID), [][2]string{
		{"--append-system-prompt", systemMarker},
		{"--allowedTools", "Read"},
		{"--setting-sources", "user,project,local"},
		{"--max-turns", "1"},
		{"--max-budget-usd", "5"},
		{"--no-session-persistence", ""},
	}, []string{"--fork-session"})
	s.chatSend("Read my notes")
	if got := s.chatRequest(1).SystemText(); !strings.Contains(got, systemMarker) {
		t.Errorf("the model's system prompt does not end with the appended text %q:\n%s", systemMarker, tail(got))
	}
	nvimtest.Wait(t, "the turn to end on its turn limit", turnTimeout, func() bool {
		return strings.Contains(s.chatTranscript(), "Reached maximum number of turns (1)")
	})
	if n := len(s.api.Main()); n != 1 {
		t.Errorf("the API got %d main requests, want 1: --max-turns 1 stops after the first", n)
	}
	if stored := s.conversations(); len(stored) != 0 {
		t.Errorf("the conversation was stored (%q) with --no-session-persistence", stored)
	}
}

func TestForkSessionResumesAChatConversationAsACopy(t *testing.T) {
	t.Parallel()
	s := newSession(t, fakeapi.Say("First answer."), fakeapi.Say("Answer in the copy."))
	t.Cleanup(s.logTranscript)
	s.setupCLI(`{ fork_session = true }`)
	s.openChat()
	if slices.Contains(argv(t, s.cliPID), "--fork-session") {
		t.Errorf("a new chat's CLI got --fork-session: %q", argv(t, s.cliPID))
	}
	s.chatSend("First prompt")
	s.waitChat("First answer.")
	s.turnDone(1)
	first := s.cliPID
	s.nv.Cmd("ClaudeChat new") // another conversation, so that last resumes the first
	// Read once its CLI has gone: 2.1.197 writes a running conversation to its file late.
	s.waitGone("the first conversation's CLI", first)
	original := s.conversationID("First prompt")
	s.nv.Cmd("ClaudeChat last")
	// The CLIs replaced may still be exiting beside it: the one resuming is the one.
	nvimtest.Wait(t, "a CLI resuming the conversation", turnTimeout, func() bool {
		s.cliPID = resumingCLIOf(s.hostPID)
		return s.cliPID != 0
	})
	assertFlags(t, "chat", argv(t, s.cliPID), [][2]string{{"--resume", original}, {"--fork-session", ""}}, nil)
	s.chatSend("Second prompt")
	s.waitChat("Answer in the copy.")
	s.turnDone(1)
	stored, err := os.ReadFile(s.storedFile(original))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(stored), "Second prompt") {
		t.Errorf("the resumed conversation %s was continued in place; want it left as it was", original)
	}
	if n := len(s.conversations()); n != 2 {
		t.Errorf("%d stored conversations, want 2: the original and its copy", n)
	}
}
