package host

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/claude-nvim/claude.nvim/lockfile"
	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

func TestWorkspaceFoldersFollowTheWorkingDirectory(t *testing.T) {
	e := newEnv(t)
	port, _ := e.start()
	for _, step := range []struct{ cmd, dir string }{
		{"cd", "a"},
		{"tcd", "b"},
		{"lcd", "c"},
	} {
		dir := filepath.Join(e.nv.Cwd, step.dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		e.nv.Cmd(step.cmd + " " + dir)
		nvimtest.Wait(t, ":"+step.cmd+" to reach the lock file", waitTimeout, func() bool {
			info, err := lockfile.Read(e.lockPath(port))
			return err == nil && len(info.WorkspaceFolders) > 0 && info.WorkspaceFolders[0] == dir
		})
	}
	info, _ := lockfile.Read(e.lockPath(port))
	for _, d := range []string{"a", "b", "c"} {
		if !slices.Contains(info.WorkspaceFolders, filepath.Join(e.nv.Cwd, d)) {
			t.Errorf("workspaceFolders %q lack %s (global, tab and window directories all count)", info.WorkspaceFolders, d)
		}
	}
}

func TestClaudeStopRemovesTheLockAndClaudeStartMakesANewOne(t *testing.T) {
	e := newEnv(t)
	port, first := e.start()
	e.nv.Cmd("ClaudeStop")
	if _, err := os.Stat(e.lockPath(port)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("after :Claude server stop the lock file is still there (stat: %v)", err)
	}
	port2, second := e.start()
	if second.AuthToken == first.AuthToken {
		t.Errorf("a restarted server reused the token; each start needs a fresh one")
	}
	if _, err := os.Stat(e.lockPath(port2)); err != nil {
		t.Errorf("after a second :Claude server start: %v", err)
	}
}

// built is bin/claude-nvim built from this checkout, once per test run
// (several tests start the real host, in parallel); TestMain removes it.
var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

// buildBinary returns the binary built from this checkout.
func buildBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "claude-nvim-host-test-")
		if built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "claude-nvim")
		cmd := exec.Command("go", "build", "-o", built.bin, ".")
		cmd.Dir = nvimtest.RepoRoot()
		if out, err := cmd.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %w\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

// The real setup: Neovim starts bin/claude-nvim as its remote-plugin host.
// Killing Neovim outright (no exit autocmds, no SIGTERM to jobs) closes the
// host's stdin; the host must notice and remove the lock file.
func TestTheLockIsRemovedWhenNeovimIsKilled(t *testing.T) {
	bin := buildBinary(t)
	nv := nvimtest.New(t)
	nv.Lua(nil, `vim.g.claude_nvim_binary = ...`, bin)
	nv.Cmd("lua require('claude').setup({})")
	nv.Cmd("ClaudeStart")
	var st struct {
		Port     int    `msgpack:"port"`
		Lockfile string `msgpack:"lockfile"`
	}
	nv.Lua(&st, `return require('claude').status()`)
	if st.Lockfile != filepath.Join(nv.Dir, "claude", "ide", itoa(st.Port)+".lock") {
		t.Fatalf("lock file %q, want it under CLAUDE_CONFIG_DIR/ide; messages:\n%s", st.Lockfile, nv.Messages())
	}
	info, err := lockfile.Read(st.Lockfile)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(info.PID, syscall.SIGKILL); err != nil {
		t.Fatalf("kill nvim %d: %v", info.PID, err)
	}
	nvimtest.Wait(t, "the host to remove the lock file", waitTimeout, func() bool {
		_, err := os.Stat(st.Lockfile)
		return errors.Is(err, fs.ErrNotExist)
	})
}

func TestAStaleBinaryIsRefusedWithTheCommandToRun(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, "claude-nvim")
	// A binary that answers the handshake with another version.
	src := "#!/bin/sh\nexec " + buildBinary(t) + " \"$@\"\n"
	if err := os.WriteFile(stale, []byte(src), 0o755); err != nil {
		t.Fatal(err)
	}
	nv := nvimtest.New(t)
	nv.Lua(nil, `vim.g.claude_nvim_binary = ...; require('claude').version = '0.0.0-other'`, stale)
	install := "run `" + nvimtest.RepoRoot() + "/scripts/install-binary`"
	if msg := commandMessages(t, nv, "ClaudeStart"); !contains(msg, "but the plugin is 0.0.0-other: update it: "+install) {
		t.Errorf(":Claude server start with a stale binary said %q; want it to say to %s", msg, install)
	}
	// Nothing of the refused host may linger: editing goes on without errors.
	if err := nv.Command("doautocmd CursorMoved | doautocmd BufEnter | doautocmd ModeChanged"); err != nil {
		t.Errorf("editor events after the refusal: %v", err)
	}
	nv.Lua(nil, `vim.g.claude_nvim_binary = ...`, filepath.Join(dir, "missing"))
	if msg := commandMessages(t, nv, "ClaudeStart"); !contains(msg, "is missing: "+install) {
		t.Errorf(":Claude server start without a binary said %q; want it to say to %s", msg, install)
	}
}

