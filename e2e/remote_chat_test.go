package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The chat over a remote (issue 41): :ClaudeChat remote=dev runs the chat's stream-json CLI
// on the remote's side through its transport, in the mapped directory there. What it names
// by its paths reaches the editor under the editor's: an Edit is reviewed under the
// editor's path (a hunk taken back is not written), getDiagnostics, served by the host
// through the relay, answers the editor's warning. (The ledger is checked over SSH, where the
// editor's folder is a bind mount: here its files are hard links, which the CLI's write,
// replacing the file, leaves behind; the ledger then saw no change.)
func TestARemoteChatsEditIsReviewedUnderTheEditorsPathAndItsToolsGoThroughTheRelay(t *testing.T) {
	t.Parallel()
	const message = "e2e: the fourth line is never read"
	r := newRemoteRig(t, nil)
	remotePath, localPath := filepath.Join(r.env.Project, "poem.txt"), filepath.Join(r.local, "poem.txt")
	r.writeFile("poem.txt", fiveLines)
	r.api.Push(remoteChatTurn(remotePath)...)
	// The remote's side is this machine in the CLI's environment: the transport sets it,
	// as ssh's login would there.
	r.nv.Lua(nil, `
		local vars, claude = ...
		local dev = require('claude.config').get().remotes.dev
		dev.terminal = vim.list_extend({ 'env' }, vars)
		dev.claude = { claude }`, r.env.Vars(), clienv.Bin(t))
	r.nv.Cmd("edit " + localPath)
	r.nv.Lua(nil, `
		local ns = vim.api.nvim_create_namespace('e2e')
		vim.diagnostic.set(ns, 0, { { lnum = 3, col = 0, message = ..., severity = vim.diagnostic.severity.WARN } })`, message)
	r.connect()
	if h := r.health(); !strings.Contains(h, ":Claude chat remote=dev runs the chat's CLI there through env ") || !strings.Contains(h, "getDiagnostics and language-server tools from --mcp-config /") {
		t.Errorf(":checkhealth claude does not say how a chat runs on remote dev:\n%s", h)
	}

	r.nv.Cmd("ClaudeChat remote=dev")
	r.trustChat()
	r.chatSend("Please make lines two and four of poem.txt louder")
	ev := nvimtest.Next(t, r.diffs, "User ClaudeDiffOpened (the remote chat's Edit)", turnTimeout)
	if ev["path"] != localPath {
		t.Fatalf("ClaudeDiffOpened %v, want the editor's path %s", ev, localPath)
	}
	r.nv.Cmd("ClaudeDiffFocus")
	r.nv.Keys(`gg]c\ab\aa`)
	nvimtest.Next(t, r.closed, "User ClaudeDiffClosed", turnTimeout)
	r.waitChat("Only the fourth line shouts now.")
	if got, err := os.ReadFile(remotePath); err != nil || string(got) != onlyKept {
		t.Errorf("after taking back one hunk and accepting, the file holds %q (%v), want only the kept hunk: %q", got, err, onlyKept)
	}
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	defer cancel()
	res, err := r.api.ToolResult(ctx, "mcp__nvim__getDiagnostics")
	if err != nil {
		t.Fatalf("%v; requests: %d", err, len(r.api.Main()))
	}
	if got := strings.Join(res.Texts(), "\n"); res.IsError || !strings.Contains(got, message) || !strings.Contains(got, remotePath) {
		t.Errorf("getDiagnostics answered %q (error: %v), want the editor's warning under the CLI's path %s", got, res.IsError, remotePath)
	}
	res, err = r.api.ToolResult(ctx, "mcp__nvim__lsp_document_symbols")
	if err != nil {
		t.Fatalf("%v; requests: %d", err, len(r.api.Main()))
	}
	if got := strings.Join(res.Texts(), "\n"); res.IsError || !strings.Contains(got, "language server") || !strings.Contains(got, remotePath) || strings.Contains(got, localPath) {
		t.Errorf("lsp_document_symbols answered %q (error: %v), want the editor's word on its language servers, naming the CLI's path %s", got, res.IsError, remotePath)
	}
	transcript := r.chatTranscript()
	if strings.Contains(transcript, r.env.Project) {
		t.Errorf("the transcript names the remote's path %s:\n%s", r.env.Project, transcript)
	}
	if !strings.Contains(transcript, "file_path: "+localPath) {
		t.Errorf("the transcript does not show the Read under the editor's path %s:\n%s", localPath, transcript)
	}

	if t.Failed() {
		t.Logf("transcript:\n%s", transcript)
	}
}

