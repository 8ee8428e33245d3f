package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/chat"
	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/e2e/tmuxterm"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The history browser (:ClaudeChat resume) over conversations the real CLI stored: listed,
// searched, renamed (as the CLI's own /rename stores it), deleted after a question on the
// line, previewed, and resumed with the earlier turns' tool lines and permission answers.

// historyLines returns the browser's lines (header included); "" when none is open.
func (s *session) historyLines() []string {
	var lines []string
	s.nv.Lua(&lines, `
		for _, buf in ipairs(vim.api.nvim_list_bufs()) do
			if vim.b[buf].claude_history_dir then
				return vim.api.nvim_buf_get_lines(buf, 0, -1, false)
			end
		end
		return {}`)
	return lines
}

// waitHistory waits until the browser lists exactly the conversations whose lines contain
// the wants (in any order), and returns its lines.
func (s *session) waitHistory(what string, wants ...string) []string {
	s.t.Helper()
	var lines []string
	nvimtest.Wait(s.t, "the conversation list to show "+what, turnTimeout, func() bool {
		lines = s.historyLines()
		if len(lines) < 2 || strings.Contains(lines[1], "reading…") || len(lines)-2 != len(wants) {
			return false
		}
		for _, want := range wants {
			if !strings.Contains(strings.Join(lines[2:], "\n"), want) {
				return false
			}
		}
		return true
	})
	return lines
}

// onHistoryLine puts the cursor on the browser's line that contains text.
func (s *session) onHistoryLine(text string) {
	s.t.Helper()
	var ok bool
	s.nv.Lua(&ok, `
		local text = ...
		local buf = vim.api.nvim_get_current_buf()
		for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
			if i > 2 and line:find(text, 1, true) then
				vim.api.nvim_win_set_cursor(0, { i, 0 })
				return true
			end
		end
		return false`, text)
	if !ok {
		s.t.Fatalf("no conversation line with %q in the current buffer:\n%s", text, strings.Join(s.historyLines(), "\n"))
	}
}

// answerInput makes the next vim.ui.input answer text.
func (s *session) answerInput(text string) {
	s.nv.Lua(nil, `
		local text = ...
		vim.ui.input = function(_, on_confirm) on_confirm(text) end`, text)
}

func (s *session) storedFile(id string) string {
	return filepath.Join(chat.ProjectDir(s.env.ConfigDir, s.env.Project), id+".jsonl")
}

// conversationID returns the id of the stored conversation whose first prompt is prompt.
// conversationID is the id of the stored conversation whose first prompt is prompt, once
// it is stored: 2.1.197 writes a running conversation a few seconds after its turn.
func (s *session) conversationID(prompt string) string {
	s.t.Helper()
	var id string
	nvimtest.Wait(s.t, fmt.Sprintf("a stored conversation that starts with %q", prompt), turnTimeout, func() bool {
		list, err := chat.ListConversations(s.env.ConfigDir, s.env.Project)
		if err != nil {
			s.t.Fatal(err)
		}
		for _, c := range list {
			if c.FirstPrompt == prompt {
				id = c.ID
				return true
			}
		}
		return false
	})
	return id
}

