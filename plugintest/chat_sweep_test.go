package plugintest

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// chatConfigArg finds the --mcp-config file in a stand-in CLI's recorded arguments.
var chatConfigArg = regexp.MustCompile(`\[--mcp-config\] \[([^\]]*claude-nvim-chat-mcp-[^\]]*)\]`)

// hookSettingsArg finds the hooks' --settings file in the same.
var hookSettingsArg = regexp.MustCompile(`\[--settings\] \[([^\]]*claude-nvim-hooks-[^\]]*)\]`)

// startChat opens :ClaudeChat in nv with a stand-in CLI and returns the Go host's pid and the
// directory of the chat's --mcp-config file.
func startChat(t *testing.T, nv *nvimtest.Nvim) (hostPID int, configDir string) {
	hostPID, configDir, _ = startChatWithHooks(t, nv)
	return hostPID, configDir
}

// startChatWithHooks is startChat, then a terminal, whose CLI's hooks (--settings) start
// the hook receiver (a chat's CLI has its hooks over its control channel); it also returns
// the receiver's directory.
func startChatWithHooks(t *testing.T, nv *nvimtest.Nvim) (hostPID int, configDir, hookDir string) {
	t.Helper()
	script, record := nvimtest.StandInCLI(t, t.TempDir())
	nv.Lua(nil, `require('claude').setup({ terminal_cmd = { ... } })`, script)
	nvimtest.TrustWorkspaces(t, nv)
	nv.Cmd("ClaudeChat")
	lines := nvimtest.ReadRecord(t, record)
	m := chatConfigArg.FindStringSubmatch(lines[0])
	if m == nil {
		t.Fatalf("the chat CLI got no --mcp-config: %s", lines[0])
	}
	if err := os.Remove(record); err != nil {
		t.Fatal(err)
	}
	nv.Cmd("ClaudeOpen")
	lines = nvimtest.ReadRecord(t, record)
	h := hookSettingsArg.FindStringSubmatch(lines[0])
	if h == nil {
		var logf string
		nv.Lua(&logf, `return require('claude.host').log_file()`)
		b, _ := os.ReadFile(logf)
		t.Fatalf("the terminal's CLI got no hooks' --settings: %s\nLOG %s", lines[0], b)
	}
	nv.Lua(&hostPID, `return vim.fn.jobpid(require('claude.host').channel())`)
	return hostPID, filepath.Dir(m[1]), filepath.Dir(h[1])
}

// A host killed with SIGKILL leaves its chat's config directory, token included, and its hook
// receiver's directory; the next host removes them when it starts, and leaves alone what is not surely a dead host's: a
// directory whose host lives, one with another mode, one naming no host.
func TestAKilledHostsChatConfigIsSweptAtTheNextStart(t *testing.T) {
	tmp := t.TempDir()
	// A runtime directory of this test's own, short enough for the hooks' socket: else their
	// directory falls back to /tmp, where the other tests' hosts sweep it first.
	run, err := os.MkdirTemp("/tmp", "cnr")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(run) })
	nv1 := newNvim(t, nvimtest.WithEnv("TMPDIR="+tmp, "XDG_RUNTIME_DIR="+run))
	exited := nv1.UserEvents("ClaudeHostExit")
	pid1, dir1, hookDir1 := startChatWithHooks(t, nv1)
	if err := syscall.Kill(pid1, syscall.SIGKILL); err != nil {
		t.Fatalf("kill the host %d: %v", pid1, err)
	}
	nvimtest.Next(t, exited, "User ClaudeHostExit after the SIGKILL", waitTimeout) // reaped
	if _, err := os.Stat(filepath.Join(dir1, "mcp.json")); err != nil {
		t.Fatalf("the killed host's config (with its token) is not there to sweep: %v", err)
	}
	if !strings.HasPrefix(hookDir1, run) {
		t.Errorf("the hooks' directory %s is not in XDG_RUNTIME_DIR %s", hookDir1, run)
	}
	if _, err := os.Stat(filepath.Join(hookDir1, "settings.json")); err != nil {
		t.Fatalf("the killed host's hook directory is not there to sweep: %v", err)
	}

	// Decoys, named to sort after every directory MkdirTemp makes: the sweep reads the
	// directory in name order, so once the last is gone it has judged them all.
	dead := strconv.Itoa(pid1)
	decoy := func(name, pid string, mode os.FileMode) string {
		dir := filepath.Join(tmp, "claude-nvim-chat-mcp-"+name)
		if err := os.Mkdir(dir, mode); err != nil {
			t.Fatal(err)
		}
		if pid != "" {
			if err := os.WriteFile(filepath.Join(dir, "host.pid"), []byte(pid), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	live := decoy("zz-live", strconv.Itoa(os.Getpid()), 0o700)
	open := decoy("zz-open", dead, 0o755)
	unnamed := decoy("zz-unnamed", "", 0o700)
	last := decoy("zzz-dead", dead, 0o700)
	if err := os.Chmod(open, 0o755); err != nil { // past the umask
		t.Fatal(err)
	}

	// The next host's first server sweeps (a user who chats no more has them go too).
	nv2 := newNvim(t, nvimtest.WithEnv("TMPDIR="+tmp, "XDG_RUNTIME_DIR="+run))
	nv2.Cmd("ClaudeStart")
	nvimtest.Wait(t, "the sweep to remove "+last, waitTimeout, func() bool {
		_, err := os.Stat(last)
		return os.IsNotExist(err)
	})
	if _, err := os.Stat(dir1); !os.IsNotExist(err) {
		t.Errorf("the killed host's config %s outlived the next host's start: %v", dir1, err)
	}
	nvimtest.Wait(t, "the sweep to remove the killed host's hook directory "+hookDir1, waitTimeout, func() bool {
		_, err := os.Stat(hookDir1)
		return os.IsNotExist(err)
	})
	_, dir2 := startChat(t, nv2)
	for _, dir := range []string{live, open, unnamed, dir2} {
		if _, err := os.Stat(dir); err != nil {
			t.Errorf("the sweep removed %s, which is not a dead host's: %v", dir, err)
		}
	}
	if !strings.HasPrefix(dir2, tmp) {
		t.Errorf("the chat's config %s is not under TMPDIR %s", dir2, tmp)
	}
}

// A clean exit leaves nothing to sweep: Neovim quits, its host closes the hook receiver and
// removes its directory (socket, settings, owner file) before it is gone.
func TestACleanExitRemovesTheHookDirectory(t *testing.T) {
	run, err := os.MkdirTemp("/tmp", "cnr") // short enough for the socket
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(run) })
	nv := newNvim(t, nvimtest.WithEnv("TMPDIR="+t.TempDir(), "XDG_RUNTIME_DIR="+run))
	pid, _, hookDir := startChatWithHooks(t, nv)
	if !strings.HasPrefix(hookDir, run) {
		t.Fatalf("the hooks' directory %s is not in XDG_RUNTIME_DIR %s", hookDir, run)
	}
	if _, err := os.Stat(filepath.Join(hookDir, "host.pid")); err != nil {
		t.Fatalf("the hook directory before the exit: %v", err)
	}
	_ = nv.Nvim.Close()
	nvimtest.Wait(t, "the host to exit", waitTimeout, func() bool {
		return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
	})
	if _, err := os.Lstat(hookDir); !os.IsNotExist(err) {
		entries, _ := os.ReadDir(hookDir)
		t.Errorf("the hook directory %s outlived a clean exit (%v): %v", hookDir, entries, err)
	}
}
