package plugintest

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// When the Go host dies, User ClaudeHostExit says so with its exit code and
// whether the plugin starts it again: the first death after the server ran
// is restarted, a second one right after that restart is not.
func TestClaudeHostExitSaysWhetherTheHostIsRestarted(t *testing.T) {
	nv := newNvim(t)
	nv.Lua(nil, `require('claude').setup({})`)
	started := nv.UserEvents("ClaudeServerStarted")
	exited := nv.UserEvents("ClaudeHostExit")
	nv.Cmd("ClaudeStart")
	nvimtest.Next(t, started, "the server to start", waitTimeout)

	kill := func() {
		t.Helper()
		var pid int
		nv.Lua(&pid, `return vim.fn.jobpid(require('claude.host').channel())`)
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatalf("kill the host %d: %v", pid, err)
		}
	}
	kill()
	ev := nvimtest.Next(t, exited, "User ClaudeHostExit after the first death", waitTimeout)
	if nvimtest.Int(ev["code"]) != 137 || ev["restart"] != true {
		t.Errorf("ClaudeHostExit data after the first death = %v, want code 137, restart true", ev)
	}
	nvimtest.Next(t, started, "the restarted server", waitTimeout)

	kill()
	ev = nvimtest.Next(t, exited, "User ClaudeHostExit after the second death", waitTimeout)
	if nvimtest.Int(ev["code"]) != 137 || ev["restart"] != false {
		t.Errorf("ClaudeHostExit data right after a restart = %v, want code 137, restart false", ev)
	}
}

// sessionServer is one entry of require('claude').status().sessions.
type sessionServer struct {
	Session int `msgpack:"session"`
	Port    int `msgpack:"port"`
}

func sessionServers(t *testing.T, nv *nvimtest.Nvim) map[int]int {
	t.Helper()
	var list []sessionServer
	nv.Lua(&list, `return require('claude').status().sessions or {}`)
	ports := map[int]int{}
	for _, s := range list {
		ports[s.Session] = s.Port
	}
	return ports
}

// After the Go host died and came back, every terminal session's server
// listens again on its old port, so each CLI can reconnect: the first
// server's restart brings the others back (terminal/servers.lua, on
// ClaudeServerStarted).
func TestEverySessionsServerComesBackAfterTheHostDies(t *testing.T) {
	nv := newNvim(t)
	nv.Lua(nil, `require('claude').setup({ terminal_cmd = { 'sh', '-c', 'exec cat', 'cli' }, permission_mode = false })`)
	a, b := filepath.Join(nv.Dir, "a"), filepath.Join(nv.Dir, "b")
	for _, dir := range []string{a, b} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	nv.Cmd("cd " + a)
	nv.Cmd("ClaudeOpen")
	nv.Cmd("stopinsert | tabnew")
	nv.Cmd("tcd " + b)
	nv.Cmd("ClaudeOpen")
	nv.Cmd("stopinsert")
	before := sessionServers(t, nv)
	if len(before) != 2 {
		t.Fatalf("after :Claude open in two directories: servers %v, want two; messages:\n%s", before, nv.Messages())
	}

	exited := nv.UserEvents("ClaudeHostExit")
	var pid int
	nv.Lua(&pid, `return vim.fn.jobpid(require('claude.host').channel())`)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatalf("kill the host %d: %v", pid, err)
	}
	nvimtest.Next(t, exited, "User ClaudeHostExit", waitTimeout)
	nvimtest.Wait(t, "both sessions' servers back on their ports", waitTimeout, func() bool {
		after := sessionServers(t, nv)
		return len(after) == 2 && after[1] == before[1] && after[2] == before[2]
	})
}