func (r *remoteRig) chatTranscript() string {
	var lines []string
	r.nv.Lua(&lines, `
		local b = require('claude.chat').buffers()
		return b and vim.api.nvim_buf_get_lines(b.transcript, 0, -1, false) or {}`)
	return strings.Join(lines, "\n")
}

func (r *remoteRig) waitChat(want string) {
	r.t.Helper()
	nvimtest.Wait(r.t, "the chat transcript to show "+want, turnTimeout, func() bool {
		return strings.Contains("\n"+r.chatTranscript()+"\n", "\n"+want+"\n")
	})
}

// trustChat answers yes to the chat's question whether to trust the remote's folder, after
// checking that no chat CLI runs before it: the remote CLI's print mode would run the
// folder's hooks, MCP servers and settings at once (chatctl/trust.go).
func (r *remoteRig) trustChat() {
	r.t.Helper()
	nvimtest.Wait(r.t, "the chat's trust question", turnTimeout, func() bool {
		return strings.Contains("\n"+r.chatTranscript(), "\n? Do you trust the files in this folder? ")
	})
	var hostPID int
	r.nv.Lua(&hostPID, `return vim.fn.jobpid(require('claude.host').channel())`)
	if pid := chatCLIOf(hostPID); pid != 0 {
		r.t.Errorf("a chat CLI (pid %d) runs before the user trusted the remote's folder", pid)
	}
	r.nv.Cmd("Claude chat trust yes")
	r.waitChat("  ⎿  trusted for remote dev until Neovim exits: Claude starts there")
}

// chatSend types text in the chat's input and sends it, once the chat's windows are open.
func (r *remoteRig) chatSend(text string) {
	r.t.Helper()
	nvimtest.Wait(r.t, "the chat's windows", startTimeout, func() bool {
		var ok bool
		r.nv.Lua(&ok, `local b = require('claude.chat').buffers()
			return b ~= nil and vim.fn.bufwinid(b.input) ~= -1`)
		return ok
	})
	r.nv.Lua(nil, `
		local b = require('claude.chat').buffers()
		vim.api.nvim_set_current_win(vim.fn.bufwinid(b.input))`)
	r.nv.Cmd("lua require('claude.typing').forget()")
	r.nv.Keys("<C-\\><C-n>i" + text + "<Esc><CR>")
	r.waitChat("> " + text)
}

