package chatctl_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The chat's small things a user expects (issue 22 item 8): attachments checked when
// attached, a turn that cannot be sent given back, <C-c> leaving Insert mode, g? and the
// jumps between prompts.

// input returns the chat's input, one string.
func (e *chatEnv) input() string {
	var lines []string
	e.nv.Lua(&lines, `return vim.api.nvim_buf_get_lines(require('claude.chat').buffers().input, 0, -1, false)`)
	return strings.Join(lines, "\n")
}

// mode returns Neovim's mode ("n", "i", …).
func (e *chatEnv) mode() string {
	var m map[string]any
	e.nv.Lua(&m, `return vim.api.nvim_get_mode()`)
	s, _ := m["mode"].(string)
	return s
}

func TestClaudeChatAttachRefusesAFileThatIsNoImageAndKeepsTheInput(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Cmd("ClaudeChat")
	dir := t.TempDir()
	gif := filepath.Join(dir, "pixel.gif")
	if err := os.WriteFile(gif, []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;"), 0o644); err != nil {
		t.Fatal(err)
	}
	notes := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notes, []byte("just text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.nv.Keys("ihalf a message<Esc>")
	got := commandMessages(t, e.nv, "ClaudeChatAttach "+notes)
	if !strings.Contains(got, ":Claude chat attach takes png, jpeg, gif or webp images up to 5 MiB; "+notes+" is not a png, jpeg, gif or webp image") {
		t.Errorf(":Claude chat attach of a text file said %q, want what it takes and why this is not it", got)
	}
	if got := commandMessages(t, e.nv, "ClaudeChatAttach "+gif); strings.Contains(got, "takes png") {
		t.Errorf(":Claude chat attach of a gif was refused: %q", got)
	}
	var attached []string
	e.nv.Lua(&attached, `return require('claude.chat.state').chats[vim.fn.getcwd()].attached or {}`)
	if len(attached) != 1 || attached[0] != gif {
		t.Errorf("attached %q, want only the gif %s", attached, gif)
	}
	if got := e.input(); got != "half a message" {
		t.Errorf("after the attachments the input holds %q, want the typed text", got)
	}
}

func TestATurnThatCannotBeSentGoesBackToTheInputWithItsGoodImages(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Cmd("ClaudeChat")
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "good.gif"), filepath.Join(dir, "gone-bad.gif")
	for _, p := range []string{good, bad} {
		if err := os.WriteFile(p, []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e.nv.Cmd("ClaudeChatAttach " + good)
	e.nv.Cmd("ClaudeChatAttach " + bad)
	// Changed after it was attached: only the host's check at send sees it.
	if err := os.WriteFile(bad, []byte("no longer an image"), 0o644); err != nil {
		t.Fatal(err)
	}
	e.nv.Lua(nil, `vim.api.nvim_buf_set_lines(require('claude.chat').buffers().input, 0, -1, false, { ... })`, "stream this", "second line")
	e.nv.Keys("<Esc><CR>")
	nvimtest.Wait(t, "the turn to come back", waitTimeout, func() bool {
		return strings.Contains(e.transcript(), "**Error:** not sent (attach "+bad+": text/plain; charset=utf-8 is no image the API takes (png, jpeg, gif, webp)); your message is back in the input")
	})
	if got := e.input(); got != "stream this\nsecond line" {
		t.Errorf("after a failed send the input holds %q, want the message back", got)
	}
	var attached []string
	e.nv.Lua(&attached, `return require('claude.chat.state').chats[vim.fn.getcwd()].attached or {}`)
	if len(attached) != 1 || attached[0] != good {
		t.Errorf("after a failed send %q are attached, want the good image %s again", attached, good)
	}
	if got := e.recorded("ARGS"); strings.Contains(got, "stream this") {
		t.Errorf("the CLI read the turn that failed:\n%s", got)
	}
	// Sent again without the bad image, it goes.
	e.nv.Keys("<CR>")
	e.recorded(`stream this\nsecond line`)
	e.waitTranscript("Hello from the stand-in.")
}

func TestCtrlCInTheChatInputLeavesInsertModeAndInterruptsOnlyAWorkingTurn(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Cmd("ClaudeChat")
	// Typed, then <C-c> on its own, as a user's keys come (one input with both would let
	// Neovim 0.10 flush the typed keys as typeahead before an interrupt).
	e.nv.Keys("inothing runs")
	e.nv.Keys("<C-c>")
	if m := e.mode(); m != "n" {
		t.Errorf("<C-c> in Insert mode of an idle chat left mode %q, want Normal", m)
	}
	if got := e.input(); got != "nothing runs" {
		t.Errorf("after <C-c> the input holds %q, want what was typed", got)
	}
	e.prompt("be slow")
	e.waitTranscript("Working")
	e.nv.Keys("inext question")
	e.nv.Keys("<C-c>")
	e.recorded(`"subtype":"interrupt"`)
	e.waitTranscript("_[Request interrupted by user]_")
	if m := e.mode(); m != "n" {
		t.Errorf("<C-c> in Insert mode of a working chat left mode %q, want Normal", m)
	}
	if got := e.input(); got != "next question" {
		t.Errorf("after <C-c> the input holds %q, want what was typed", got)
	}
	if n := strings.Count(e.recorded(), `"subtype":"interrupt"`); n != 1 {
		t.Errorf("the CLI got %d interrupts, want one (none while idle)", n)
	}
}

func TestGQuestionMarkShowsTheChatsKeysWithoutMovingTheCursor(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Cmd("ClaudeChat")
	// The transcript only: in the input (text being written) g? stays Vim's rot13.
	for _, where := range []string{"transcript"} {
		e.nv.Lua(nil, `vim.api.nvim_set_current_win(vim.fn.bufwinid(require('claude.chat').buffers()[...]))`, where)
		before := e.nv.Messages()
		e.nv.Keys("g?")
		got := strings.TrimPrefix(e.nv.Messages(), before)
		for _, want := range []string{"claude.nvim chat keys", "<C-c>", "[r ]r", "previous / next prompt", "<S-Tab>"} {
			if !strings.Contains(got, want) {
				t.Errorf("g? in the %s showed %q, want it to list %q", where, got, want)
			}
		}
		var current string
		e.nv.Lua(&current, `local b = require('claude.chat').buffers(); return vim.api.nvim_get_current_buf() == b.input and 'input' or vim.api.nvim_get_current_buf() == b.transcript and 'transcript' or 'elsewhere'`)
		if current != where || e.mode() != "n" {
			t.Errorf("after g? in the %s the cursor is in the %s, mode %q; want it where it was, in Normal mode", where, current, e.mode())
		}
	}
}

func TestBracketRJumpsBetweenThePromptsOfTheTranscript(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Cmd("ClaudeChat")
	e.prompt("stream one")
	e.waitTranscript("> stream one", "Hello from the stand-in.")
	e.prompt("stream two")
	nvimtest.Wait(t, "the second answer", waitTimeout, func() bool {
		return strings.Count(e.transcript(), "─── ") == 2
	})
	// Claude's own "> " lines (a quote in its answer) are no prompt.
	e.nv.Lua(nil, `vim.api.nvim_set_current_win(vim.fn.bufwinid(require('claude.chat').buffers().transcript))`)
	line := func() string {
		var l string
		e.nv.Lua(&l, `return vim.api.nvim_get_current_line()`)
		return l
	}
	steps := []struct{ keys, want string }{
		{"G[r", "> stream two"},
		{"[r", "> stream one"},
		{"[r", "> stream one"}, // the first stays
		{"]r", "> stream two"},
		{"gg2]r", "> stream two"},
		{"G2[r", "> stream one"},
		{"<C-o>", "─── 1.5 s · 10 tokens in, 5 out · $0.0123 (this run)"}, // a jump: back where it came from
	}
	for _, s := range steps {
		e.nv.Keys(s.keys)
		if got := line(); got != s.want {
			t.Fatalf("after %s the cursor is on %q, want %q", s.keys, got, s.want)
		}
	}
}

func TestAfterAReviewTheCursorGoesBackToTheChatItCameFromInNormalMode(t *testing.T) {
	for _, tt := range []struct {
		name, from, act, shown string
	}{
		{"accepted after :Claude review focus from the input", "input", "write", "  ⎿  accepted"},
		{"rejected after :Claude review focus from the transcript", "transcript", "ClaudeDiffReject", "  ⎿  rejected; the turn stops"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newChatEnv(t)
			e.nv.WriteFile("greet.txt", "one\ntwo\nthree\n")
			opened := e.nv.UserEvents("ClaudeDiffOpened")
			e.nv.Cmd("ClaudeChat")
			e.prompt("make an edit")
			nvimtest.Next(t, opened, "the diff of the proposed edit", waitTimeout)
			e.nv.Lua(nil, `vim.api.nvim_set_current_win(vim.fn.bufwinid(require('claude.chat').buffers()[...]))`, tt.from)
			e.nv.Cmd("ClaudeDiffFocus")
			var inProposal bool
			e.nv.Lua(&inProposal, `return vim.bo.buftype == 'acwrite'`)
			if !inProposal {
				t.Fatalf("the cursor is not in the proposal before the answer")
			}
			e.nv.Cmd(tt.act)
			e.waitTranscript(tt.shown)
			var current string
			e.nv.Lua(&current, `local b = require('claude.chat').buffers(); local cur = vim.api.nvim_get_current_buf()
				return cur == b.input and 'input' or cur == b.transcript and 'transcript' or vim.api.nvim_buf_get_name(cur)`)
			if current != tt.from || e.mode() != "n" {
				t.Errorf("after the review the cursor is in %s, mode %q; want the chat's %s it came from, Normal mode", current, e.mode(), tt.from)
			}
		})
	}
}

func TestAtPathCompletionDescendsIntoDirectoriesAndStaysBounded(t *testing.T) {
	e := newChatEnv(t)
	for _, f := range []string{"lua/claude/init.lua", "lua/claude/chat/render.lua", "lua/other.lua", ".git/config", "README.md"} {
		e.nv.WriteFile(f, "x\n")
	}
	for i := range 1000 { // a directory far bigger than what completion offers
		e.nv.WriteFile(fmt.Sprintf("huge/f%04d.txt", i), "")
	}
	e.nv.Cmd("ClaudeChat")
	complete := func(typed string) []string {
		t.Helper()
		e.nv.Lua(nil, `vim.api.nvim_buf_set_lines(require('claude.chat').buffers().input, 0, -1, false, {})`)
		// <C-x><C-u>: the completion read here (<Tab> asks the CLI, which this stand-in is
		// not: e2e TestTheChatInputCompletes… checks that one).
		e.nv.Keys("i" + typed)
		e.nv.Keys("<C-x><C-u>")
		var words []string
		e.nv.Lua(&words, `local out = {}
			for _, it in ipairs(vim.fn.complete_info({ 'items' }).items) do table.insert(out, it.word) end
			return out`)
		e.nv.Keys("<C-e><Esc>")
		return words
	}
	if got, want := complete("@lua/cl"), []string{"@lua/claude/", "@lua/claude/chat/", "@lua/claude/init.lua", "@lua/claude/chat/render.lua"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("@lua/cl<Tab> offers %q, want %q: the directory and what is under it, shallowest first", got, want)
	}
	if got := complete("@.g"); fmt.Sprint(got) != fmt.Sprint([]string{"@.git/"}) {
		t.Errorf("@.g<Tab> offers %q, want .git/ itself and nothing of its inside", got)
	}
	if got := complete("@.git/c"); fmt.Sprint(got) != fmt.Sprint([]string{"@.git/config"}) {
		t.Errorf("@.git/c<Tab> offers %q, want what is typed into, even in .git", got)
	}
	got := complete("@")
	if len(got) != 200 {
		t.Errorf("@<Tab> in a tree of 1000 files offers %d paths, want the cap of 200", len(got))
	}
	if len(got) > 0 && got[0] != "@.git/" {
		t.Errorf("@<Tab> offers %q first, want the top level first (.git/)", got[0])
	}
}
