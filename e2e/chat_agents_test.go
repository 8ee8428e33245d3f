package e2e

import (
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The agent's work beside the conversation (issue 25, items 1 and 2): the task list and
// subagents, with the real CLI.

// enableTaskTools gives the chat's CLI the task tools: 2.1.332 offers them (behind
// ToolSearch) only to older models unless CLAUDE_CODE_ENABLE_TODO_TOOLS is set (chat/doc.go);
// 2.1.197 always does. The chat's CLI gets Neovim's environment.
func (s *session) enableTaskTools() {
	s.nv.Lua(nil, `vim.env.CLAUDE_CODE_ENABLE_TODO_TOOLS = '1'`)
}

// taskView is the task list's buffer: its lines, whether a window shows it, and whether the
// current window is still the chat's input (the view never takes the focus).
type taskView struct {
	Lines   []string `msgpack:"lines"`
	Shown   bool     `msgpack:"shown"`
	InInput bool     `msgpack:"in_input"`
}

func (s *session) taskView() taskView {
	var v taskView
	s.nv.Lua(&v, `
		for _, b in ipairs(vim.api.nvim_list_bufs()) do
			if vim.api.nvim_buf_get_name(b):match('^claude%-tasks://') then
				return {
					lines = vim.api.nvim_buf_get_lines(b, 0, -1, false),
					shown = #vim.fn.win_findbuf(b) > 0,
					in_input = vim.api.nvim_get_current_buf() == require('claude.chat').buffers().input,
				}
			end
		end
		return { lines = {}, shown = false, in_input = false }`)
	return v
}

func (s *session) waitTaskView(want ...string) taskView {
	s.t.Helper()
	var v taskView
	nvimtest.Wait(s.t, "the task list to read "+strings.Join(want, " | "), turnTimeout, func() bool {
		v = s.taskView()
		return strings.Join(v.Lines, "\n") == strings.Join(want, "\n")
	})
	return v
}

func taskCreate(subject, active string) fakeapi.ToolUse {
	return fakeapi.ToolUse{Name: "TaskCreate", Input: map[string]any{"subject": subject, "description": subject + ", as asked", "activeForm": active}}
}

func TestTheChatsTaskListUpdatesInPlaceFromPendingToDone(t *testing.T) {
	t.Parallel()
	inProgress, completed := make(chan struct{}), make(chan struct{})
	s := newSession(t,
		fakeapi.Turn{Tools: []fakeapi.ToolUse{taskCreate("Write the tests", "Writing the tests"), taskCreate("Fix the bug", "Fixing the bug")}},
		fakeapi.Turn{Gate: inProgress, Tools: []fakeapi.ToolUse{{Name: "TaskUpdate", Input: map[string]any{"taskId": "1", "status": "in_progress"}}}},
		fakeapi.Turn{Gate: completed, Tools: []fakeapi.ToolUse{{Name: "TaskUpdate", Input: map[string]any{"taskId": "1", "status": "completed"}}}},
		fakeapi.Say("The tests are written."),
	)
	t.Cleanup(s.logTranscript)
	s.enableTaskTools()
	s.openChat()
	s.chatSend("Plan the work, then do the first part.")

	v := s.waitTaskView("Tasks: 0 of 2 done", "☐ Write the tests", "☐ Fix the bug")
	if !v.Shown || !v.InInput {
		t.Errorf("the task list: shown %v, the input still focused %v; want both", v.Shown, v.InInput)
	}
	close(inProgress)
	s.waitTaskView("Tasks: 0 of 2 done", "◐ Writing the tests…", "☐ Fix the bug")
	close(completed)
	s.waitTaskView("Tasks: 1 of 2 done", "✔ Write the tests", "☐ Fix the bug")
	s.waitChat("The tests are written.")

	// One view updated in place, not a transcript line per change.
	// (2.1.332 loads the deferred task tools with ToolSearch first: hidden too.)
	if got := s.chatTranscript(); strings.Contains(got, "TaskCreate") || strings.Contains(got, "TaskUpdate") {
		t.Errorf("the transcript shows the task tools' calls:\n%s", got)
	}
	var hl []string
	s.nv.Lua(&hl, `
		for _, b in ipairs(vim.api.nvim_list_bufs()) do
			if vim.api.nvim_buf_get_name(b):match('^claude%-tasks://') then
				local out = {}
				for _, m in ipairs(vim.api.nvim_buf_get_extmarks(b, -1, 0, -1, { details = true })) do
					table.insert(out, m[4].hl_group)
				end
				return out
			end
		end
		return {}`)
	if want := []string{"ClaudeChatTaskTitle", "ClaudeChatTaskDone", "ClaudeChatTaskPending"}; strings.Join(hl, " ") != strings.Join(want, " ") {
		t.Errorf("the task list's highlights are %v, want %v", hl, want)
	}
}

// agentHeader is the transcript's Agent tool line, at the top of a subagent's group.
func (s *session) agentHeader() string {
	for _, l := range strings.Split(s.chatTranscript(), "\n") {
		if strings.HasPrefix(l, "● Agent(") {
			return l
		}
	}
	return ""
}

func (s *session) waitAgentHeader(want string) string {
	s.t.Helper()
	var h string
	nvimtest.Wait(s.t, "the Agent line to say "+want, turnTimeout, func() bool {
		h = s.agentHeader()
		return strings.Contains(h, want)
	})
	return h
}

func TestASubagentsToolCallsAreGroupedAndFoldedUnderItsAgentLineWithItsResult(t *testing.T) {
	t.Parallel()
	const prompt = "SUBAGENT: list what is here"
	s := newSession(t,
		fakeapi.Use("Agent", map[string]any{"description": "Look around", "prompt": prompt, "subagent_type": "general-purpose", "run_in_background": false}),
		fakeapi.Say("The subagent looked around."),
	)
	s.api.Agent(prompt, fakeapi.Use("Bash", map[string]any{"command": "echo found-it", "description": "say what was found"}), fakeapi.Say("Found: found-it"))
	t.Cleanup(s.logTranscript)
	s.openChat()
	s.chatSend("Have a subagent look around.")
	s.waitChat("The subagent looked around.")
	header := s.waitAgentHeader("done in")

	got := s.chatTranscript()
	lines := strings.Split(got, "\n")
	at := -1
	for i, l := range lines {
		if l == header {
			at = i
		}
	}
	// Under the Agent line: its input, the subagent's Bash call and result, the Agent's
	// result, and its state; then the conversation goes on.
	group := strings.Join(lines[at:], "\n")
	for _, want := range []string{"  │ ● Bash(echo found-it)", "  │   ⎿  found-it", "  ⎿  Done"} {
		if !strings.Contains(group, want) {
			t.Errorf("the Agent's group lacks %q:\n%s", want, got)
		}
	}
	if strings.Index(got, "● Bash(") < at || strings.Index(got, "The subagent looked around.") < strings.Index(got, "  ⎿  Done") {
		t.Errorf("the subagent's lines are not under its Agent line, before the answer:\n%s", got)
	}
	if !strings.Contains(header, "1 tool") {
		t.Errorf("the Agent line %q does not count the subagent's tool call", header)
	}
	var transcript int
	s.nv.Lua(&transcript, `return require('claude.chat').buffers().transcript`)
	window := strings.Join(s.nv.ShownLines(transcript), "\n")
	if strings.Contains(window, "● Bash(") || !strings.Contains(window, header) {
		t.Errorf("the chat window shows\n%s\nwant the subagent's work folded under its Agent line", window)
	}
}

func TestARunningSubagentIsStoppedFromTheChat(t *testing.T) {
	t.Parallel()
	const prompt = "SUBAGENT: wait for ever"
	hold := make(chan struct{})
	t.Cleanup(func() { close(hold) })
	s := newSession(t,
		fakeapi.Use("Agent", map[string]any{"description": "Take long", "prompt": prompt, "subagent_type": "general-purpose"}),
		fakeapi.Say("Main goes on."),
		fakeapi.Say("Noted: the subagent was stopped."),
	)
	// The subagent's first request is answered only when the test ends: it runs until stopped.
	s.api.Agent(prompt, fakeapi.Turn{Gate: hold, Text: "never seen"})
	t.Cleanup(s.logTranscript)
	s.openChat()
	s.chatSend("Start a long subagent.")
	s.waitAgentHeader("running")
	nvimtest.Wait(t, "the subagent's request", turnTimeout, func() bool { return len(s.api.Subagents()) > 0 })

	s.nv.Cmd("ClaudeChatStopAgent")
	header := s.waitAgentHeader("stopped in")
	if !strings.Contains(s.chatTranscript(), "  ⎿  Stopped") {
		t.Errorf("the Agent's group does not say it stopped:\n%s", s.chatTranscript())
	}
	t.Logf("the Agent line: %s", header)
}