// The same over real SSH, where the editor's folder is the remote's through a bind mount and
// its path does not exist there: the chat's CLI runs as the remote account, its Edit is
// reviewed under the editor's path and written as accepted, getDiagnostics is answered
// through the relay, and the turn is in :ClaudeChanges under the editor's paths. (Accepted
// whole: a hunk taken back makes the chat tell the CLI so, and that note begins a turn of
// its own in the ledger, which outside git follows only the files its own tools named: so
// in a local chat too.)
func TestOverSSHARemoteChatsTurnIsReviewedAnsweredAndInTheLedger(t *testing.T) {
	t.Parallel()
	const message = "e2e: the fourth line is never read"
	r := newSSHRigWith(t, func(r *sshRig) map[string]any {
		// The chat's transport: no terminal (stream-json on its stdio).
		return map[string]any{"terminal": append([]string{r.sshd.client[0], "-T"}, r.sshd.client[1:]...), "claude": r.remoteCLI()}
	})
	localPath, remotePath := r.writeFile("poem.txt", fiveLines)
	r.api.Push(remoteChatTurn(remotePath)...)
	r.nv.Cmd("edit " + localPath)
	r.nv.Lua(nil, `
		local ns = vim.api.nvim_create_namespace('e2e')
		vim.diagnostic.set(ns, 0, { { lnum = 3, col = 0, message = ..., severity = vim.diagnostic.severity.WARN } })`, message)
	signs := r.nv.UserEvents("ClaudeChangeSigns")
	r.nv.Cmd("ClaudeChat remote=dev") // connects first, then opens the chat
	r.trustChat()
	r.chatSend("Please make lines two and four of poem.txt louder")
	ev := nvimtest.Next(t, r.diffs, "User ClaudeDiffOpened (the remote chat's Edit)", turnTimeout)
	if ev["path"] != localPath {
		t.Fatalf("ClaudeDiffOpened %v, want the editor's path %s", ev, localPath)
	}
	r.nv.Cmd("ClaudeDiffFocus")
	r.nv.Cmd("ClaudeDiffAccept")
	nvimtest.Next(t, r.closed, "User ClaudeDiffClosed", turnTimeout)
	r.waitChat("Only the fourth line shouts now.")
	if got, err := os.ReadFile(localPath); err != nil || string(got) != "one\nTWO\nthree\nFOUR\nfive\n" {
		t.Errorf("after accepting, the file holds %q (%v), want the edit", got, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	defer cancel()
	res, err := r.api.ToolResult(ctx, "mcp__nvim__getDiagnostics")
	if err != nil {
		t.Fatalf("%v; requests: %d", err, len(r.api.Main()))
	}
	if got := strings.Join(res.Texts(), "\n"); res.IsError || !strings.Contains(got, message) {
		t.Errorf("getDiagnostics answered %q (error: %v), want the editor's warning", got, res.IsError)
	}
	nvimtest.Next(t, signs, "the change signs pushed when the turn ended (its Stop hook, over the chat's control channel)", turnTimeout)
	list := r.changesList(r.nv.UserEvents("ClaudeChanges"))
	if !strings.Contains(list, "M poem.txt  +2 -2") {
		t.Errorf(":ClaudeChanges lacks the remote chat's turn on poem.txt:\n%s", list)
	}
	if strings.Contains(list, r.env.Project) {
		t.Errorf(":ClaudeChanges names the remote path %s:\n%s", r.env.Project, list)
	}
	if t.Failed() {
		t.Logf("transcript:\n%s", r.chatTranscript())
	}
}

// changesList opens :ClaudeChanges from a file's window and returns its lines; replies are
// the ClaudeChanges events.
func (r *remoteRig) changesList(replies <-chan map[string]any) string {
	r.t.Helper()
	r.nv.Lua(nil, `
		for _, w in ipairs(vim.api.nvim_list_wins()) do
			if vim.bo[vim.api.nvim_win_get_buf(w)].buftype == '' and vim.api.nvim_buf_get_name(vim.api.nvim_win_get_buf(w)) ~= '' then
				vim.api.nvim_set_current_win(w)
				break
			end
		end`)
	r.nv.Cmd("ClaudeChanges")
	for {
		data := nvimtest.Next(r.t, replies, "the ledger's list", turnTimeout)
		if data["op"] == "list" {
			break
		}
	}
	var lines []string
	r.nv.Lua(&lines, `return vim.api.nvim_buf_get_lines(0, 0, -1, false)`)
	return strings.Join(lines, "\n")
}

// A remote chat's CLI asking to write a file outside the map (a hostile or confused remote):
// refused with a message in the transcript, never opened in the editor, nothing written, and
// the model told the editor refused.
func TestARemoteChatsEditOutsideTheMapIsRefusedWithAMessageAndNeverOpened(t *testing.T) {
	t.Parallel()
	r := newRemoteRig(t, nil)
	outside := filepath.Join(filepath.Dir(r.env.Project), "elsewhere.txt")
	r.api.Push(fakeapi.Write(outside, "pwned\n"), fakeapi.Say("I could not write it."))
	r.nv.Lua(nil, `
		local vars, claude = ...
		local dev = require('claude.config').get().remotes.dev
		dev.terminal = vim.list_extend({ 'env' }, vars)
		dev.claude = { claude }`, r.env.Vars(), clienv.Bin(t))
	r.connect()
	r.nv.Cmd("ClaudeChat remote=dev")
	r.trustChat()
	r.chatSend("Please write elsewhere.txt")
	r.waitChat("I could not write it.")
	transcript := r.chatTranscript()
	if want := "refused a Write request: " + outside + " is outside remote dev's map"; !strings.Contains(transcript, want) {
		t.Errorf("the transcript lacks %q:\n%s", want, transcript)
	}
	select {
	case ev := <-r.diffs:
		t.Errorf("a diff opened for a file outside the map: %v", ev)
	default:
	}
	if _, err := os.Stat(outside); !os.IsNotExist(err) {
		t.Errorf("%s exists (%v): the write outside the map ran", outside, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	defer cancel()
	res, err := r.api.ToolResult(ctx, "Write")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(res.Texts(), "\n"); !res.IsError || !strings.Contains(got, "outside the folders it shares") {
		t.Errorf("the model's Write got %q (error %v), want the editor's refusal", got, res.IsError)
	}
}

// A remote with default = true: a plain :ClaudeChat in its map's local directory runs the
// chat's CLI there, in the mapped directory (its cwd, read from /proc, the CLI's path).
func TestAPlainClaudeChatInADefaultRemotesFolderRunsItsCLIThere(t *testing.T) {
	t.Parallel()
	// The terminal command is set below, once the CLI's environment is known.
	r := newRemoteRigWith(t, nil, map[string]any{"default": true, "terminal": []string{"env"}}, fakeapi.Say("Hello from there."))
	r.nv.Lua(nil, `
		local vars, claude = ...
		local dev = require('claude.config').get().remotes.dev
		dev.terminal = vim.list_extend({ 'env' }, vars)
		dev.claude = { claude }`, r.env.Vars(), clienv.Bin(t))
	r.nv.Cmd("ClaudeChat") // connects remote dev first
	r.trustChat()
	r.chatSend("Hello?")
	r.waitChat("Hello from there.")
	var hostPID int
	r.nv.Lua(&hostPID, `return vim.fn.jobpid(require('claude.host').channel())`)
	// env and sh exec the CLI: the host's child is the CLI.
	pid := chatCLIOf(hostPID)
	if pid == 0 {
		t.Fatal("no chat CLI under the host")
	}
	cwd, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "cwd"))
	if err != nil || cwd != r.env.Project {
		t.Errorf("the chat's CLI runs in %q (%v), want the remote's path %s", cwd, err, r.env.Project)
	}
}

// remoteChatTurn is the remote chat scenarios' turn on the CLI's path of poem.txt: the
// editor's tools through the relay, then an edit of two hunks to review.
func remoteChatTurn(remotePath string) []fakeapi.Turn {
	return []fakeapi.Turn{
		fakeapi.Use("mcp__nvim__getDiagnostics", map[string]any{"uri": "file://" + remotePath}),
		// The language-server tools too, the path mapped: no server runs for a .txt, and
		// the editor says so about its own file.
		fakeapi.Use("mcp__nvim__lsp_document_symbols", map[string]any{"path": remotePath}),
		fakeapi.Read(remotePath),
		fakeapi.Edit(remotePath, "two\nthree\nfour", "TWO\nthree\nFOUR"),
		fakeapi.Say("Only the fourth line shouts now."),
	}
}
