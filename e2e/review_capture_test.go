package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

// TestCaptureTheInboxAndTheChangesScopes writes two screens for the README and :help to the
// folder $REVIEW_CAPTURE (Neovim in tmux, the real CLI, the stand-in API): inbox.txt,
// :Claude sessions after a chat in acceptEdits wrote two files unreviewed; changes.txt,
// :Claude changes uncommitted, the same files against HEAD. It only runs when that is set.
func TestCaptureTheInboxAndTheChangesScopes(t *testing.T) {
	out, cli, api, env := captureSetup(t, "REVIEW_CAPTURE")
	files := map[string]string{
		"a.txt": "one\ntwo\nthree\n",
		"b.txt": "four\nfive\nsix\n",
	}
	var reads, edits []fakeapi.ToolUse
	for _, name := range []string{"a.txt", "b.txt"} {
		path := filepath.Join(env.Project, name)
		if err := os.WriteFile(path, []byte(files[name]), 0o644); err != nil {
			t.Fatal(err)
		}
		reads = append(reads, fakeapi.ToolUse{Name: "Read", Input: map[string]any{"file_path": path}})
	}
	edits = append(edits,
		fakeapi.ToolUse{Name: "Edit", Input: map[string]any{"file_path": filepath.Join(env.Project, "a.txt"), "old_string": "two", "new_string": "TWO"}},
		fakeapi.ToolUse{Name: "Edit", Input: map[string]any{"file_path": filepath.Join(env.Project, "b.txt"), "old_string": "five", "new_string": "FIVE"}})
	for _, args := range [][]string{{"init", "-q"}, {"add", "a.txt", "b.txt"}, {"commit", "-qm", "base"}} {
		cmd := exec.Command("git", append([]string{"-c", "user.name=U", "-c", "user.email=u@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = env.Project
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, b)
		}
	}
	api.Push(fakeapi.Turn{Tools: reads}, fakeapi.Turn{Tools: edits}, fakeapi.Say("Lines two and five are louder now."))
	term := neovimInTmux(t, env, env.Project, cli, 120, 24, `
require('claude').setup({ terminal_cmd = { `+luaString(cli)+` }, permission_mode = 'acceptEdits' })
vim.api.nvim_create_autocmd('VimEnter', { nested = true, callback = function() vim.cmd.edit('a.txt') end })`)
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	defer cancel()
	if _, err := term.WaitForText(ctx, "three"); err != nil {
		t.Fatal(err)
	}
	openChat(ctx, t, term, ":ClaudeChat")
	term.Type("iMake lines two and five louder")
	term.Send("C-s")
	if _, err := term.WaitForText(ctx, "are louder now"); err != nil {
		t.Fatal(err)
	}
	term.Send("Escape")
	for _, shot := range []struct{ cmd, wait, file string }{
		{":Claude sessions", "b.txt", "inbox.txt"},
		{":Claude changes uncommitted", "b.txt", "changes.txt"},
	} {
		term.Type(":tabnew")
		term.Send("Enter")
		term.Type(shot.cmd)
		term.Send("Enter")
		if _, err := term.WaitForText(ctx, shot.wait); err != nil {
			t.Fatal(err)
		}
		screen := settledScreen(t, term)
		if err := os.WriteFile(filepath.Join(out, shot.file), []byte(screen), 0o644); err != nil {
			t.Fatal(err)
		}
		term.Send("Escape")
	}
}