// If the host process dies, Neovim must keep working (no errors from the
// manifest's autocmds), a diff it showed must close (nobody can answer it),
// and a new host must take over the port and token, so that a running CLI
// reconnects by itself. A host that dies again right away is not restarted
// again: the user is told, and the lock file goes.
func TestTheGoHostIsRestartedAfterItDies(t *testing.T) {
	bin := buildBinary(t)
	nv := nvimtest.New(t)
	nv.Lua(nil, `vim.g.claude_nvim_binary = ...`, bin)
	started := nv.UserEvents("ClaudeServerStarted")
	closed := nv.UserEvents("ClaudeDiffClosed")
	opened := nv.UserEvents("ClaudeDiffOpened")
	nv.Cmd("ClaudeStart")
	nvimtest.Next(t, started, "the server to start", waitTimeout)
	var st struct {
		Port     int    `msgpack:"port"`
		Lockfile string `msgpack:"lockfile"`
	}
	nv.Lua(&st, `return require('claude').status()`)
	first, err := lockfile.Read(st.Lockfile)
	if err != nil {
		t.Fatal(err)
	}
	c := mcptest.Dial(t, "ws://127.0.0.1:"+itoa(st.Port), first.AuthToken)
	c.Initialize()
	path := nv.WriteFile("greet.txt", original)
	p, err := c.Start("tools/call", map[string]any{"name": "openDiff", "arguments": map[string]any{
		"old_file_path": path, "new_file_path": path, "new_file_contents": proposed, "tab_name": tab,
	}})
	if err != nil {
		t.Fatal(err)
	}
	nvimtest.Next(t, opened, "the diff to open", waitTimeout)

	kill := func() int {
		t.Helper()
		var pid int
		nv.Lua(&pid, `return vim.fn.jobpid(require('claude.host').channel())`)
		if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		return pid
	}
	dead := kill()
	if ev := nvimtest.Next(t, closed, "the dead host's diff to close", waitTimeout); ev["result"] != "closed" {
		t.Errorf("ClaudeDiffClosed %v, want result closed", ev)
	}
	if _, err := p.Wait(); err == nil {
		t.Errorf("the openDiff of a dead host got an answer; want the connection gone")
	}
	if msg := commandMessages(t, nv, "ClaudeDiffAccept"); strings.Contains(msg, "E117") || !strings.Contains(msg, "no Claude diff here") {
		t.Errorf(":Claude review accept after the host died said %q; want no diff here (and no E117)", msg)
	}
	ev := nvimtest.Next(t, started, "the host to be restarted", waitTimeout)
	if nvimtest.Int(ev["port"]) != st.Port {
		t.Errorf("the restarted server listens on %v, want the old port %d", ev["port"], st.Port)
	}
	again, err := lockfile.Read(st.Lockfile)
	if err != nil || again.AuthToken != first.AuthToken {
		t.Errorf("after the restart the lock file reads %+v (err %v); want the old token again", again, err)
	}
	var pid int
	nv.Lua(&pid, `return vim.fn.jobpid(require('claude.host').channel())`)
	if pid == dead {
		t.Errorf("the host pid is still %d", pid)
	}
	if msgs := nv.Messages(); !strings.Contains(msgs, "the Go host exited with code 137 (see :Claude log); restarting it") {
		t.Errorf("the user was not told; messages:\n%s", msgs)
	}
	if err := nv.Command("doautocmd CursorMoved | doautocmd BufEnter | doautocmd DirChanged"); err != nil {
		t.Errorf("editor events after the restart: %v", err)
	}

	kill()
	nvimtest.Wait(t, "the second death to be noticed", waitTimeout, func() bool {
		return strings.Contains(nv.Messages(), "again, right after a restart")
	})
	if _, err := os.Stat(st.Lockfile); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the dead host's lock file %s is still there (stat: %v)", st.Lockfile, err)
	}
	if err := nv.Command("doautocmd CursorMoved | doautocmd BufEnter | doautocmd DirChanged"); err != nil {
		t.Errorf("editor events after the host died: %v", err)
	}
	nv.Cmd("ClaudeStart")
	var running bool
	nv.Lua(&running, `return require('claude').status().running`)
	if !running {
		t.Errorf(":Claude server start after the host died twice did not start it; messages:\n%s", nv.Messages())
	}
}

// auto_start must not make Neovim wait for the Go host: the start is a
// notification and the host reports back when the server listens.
func TestAutoStartStartsTheServerWithoutWaiting(t *testing.T) {
	bin := buildBinary(t)
	nv := nvimtest.New(t)
	nv.Lua(nil, `vim.g.claude_nvim_binary = ...`, bin)
	started := nv.UserEvents("ClaudeServerStarted")
	var before bool
	nv.Lua(&before, `
		require('claude').setup({ auto_start = true })
		vim.wait(0) -- let the scheduled start run
		return require('claude.host').running()`)
	ev := nvimtest.Next(t, started, "the server to start", waitTimeout)
	lock, _ := ev["lockfile"].(string)
	if _, err := os.Stat(lock); err != nil {
		t.Errorf("after auto_start the lock file %q: %v", lock, err)
	}
	var running bool
	nv.Lua(&running, `return require('claude.host').running()`)
	if before || !running {
		t.Errorf("host running right after setup: %v (want false: nothing waited), after the event: %v (want true)", before, running)
	}
}

func TestAutoStartWithAStaleBinarySaysToRebuild(t *testing.T) {
	bin := buildBinary(t)
	nv := nvimtest.New(t)
	nv.Lua(nil, `vim.g.claude_nvim_binary = ...; require('claude').version = '0.0.0-other'`, bin)
	nv.Lua(nil, `require('claude').setup({ auto_start = true })`)
	nvimtest.Wait(t, "the stale binary to be reported", waitTimeout, func() bool {
		return contains(nv.Messages(), "but the plugin is 0.0.0-other: update it: run `"+nvimtest.RepoRoot()+"/scripts/install-binary`")
	})
	if err := nv.Command("doautocmd CursorMoved | doautocmd BufEnter"); err != nil {
		t.Errorf("editor events after the refusal: %v", err)
	}
}
