package plugintest

import (
	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

func statusline(t *testing.T, nv *nvimtest.Nvim) string {
	t.Helper()
	var s string
	nv.Lua(&s, `return require('claude').statusline()`)
	return s
}

// The documented User events fire with their data, and the statusline
// follows the same states: "" → "Claude ○" → "Claude ●" → "Claude ○" → "".
func TestServerAndClientEventsAndTheStatusline(t *testing.T) {
	nv := newNvim(t)
	nv.Lua(nil, `require('claude').setup({})`)
	started := nv.UserEvents("ClaudeServerStarted")
	connected := nv.UserEvents("ClaudeConnected")
	disconnected := nv.UserEvents("ClaudeDisconnected")
	stopped := nv.UserEvents("ClaudeServerStopped")

	if got := statusline(t, nv); got != "" {
		t.Errorf("statusline before anything started = %q, want \"\"", got)
	}

	nv.Cmd("ClaudeStart")
	s := status(t, nv)
	ev := nvimtest.Next(t, started, "User ClaudeServerStarted", waitTimeout)
	if ev["running"] != true || nvimtest.Int(ev["port"]) != s.Port || ev["lockfile"] != s.Lockfile {
		t.Errorf("ClaudeServerStarted data = %v, want running, port %d, lockfile %s", ev, s.Port, s.Lockfile)
	}
	if got := statusline(t, nv); got != "Claude ○" {
		t.Errorf("statusline with the server waiting = %q, want \"Claude ○\"", got)
	}

	c := connect(t, nv)
	ev = nvimtest.Next(t, connected, "User ClaudeConnected", waitTimeout)
	if ev["connected"] != true || nvimtest.Int(ev["clients"]) != 1 || nvimtest.Int(ev["pid"]) != os.Getpid() || ev["name"] != "mcptest" || ev["version"] != "1" {
		t.Errorf("ClaudeConnected data = %v, want connected, 1 client, pid %d, name mcptest, version 1", ev, os.Getpid())
	}
	if got := statusline(t, nv); got != "Claude ●" {
		t.Errorf("statusline with a client = %q, want \"Claude ●\"", got)
	}

	c.Close()
	ev = nvimtest.Next(t, disconnected, "User ClaudeDisconnected", waitTimeout)
	if ev["connected"] != false || nvimtest.Int(ev["clients"]) != 0 || ev["name"] != "mcptest" {
		t.Errorf("ClaudeDisconnected data = %v, want connected false, 0 clients, name mcptest", ev)
	}
	if got := statusline(t, nv); got != "Claude ○" {
		t.Errorf("statusline after the client left = %q, want \"Claude ○\"", got)
	}

	nv.Cmd("ClaudeStop")
	ev = nvimtest.Next(t, stopped, "User ClaudeServerStopped", waitTimeout)
	if ev["running"] != false {
		t.Errorf("ClaudeServerStopped data = %v, want running false", ev)
	}
	if got := statusline(t, nv); got != "" {
		t.Errorf("statusline after :Claude server stop = %q, want \"\"", got)
	}
}

func TestClaudeTerminalExitedCarriesTheExitCode(t *testing.T) {
	nv := newNvim(t)
	nv.Lua(nil, `require('claude').setup({ terminal_cmd = { 'sh', '-c', 'exit 3' } })`)
	exited := nv.UserEvents("ClaudeTerminalExited")
	nv.Cmd("ClaudeOpen")
	ev := nvimtest.Next(t, exited, "User ClaudeTerminalExited", waitTimeout)
	if nvimtest.Int(ev["code"]) != 3 {
		t.Errorf("ClaudeTerminalExited data = %v, want code 3", ev)
	}
}

// A user's mapping to <Plug>(ClaudeSend) sends the selected lines, or the
// whole file from Normal mode.
func TestPlugClaudeSendMentionsTheSelectionOrTheFile(t *testing.T) {
	nv := newNvim(t)
	nv.Lua(nil, `
		require('claude').setup({})
		vim.keymap.set({ "n", "x" }, "<Space>s", "<Plug>(ClaudeSend)")`)
	path := nv.WriteFile("notes.txt", "one\ntwo\nthree\nfour\n")
	nv.Cmd("edit " + path)
	nv.Cmd("ClaudeStart")
	c := connect(t, nv)

	nv.Keys("2GVj<Space>s")
	m := mcptest.Next[mention](t, c, "at_mentioned")
	if m.FilePath != path || m.LineStart == nil || m.LineEnd == nil || *m.LineStart != 1 || *m.LineEnd != 2 {
		t.Errorf("<Plug>(ClaudeSend) on lines 2-3 sent %v, want %s 1..2 (0-based)", m, path)
	}

	nv.Keys("<Esc>gg<Space>s")
	m = mcptest.Next[mention](t, c, "at_mentioned")
	if m.FilePath != path || m.LineStart != nil || m.LineEnd != nil {
		t.Errorf("<Plug>(ClaudeSend) in Normal mode sent %v, want the whole file %s", m, path)
	}
}

// log.level filters what the Go host writes to log.file, and :Claude log
// opens that file.
func TestTheLogFileHonoursTheLevelAndClaudeLogOpensIt(t *testing.T) {
	for _, tc := range []struct {
		level     string
		wantStart bool // "server started" is logged at info
	}{
		{"debug", true},
		{"info", true},
		{"warn", false},
		{"error", false},
	} {
		t.Run(tc.level, func(t *testing.T) {
			nv := newNvim(t)
			logFile := filepath.Join(t.TempDir(), "claude.log")
			nv.Lua(nil, `require('claude').setup({ log = { level = ..., file = select(2, ...) } })`, tc.level, logFile)
			nv.Cmd("ClaudeStart")
			b, err := os.ReadFile(logFile)
			if err != nil {
				t.Fatalf("no log file after :Claude server start: %v", err)
			}
			if got := strings.Contains(string(b), "server started"); got != tc.wantStart {
				t.Errorf("level %s: log has \"server started\" = %v, want %v; log:\n%s", tc.level, got, tc.wantStart, b)
			}
			nv.Cmd("ClaudeLog")
			var shown struct {
				Name     string `msgpack:"name"`
				Readonly bool   `msgpack:"readonly"`
			}
			nv.Lua(&shown, `return { name = vim.api.nvim_buf_get_name(0), readonly = vim.bo.readonly }`)
			if shown.Name != logFile || !shown.Readonly {
				t.Errorf(":Claude log shows %q (readonly %v), want %s read-only", shown.Name, shown.Readonly, logFile)
			}
		})
	}
}

// Without log.file the log goes to stdpath("log")/claude.log.
func TestTheDefaultLogFileIsInStdpathLog(t *testing.T) {
	nv := newNvim(t)
	nv.Lua(nil, `require('claude').setup({})`)
	var want string
	nv.Lua(&want, `return vim.fn.stdpath("log") .. "/claude.log"`)
	nv.Cmd("ClaudeStart")
	if _, err := os.Stat(want); err != nil {
		t.Errorf("the default log file: %v", err)
	}
}
