package chatctl_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// prestart configures the chat to start its CLI once Neovim runs (chat.prestart) and waits
// until that has decided what to do; it returns what it did.
func (e *chatEnv) prestart() string {
	e.t.Helper()
	e.nv.Lua(nil, `require('claude').setup({ terminal_cmd = { ... }, chat = { prestart = true } })`,
		filepath.Join(filepath.Dir(e.record), "claude"))
	var outcome string
	nvimtest.Wait(e.t, "chat.prestart to run", waitTimeout, func() bool {
		e.nv.Lua(&outcome, `return require('claude.chat.prestart').outcome or ''`)
		return outcome != ""
	})
	return outcome
}

// In a trusted folder, chat.prestart starts the chat's CLI before :ClaudeChat, opening no
// window and leaving the cursor where it was; :ClaudeChat then shows that chat, and the
// first message goes to that CLI: no second one starts.
func TestPrestartRunsTheChatsCLIBeforeClaudeChatInATrustedFolder(t *testing.T) {
	e := newChatEnv(t)
	var before []int
	e.nv.Lua(&before, `return { vim.api.nvim_get_current_win(), #vim.api.nvim_list_wins() }`)
	if got := e.prestart(); got != "started" {
		t.Fatalf("chat.prestart did %q, want started", got)
	}
	e.recorded(`"subtype":"initialize"`) // the CLI runs and was asked to initialize
	var after []int
	e.nv.Lua(&after, `return { vim.api.nvim_get_current_win(), #vim.api.nvim_list_wins() }`)
	if after[0] != before[0] || after[1] != before[1] {
		t.Errorf("window and window count went from %v to %v; want the prestart to show nothing", before, after)
	}
	e.nv.Cmd("ClaudeChat")
	e.prompt("stream")
	e.waitTranscript("Hello from the stand-in.")
	if got := strings.Count(e.recorded(), "PID "); got != 1 {
		t.Errorf("%d CLIs started; want the prestarted one alone", got)
	}
}

// In a folder the CLI has not trusted, chat.prestart starts nothing and asks nothing (the
// user has not opened the chat); :ClaudeChat then asks as usual.
func TestPrestartDoesNothingInAnUntrustedFolder(t *testing.T) {
	e := newUntrustedChatEnv(t)
	if got := e.prestart(); got != "untrusted" {
		t.Fatalf("chat.prestart did %q, want untrusted", got)
	}
	if b, err := os.ReadFile(e.record); err == nil {
		t.Fatalf("a CLI started in the untrusted folder; it recorded:\n%s", b)
	}
	var made bool
	e.nv.Lua(&made, `return require('claude.chat').buffers() ~= nil`)
	if made {
		t.Errorf("chat.prestart made a chat in the untrusted folder:\n%s", e.transcript())
	}
	var dir string
	e.nv.Lua(&dir, `return vim.fn.getcwd()`)
	e.nv.Cmd("ClaudeChat")
	e.waitTranscript("? Do you trust the files in this folder? " + dir)
}
