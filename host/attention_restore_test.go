package host

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/claudeconfig"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// attention.restore at startup brings back the terminal remembered in a trusted folder
// (`claude --resume ID`) and starts nothing in a folder the CLI does not trust.
func TestRestoreResumesTheTrustedFoldersTerminalsOnly(t *testing.T) {
	e := newEnv(t)
	cli, record := nvimtest.StandInCLI(t, t.TempDir())
	trusted, untrusted := filepath.Join(e.nv.Cwd, "trusted"), filepath.Join(e.nv.Cwd, "untrusted")
	for _, d := range []string{trusted, untrusted} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var env map[string]string
	e.nv.Lua(&env, `return vim.fn.environ()`)
	var list []string
	for k, v := range env {
		list = append(list, k+"="+v)
	}
	if err := claudeconfig.Trust(context.Background(), claudeconfig.Path(list), trusted); err != nil {
		t.Fatal(err)
	}
	var stateFile string
	e.nv.Lua(&stateFile, `return require('claude.attention').state_file()`)
	remembered, _ := json.Marshal(map[string]any{
		trusted:   map[string]any{"terminals": map[string]string{"terminal:1": "conv-trusted"}},
		untrusted: map[string]any{"terminals": map[string]string{"terminal:1": "conv-untrusted"}},
	})
	if err := os.MkdirAll(filepath.Dir(stateFile), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stateFile, remembered, 0o600); err != nil {
		t.Fatal(err)
	}

	restored := e.nv.UserEvent("ClaudeServerStarted")
	e.nv.Lua(nil, `require('claude').setup({ terminal_cmd = { ... }, attention = { restore = true } })`, cli)
	nvimtest.Next(t, restored, "the restored terminal's server to start", waitTimeout)
	got := strings.Join(nvimtest.ReadRecord(t, record), "\n")
	if !strings.Contains(got, "[--resume] [conv-trusted]") || !strings.Contains(got, "cwd "+trusted) {
		t.Errorf("the restored CLI's record:\n%s\nwant --resume conv-trusted in %s", got, trusted)
	}
	nvimtest.Wait(t, "the restore's message", waitTimeout, func() bool {
		return strings.Contains(e.nv.Messages(), "restored")
	})
	msgs := e.nv.Messages()
	if !strings.Contains(msgs, "1 session restored") || !strings.Contains(msgs, untrusted+" (not trusted") {
		t.Errorf("messages %q, want 1 session restored and the untrusted folder skipped", msgs)
	}
	var n int
	e.nv.Lua(&n, `return #require('claude.terminal').sessions()`)
	if n != 1 {
		t.Errorf("%d terminal sessions after the restore, want 1", n)
	}
}
