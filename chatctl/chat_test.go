package chatctl_test

import (
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

func TestClaudeChatStreamsAnAnswerIntoTheTranscript(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Cmd("ClaudeChat")
	var info map[string]any
	e.nv.Lua(&info, `
		local b = require('claude.chat').buffers()
		return { name = vim.api.nvim_buf_get_name(b.transcript), ft = vim.bo[b.transcript].filetype,
			bt = vim.bo[b.transcript].buftype, current = vim.api.nvim_get_current_buf() == b.input }`)
	if info["name"] != "claude-chat://"+e.nv.Cwd || info["ft"] != "markdown" || info["bt"] != "nofile" || info["current"] != true {
		t.Errorf("after :ClaudeChat the transcript is %v; want claude-chat://%s, markdown, nofile, and the input current", info, e.nv.Cwd)
	}

	// Typed as a user does: Insert mode, then the documented Insert-mode key.
	e.nv.Keys("isay stream<C-s>")
	e.waitTranscript("> say stream", "Hello from the stand-in.", "─── 1.5 s · 10 tokens in, 5 out · $0.0123 (this run)")
	e.recorded(`"text":"say stream"`)
	var input []string
	e.nv.Lua(&input, `return vim.api.nvim_buf_get_lines(require('claude.chat').buffers().input, 0, -1, false)`)
	if len(input) != 1 || input[0] != "" {
		t.Errorf("input after sending = %q, want it cleared", input)
	}

	// Closing its windows keeps the chat; :ClaudeChat shows the same conversation.
	e.nv.Cmd("only")
	e.nv.Cmd("enew")
	e.nv.Cmd("ClaudeChat")
	if got := e.transcript(); !strings.Contains(got, "Hello from the stand-in.") {
		t.Errorf("transcript after reopening =\n%s\nwant the earlier answer", got)
	}
	e.prompt("stream again")
	e.waitTranscript("> stream again")
	nvimtest.Wait(t, "a second answer", waitTimeout, func() bool {
		return strings.Count(e.transcript(), "Hello from the stand-in.") == 2
	})
	if got := e.recorded(`stream again`); strings.Count(got, `"type":"user"`) != 2 {
		t.Errorf("the CLI read\n%s\nwant two turns on one process", got)
	}
}

func TestClaudeChatInterruptAndCtrlCStopTheTurn(t *testing.T) {
	for _, how := range []string{"<C-c>", "<C-c> while Neovim is busy", ":Claude chat interrupt"} {
		t.Run(how, func(t *testing.T) {
			e := newChatEnv(t)
			e.nv.Cmd("ClaudeChat")
			e.prompt("be slow")
			e.waitTranscript("Working")
			switch how {
			case "<C-c>":
				e.nv.Keys("<C-c>")
			case "<C-c> while Neovim is busy":
				// Typed while Neovim runs Lua (a streamed answer's render):
				// Neovim takes it as an interrupt of that work and hands the
				// key on raw, past the chat's <C-c> maps.
				e.nv.Lua(nil, `vim.api.nvim_input('<C-c>')`)
			default:
				e.nv.Cmd("ClaudeChatInterrupt")
			}
			e.recorded(`"subtype":"interrupt"`)
			e.waitTranscript("_[Request interrupted by user]_")
			nvimtest.Wait(t, "the turn to end", waitTimeout, func() bool {
				return strings.Contains(e.transcript(), " tokens in, ")
			})
			// The interruption note says it all: no error line, no diagnostics line.
			if got := e.transcript(); strings.Contains(got, "**Error:**") || strings.Contains(got, "ede_diagnostic") {
				t.Errorf("an interrupted turn shows an error:\n%s", got)
			}
		})
	}
}

func TestAChatCLIThatExitsMidTurnLeavesTheTranscriptAndItsCode(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Cmd("ClaudeChat")
	e.prompt("crash now")
	e.waitTranscript("half an answer", "**Claude exited mid-turn (code 3).** Send again to resume the conversation.")
	// The next turn starts a CLI again, resuming the conversation.
	e.prompt("stream after the crash")
	e.waitTranscript("Hello from the stand-in.")
	e.recorded(`stream after the crash`)
}

func TestClaudeChatStopEndsTheCLI(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Cmd("ClaudeChat")
	e.prompt("stream")
	e.waitTranscript("Hello from the stand-in.")
	e.nv.Cmd("ClaudeChatStop")
	e.waitTranscript("_Claude exited (code 0)._")
}

func TestClaudeChatWithoutTheCLISaysSoAsClaudeOpenDoes(t *testing.T) {
	e := newEnv(t)
	e.nv.Lua(nil, `require('claude').setup({ terminal_cmd = { 'no-such-claude' } })`)
	got := commandMessages(t, e.nv, "ClaudeChat")
	if !strings.Contains(got, "no-such-claude is not an executable on PATH. Install the Claude Code CLI") {
		t.Errorf(":ClaudeChat said %q; want the not-on-PATH message of :Claude open", got)
	}
	var open bool
	e.nv.Lua(&open, `return require('claude.chat').buffers() ~= nil`)
	if open {
		t.Error(":ClaudeChat without the CLI opened a chat")
	}
}

// A host that exits with Neovim takes its chats' CLIs with it, mid-turn or not.
func TestAnExitingHostEndsItsChatsCLIs(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Cmd("ClaudeChat")
	e.prompt("slow")
	e.waitTranscript("Working")
	var pids []int
	for _, l := range strings.Split(e.recorded("PID "), "\n") {
		if pid, ok := strings.CutPrefix(l, "PID "); ok {
			n, _ := strconv.Atoi(pid)
			pids = append(pids, n)
		}
	}
	if len(pids) != 1 || pids[0] <= 0 {
		t.Fatalf("chat CLI pids %v, want one", pids)
	}
	e.host.Exit()
	if err := syscall.Kill(pids[0], 0); err == nil {
		t.Errorf("the chat's CLI (pid %d) still runs after the host exited", pids[0])
	}
}

func TestTheChatInputRecallsEarlierPrompts(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Cmd("ClaudeChat")
	e.prompt("stream one")
	e.waitTranscript("> stream one")
	e.nv.Lua(nil, `vim.api.nvim_buf_set_lines(require('claude.chat').buffers().input, 0, -1, false, { ... })`, "stream two", "second line")
	e.nv.Keys("<Esc><CR>")
	e.waitTranscript("> stream two", "> second line")
	e.nv.Lua(nil, `vim.api.nvim_buf_set_lines(require('claude.chat').buffers().input, 0, -1, false, { 'a draft' })`)
	input := func() string {
		var lines []string
		e.nv.Lua(&lines, `return vim.api.nvim_buf_get_lines(require('claude.chat').buffers().input, 0, -1, false)`)
		return strings.Join(lines, "\n")
	}
	steps := []struct{ keys, want string }{
		{"<Up>", "stream two\nsecond line"},
		{"<Up>", "stream one"}, // from the first line of the recalled prompt
		{"<Up>", "stream one"}, // the oldest stays
		{"<Down>", "stream two\nsecond line"},
		{"<Down>", "a draft"}, // from its last line, past the newest: the draft again
		{"<C-p><C-p>", "stream one"},
		{"<C-n>", "stream two\nsecond line"},
		{"gg<Down>", "stream two\nsecond line"}, // not on the last line: the cursor moves
	}
	e.nv.Keys("<Esc>")
	for _, step := range steps {
		e.nv.Keys(step.keys)
		if got := input(); got != step.want {
			t.Fatalf("after %s the input holds %q, want %q", step.keys, got, step.want)
		}
	}
	var row int
	e.nv.Lua(&row, `return vim.api.nvim_win_get_cursor(0)[1]`)
	if row != 2 {
		t.Errorf("<Down> on the first of two lines left the cursor on line %d, want 2", row)
	}
	e.nv.Keys("<Up><Up><CR>")
	nvimtest.Wait(t, "the recalled prompt to be sent again", waitTimeout, func() bool {
		return strings.Count(e.recorded(), `"text":"stream one"`) == 2
	})
}

func TestAChatFoldsThinkingAndEachToolUseIntoOneLineThatUnfolds(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Cmd("ClaudeChat")
	e.prompt("think first")
	e.waitTranscript("Read it.", "  ⎿  Error: Exit code 1")
	want := []string{
		"_∴ Thinking…_",
		"  │ Let me look",
		"  │ at the file.",
		"",
		"● Read(/tmp/x/notes.txt)",
		"  │ file_path: /tmp/x/notes.txt",
		"  ⎿  1\tone … (3 lines)",
		"  │ 2\ttwo",
		"  │ 3\tthree",
		"● Bash(false)",
		"  │ command: false",
		"  ⎿  Error: Exit code 1",
	}
	if got := e.transcript(); !strings.Contains(got, strings.Join(want, "\n")) {
		t.Fatalf("transcript =\n%s\nwant it to hold\n%s", got, strings.Join(want, "\n"))
	}
	// What the window shows: each fold closed on its first line.
	var transcript int
	e.nv.Lua(&transcript, `return require('claude.chat').buffers().transcript`)
	got := strings.Join(e.nv.ShownLines(transcript), "\n")
	for _, line := range []string{"_∴ Thinking…_", "● Read(/tmp/x/notes.txt)", "  ⎿  1\tone … (3 lines)", "● Bash(false)", "  ⎿  Error: Exit code 1", "Read it."} {
		if !strings.Contains("\n"+got+"\n", "\n"+line+"\n") {
			t.Errorf("the window shows\n%s\nwant the line %q", got, line)
		}
	}
	if strings.Contains(got, "│") {
		t.Errorf("the window shows\n%s\nwant every input, result and thinking body folded", got)
	}
}

// :Claude ask and :Claude type go to the chat open in the current tab
// page, as :Claude send does, never to a terminal.
func TestClaudeAskAndSendTextGoToTheChatOpenInThisTabPage(t *testing.T) {
	e := newChatEnv(t)
	path := e.nv.WriteFile("ask.txt", "one\ntwo\nthree\n")
	e.nv.Cmd("edit " + path)
	e.nv.Cmd("ClaudeChat")
	e.nv.Lua(nil, `vim.api.nvim_set_current_win(vim.fn.bufwinid(vim.fn.bufnr(...)))`, path)
	e.nv.Cmd("ClaudeSendText draft words")
	var input string
	e.nv.Lua(&input, `return table.concat(vim.api.nvim_buf_get_lines(require('claude.chat').buffers().input, 0, -1, false), "\n")`)
	if input != "draft words" {
		t.Errorf("after :Claude type the chat input holds %q, want the text", input)
	}
	e.nv.Lua(nil, `vim.api.nvim_buf_set_lines(require('claude.chat').buffers().input, 0, -1, false, {})`)
	e.nv.Lua(nil, `vim.api.nvim_set_current_win(vim.fn.bufwinid(vim.fn.bufnr(...)))`, path)
	e.nv.Cmd("2,3ClaudeAsk what do these do?")
	e.recorded(`@ask.txt#L2-3 what do these do?`)
	e.waitTranscript("> @ask.txt#L2-3 what do these do?")
	var terminal bool
	e.nv.Lua(&terminal, `return require('claude.terminal').buf() ~= nil`)
	if terminal {
		t.Errorf(":Claude ask opened the Claude terminal while a chat was open")
	}
}