func TestTheConversationListSearchesRenamesDeletesAndResumesWithToolLinesAndAnswers(t *testing.T) {
	t.Parallel()
	const (
		tools   = "Create a.txt"
		plum    = "Remember the code word PLUM"
		fruit   = "Tell me about the yellow fruit"
		title   = "Files made and refused"
		refusal = "not b, please"
	)
	script := append(bashTurns("touch a.txt", "Made it."), bashTurns("touch b.txt", "Did not.")...)
	script = append(script, fakeapi.Say("A mango is sweet."), fakeapi.Say("Noted: PLUM."))
	s := newSession(t, script...)
	t.Cleanup(s.logTranscript)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("conversation list:\n%s", strings.Join(s.historyLines(), "\n"))
		}
	})

	// Three conversations made by real CLI turns: tools allowed and denied, and two plain.
	// The CLIs of the first two have exited when the list is read: 2.1.197 writes a running
	// conversation's last answer to its file late.
	s.answerPermissions("Allow once", "")
	s.openChat()
	s.chatSend(tools)
	s.waitChat("? Bash(touch a.txt) asks for permission")
	s.nv.Cmd("ClaudeChatAnswer")
	s.waitChat("Made it.")
	s.turnDone(1)
	s.answerPermissions("Deny, and tell Claude why", refusal)
	s.chatSend("Create b.txt")
	s.waitChat("? Bash(touch b.txt) asks for permission")
	s.nv.Cmd("ClaudeChatAnswer")
	s.waitChat("Did not.")
	s.turnDone(2)
	first := s.cliPID
	s.openChat("new")
	s.chatSend(fruit)
	s.waitChat("A mango is sweet.")
	s.turnDone(1)
	second := s.cliPID
	s.openChat("new")
	s.chatSend(plum)
	s.waitChat("Noted: PLUM.")
	s.turnDone(1)
	s.waitGone("the first conversation's CLI", first)
	s.waitGone("the second conversation's CLI", second)
	// 2.1.197 writes even the running conversation's first prompt a few seconds after its
	// turn (chat/doc.go): the list is read once every conversation is stored.
	nvimtest.Wait(t, "the running conversation to be stored", turnTimeout, func() bool {
		list, _ := chat.ListConversations(s.env.ConfigDir, s.env.Project)
		return slices.ContainsFunc(list, func(c chat.Conversation) bool { return c.FirstPrompt == plum })
	})
	toolsID, fruitID := s.conversationID(tools), s.conversationID(fruit)

	// The list: every stored conversation with its branch and message count.
	s.nv.Cmd("ClaudeChat resume")
	lines := s.waitHistory("the three conversations", tools, plum, fruit)
	if got := strings.Join(lines, "\n"); !strings.Contains(got, "HEAD") || !strings.Contains(got, "   6 msgs  "+tools) {
		t.Errorf("the list does not show the branch and the message count (2 prompts, 4 API messages) of %q:\n%s", tools, got)
	}

	// g? lists the keys, as a message: nothing takes the cursor.
	before := s.nv.Messages()
	s.nv.Keys("g?")
	if got := strings.TrimPrefix(s.nv.Messages(), before); !strings.Contains(got, "claude-chat-history") || !strings.Contains(got, "d d") {
		t.Errorf("g? in the list said %q, want its keys", got)
	}

	// Search by text that only an answer (mango) or a denial's reason holds.
	s.answerInput("MANGO")
	s.nv.Keys("s")
	s.waitHistory("only the conversation whose answer has the text", fruit)
	s.answerInput(refusal)
	s.nv.Keys("s")
	s.waitHistory("only the conversation with the denial's reason", tools)
	s.answerInput("")
	s.nv.Keys("s")
	s.waitHistory("all of them again", tools, plum, fruit)
	s.nv.Cmd("ClaudeChat resume " + strings.ToUpper(refusal))
	s.waitHistory(":ClaudeChat resume with a text: only the conversations with it", tools)
	s.nv.Keys("s")
	s.waitHistory("all of them again", tools, plum, fruit)

	// Rename: the title is stored as the CLI stores its own, and survives a new list.
	s.onHistoryLine(tools)
	s.answerInput(title)
	s.nv.Keys("r")
	s.waitHistory("the new title", title, plum, fruit)
	s.nv.Keys("R")
	s.waitHistory("the new title after a re-list", title, plum, fruit)
	if raw, _ := os.ReadFile(s.storedFile(toolsID)); !strings.Contains(string(raw), `{"type":"custom-title","customTitle":"`+title+`","sessionId":"`+toolsID+`"}`) {
		t.Errorf("the conversation's file has no custom-title line for %q", title)
	}

	// The conversation the chat's CLI runs is not deleted: the CLI would write it again.
	plumID := s.conversationID(plum)
	s.onHistoryLine(plum)
	before = s.nv.Messages()
	s.nv.Keys("dd")
	nvimtest.Wait(t, "d d on the running conversation to say why it is kept", turnTimeout, func() bool {
		return strings.Contains(strings.TrimPrefix(s.nv.Messages(), before), "the chat runs it")
	})
	if _, err := os.Stat(s.storedFile(plumID)); err != nil {
		t.Errorf("d d deleted the conversation the chat runs: %v", err)
	}

	// Delete: the first d asks on the line and deletes nothing; the second deletes.
	s.onHistoryLine(fruit)
	s.nv.Keys("d")
	nvimtest.Wait(t, "the delete question on the line", turnTimeout, func() bool {
		return strings.Contains(strings.Join(s.historyLines(), "\n"), "✗ delete? d again deletes it")
	})
	if _, err := os.Stat(s.storedFile(fruitID)); err != nil {
		t.Errorf("the first d deleted the conversation: %v", err)
	}
	s.nv.Keys("d")
	s.waitHistory("the list without the deleted one", title, plum)
	if _, err := os.Stat(s.storedFile(fruitID)); err == nil {
		t.Errorf("after d d, %s is still there", s.storedFile(fruitID))
	}

	// The preview: the first and last lines, in a window the cursor does not go to.
	s.onHistoryLine(title)
	s.nv.Keys("p")
	var preview []string
	nvimtest.Wait(t, "the preview", turnTimeout, func() bool {
		s.nv.Lua(&preview, `
			for _, win in ipairs(vim.api.nvim_list_wins()) do
				local buf = vim.api.nvim_win_get_buf(win)
				if vim.b[buf].claude_history_preview then
					return vim.api.nvim_buf_get_lines(buf, 0, -1, false)
				end
			end
			return {}`)
		return strings.Contains(strings.Join(preview, "\n"), "Did not.")
	})
	if got := strings.Join(preview, "\n"); !strings.Contains(got, "> "+tools) || !strings.Contains(got, refusal) {
		t.Errorf("the preview does not show the first prompt and the denial's reason:\n%s", got)
	}
	var inBrowser bool
	s.nv.Lua(&inBrowser, `return vim.b.claude_history_dir ~= nil`)
	if !inBrowser {
		t.Errorf("the preview took the cursor from the list")
	}

	// The CLI's own --resume picker shows the title given here. It hides conversations of
	// print mode (entrypoint sdk-cli) from a picker that is not of that entrypoint itself.
	env := append(s.env.Vars(), "CLAUDE_CODE_ENTRYPOINT=sdk-cli")
	term := tmuxterm.Start(t, tmuxterm.Options{Dir: s.env.Project, Env: env, Width: 120, Height: 40}, clienv.Bin(t), "--resume")
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	if _, err := term.WaitForText(ctx, title); err != nil {
		screen, _ := term.Screen()
		t.Errorf("the CLI's --resume picker does not show the title %q: %v\n%s", title, err, screen)
	}
	term.Close()

	// <CR> resumes: the earlier turns with their tool lines and permission answers.
	s.nv.Keys("<CR>")
	s.waitChat("> " + tools)
	s.waitChat("● Bash(touch a.txt)")
	s.waitChat("  ⎿  (Bash completed with no output)")
	s.waitChat("Made it.")
	s.waitChat("● Bash(touch b.txt)")
	s.waitChat("Did not.")
	if cliVersion == "2.1.197" {
		t.Skip("Claude Code 2.1.197 stores no permission answers (2.1.332's permissionDecision): the rest passed")
	}
	s.waitChat("  ⎿  allowed: once")
	s.waitChat("  ⎿  denied: " + refusal)
}
