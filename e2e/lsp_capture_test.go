package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// TestCaptureClaudeFindingReferences writes the screen of a chat whose model asks the
// editor's gopls for Greet's references (Neovim in tmux, the real CLI, the stand-in API, a
// real gopls) to $LSP_CAPTURE, for the README and :help. It only runs when that is set.
func TestCaptureClaudeFindingReferences(t *testing.T) {
	out, cli, api, env := captureSetup(t, "LSP_CAPTURE")
	files := map[string]string{}
	for name, content := range nvimtest.GoModule {
		files[name] = filepath.Join(env.Project, name)
		if err := os.WriteFile(files[name], []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	api.Push(
		fakeapi.Use("mcp__nvim__lsp_references", map[string]any{"path": "greet.go", "line": 4, "symbol": "Greet"}),
		fakeapi.Stream("`Greet` is called three times, all in main.go: twice in `main` (lines 6 and 7) and once in `helper` (line 12).", 6, 0),
	)
	goEnv := ""
	for _, kv := range nvimtest.GoplsEnv(t) {
		k, v, _ := strings.Cut(kv, "=")
		goEnv += k + " = " + luaString(v) + ", "
	}
	term := neovimInTmux(t, env, env.Project, cli, 190, 24, `
vim.api.nvim_create_autocmd('FileType', { pattern = 'go', callback = function(ev)
  vim.lsp.start({ name = 'gopls', cmd = { `+luaString(nvimtest.Gopls(t))+` }, root_dir = vim.fn.getcwd(), cmd_env = { `+goEnv+` } }, { bufnr = ev.buf })
end })
vim.api.nvim_create_autocmd('VimEnter', { nested = true, callback = function() vim.cmd.edit('greet.go') end })`)
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	defer cancel()
	if _, err := term.WaitForText(ctx, "Greet says hello"); err != nil {
		t.Fatal(err)
	}
	openChat(ctx, t, term, ":ClaudeChat")
	term.Type("iWhere is Greet called?")
	term.Send("C-s")
	if _, err := term.WaitForText(ctx, "once in"); err != nil {
		t.Fatal(err)
	}
	term.Send("Escape")
	// The tool's answer unfolded, as the user opens it to read what Claude read.
	term.Type(":lua vim.api.nvim_set_current_win(vim.fn.bufwinid(require('claude.chat').buffers().transcript))")
	term.Send("Enter")
	term.Type("zRgg:echo")
	term.Send("Enter")
	screen := settledScreen(t, term)
	writeCapture(t, out, screen)
}
