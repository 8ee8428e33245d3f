package e2e

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// Hook events over the relay (issue 41): the CLI started by :Claude open remote=dev gets the
// relay's --settings, its hooks reach the plugin over the SSH link, and the change ledger
// records its turn, written without review (acceptEdits), under the editor's paths.
func TestOverSSHTheRemoteCLIsHooksRecordItsTurnInTheLedgerUnderTheEditorsPaths(t *testing.T) {
	t.Parallel()
	r := newSSHRigWith(t, sshOpenSettings(false))
	localPath, remotePath := r.writeFile("a.txt", "a1\na2\n")
	r.api.Push(fakeapi.Read(remotePath), fakeapi.Edit(remotePath, "a2", "A2"), fakeapi.Say("Turn over."))
	signs := r.nv.UserEvents("ClaudeChangeSigns")
	r.nv.Cmd("ClaudeOpen remote=dev --permission-mode acceptEdits")
	r.waitState("connected", 1)
	r.termPrompt("Change a")
	r.waitTerm("the turn's end", func(s string) bool { return strings.Contains(s, "Turn over.") })
	nvimtest.Next(t, signs, "the change signs pushed when the turn ended (its Stop hook, over the relay)", turnTimeout)
	if got, err := os.ReadFile(localPath); err != nil || string(got) != "a1\nA2\n" {
		t.Fatalf("a.txt = %q (%v), want the CLI's edit", got, err)
	}
	replies := r.nv.UserEvents("ClaudeChanges")
	r.nv.Cmd("wincmd p")
	r.nv.Cmd("ClaudeChanges")
	for {
		data := nvimtest.Next(t, replies, "the ledger's list", turnTimeout)
		if data["op"] == "list" {
			break
		}
	}
	var lines []string
	r.nv.Lua(&lines, `return vim.api.nvim_buf_get_lines(0, 0, -1, false)`)
	list := strings.Join(lines, "\n")
	if !strings.Contains(list, "M a.txt  +1 -1") {
		t.Errorf(":Claude changes lacks the remote turn's a.txt:\n%s", list)
	}
	if strings.Contains(list, r.env.Project) {
		t.Errorf(":Claude changes names the remote path %s:\n%s", r.env.Project, list)
	}
}

// termScreen is the last rows of remote dev's terminal in Neovim.
func (r *sshRig) termScreen() string {
	var lines []string
	r.nv.Lua(&lines, `
		local buf = require('claude.terminal.remote').buf('dev')
		if not buf then return {} end
		local n = vim.api.nvim_buf_line_count(buf)
		local win = vim.fn.win_findbuf(buf)[1]
		local rows = win and vim.api.nvim_win_get_height(win) or n
		return vim.api.nvim_buf_get_lines(buf, math.max(0, n - rows), -1, false)`)
	return strings.Join(lines, "\n")
}

func (r *sshRig) waitTerm(what string, ok func(string) bool) string {
	r.t.Helper()
	deadline := time.Now().Add(turnTimeout)
	for {
		s := r.termScreen()
		if ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("timed out waiting for %s in the remote terminal:\n%s", what, s)
		}
		time.Sleep(pollInterval)
	}
}

// termPrompt types text into the remote CLI's input once it idles, and Enter once it shows.
func (r *sshRig) termPrompt(text string) {
	r.t.Helper()
	r.waitTerm("the CLI ready for a prompt", isReady)
	send := `local buf = require('claude.terminal.remote').buf('dev')
		vim.api.nvim_chan_send(vim.bo[buf].channel, ...)`
	r.nv.Lua(nil, send, text)
	r.waitTerm("the prompt in the input box", func(s string) bool {
		got, ok := clienv.InputLine(s)
		return ok && got == text
	})
	r.nv.Lua(nil, send, "\r")
}
