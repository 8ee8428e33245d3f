package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The remote over real SSH (issue 41): OpenSSH's server on 127.0.0.1 (sshd_test.go), the
// remote side's account sshUser, the CLI running as that account in an SSH session, and the
// editor's files at another path there: the server's mount namespace binds the editor's
// directory at the CLI's project path and hides the editor's own path under an empty tmpfs,
// as on another machine whose sshfs or bind mount puts the files elsewhere.

// sshRig is a remoteRig whose remote is the SSH server's account.
type sshRig struct {
	*remoteRig
	sshd      *sshServer
	uid, gid  int
	remoteEnv map[string]string // the CLI's environment on the remote side
}

func newSSHRig(t *testing.T, script ...fakeapi.Turn) *sshRig {
	t.Helper()
	return newSSHRigWith(t, nil, script...)
}

// newSSHRigWith is newSSHRig with more settings for remote dev; a func of the rig, as they
// may name its paths.
func newSSHRigWith(t *testing.T, extra func(*sshRig) map[string]any, script ...fakeapi.Turn) *sshRig {
	t.Helper()
	needSSH(t)
	clienv.Bin(t)
	if pluginBinary == "" {
		t.Fatal("the plugin binary was not built (TestMain)")
	}
	uid, gid := remoteAccount(t)
	api := fakeapi.New(t, script...)
	env := clienv.New(t, api.URL())
	root := filepath.Dir(env.Project)
	// The account reaches its directories through the test's (root's, 0700).
	for _, d := range []string{filepath.Dir(root), root} {
		if err := os.Chmod(d, 0o711); err != nil {
			t.Fatal(err)
		}
	}
	// The remote account's home, apart from Neovim's (env.Home), all its own.
	home := filepath.Join(root, "remote-home")
	editorDir := filepath.Join(root, "editor")
	local := filepath.Join(editorDir, "app")
	for _, d := range []string{home, local} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	rig := &sshRig{remoteRig: &remoteRig{t: t, api: api, env: env, local: local}, uid: uid, gid: gid}
	// Runs after Neovim's and the terminals' cleanups (registered later) and before the
	// temporary directory's removal (earlier): the account's processes of this test end
	// first, or one still writing in its home makes the removal fail.
	t.Cleanup(func() { rig.endRemoteProcesses(root) })
	rig.remoteEnv = map[string]string{}
	for _, kv := range env.Vars() {
		k, v, _ := strings.Cut(kv, "=")
		rig.remoteEnv[k] = v
	}
	for k, v := range map[string]string{
		"HOME": home, "USER": sshUser, "TMPDIR": filepath.Join(home, "tmp"),
		"XDG_CONFIG_HOME": filepath.Join(home, ".config"), "XDG_CACHE_HOME": filepath.Join(home, ".cache"),
		"XDG_DATA_HOME": filepath.Join(home, ".local", "share"), "XDG_STATE_HOME": filepath.Join(home, ".local", "state"),
	} {
		rig.remoteEnv[k] = v
	}
	if err := os.MkdirAll(rig.remoteEnv["TMPDIR"], 0o700); err != nil {
		t.Fatal(err)
	}
	// The relay's binary, where the account can run it (the editor's build is in root's
	// private temporary directory).
	relayBin := filepath.Join(home, "bin", "claude-nvim")
	if err := os.MkdirAll(filepath.Dir(relayBin), 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(pluginBinary)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(relayBin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{home, env.ConfigDir, env.Project, local} {
		rig.chownAll(d)
	}
	// On the remote side the editor's files are at env.Project, and the editor's path holds
	// nothing.
	rig.sshd = startSSHD(t, "mount --bind "+shellQuote(local)+" "+shellQuote(env.Project)+
		"\nmount -t tmpfs -o mode=0755,size=1m elsewhere "+shellQuote(editorDir))
	command := append(append([]string(nil), rig.sshd.client...), "--",
		"exec", "env", shellQuote("CLAUDE_CONFIG_DIR="+env.ConfigDir), shellQuote(relayBin), "relay")
	var settings map[string]any
	if extra != nil {
		settings = extra(rig)
		if _, ok := settings["exec"]; ok {
			command = nil // the plugin puts the relay there
		}
	}
	rig.start(command, settings)
	return rig
}

// chownAll gives path and everything under it to the remote account.
func (r *sshRig) chownAll(path string) {
	r.t.Helper()
	err := filepath.Walk(path, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, r.uid, r.gid)
	})
	if err != nil {
		r.t.Fatal(err)
	}
}

// writeFile writes name in the editor's directory, the remote account's file: the CLI
// writes it when an edit is accepted.
func (r *sshRig) writeFile(name, content string) (local, remote string) {
	r.t.Helper()
	local, remote = filepath.Join(r.local, name), filepath.Join(r.env.Project, name)
	if err := os.WriteFile(local, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
	r.chownAll(local)
	return local, remote
}

// remoteCLI is the CLI's command on the remote side: its whole environment, then the CLI.
func (r *sshRig) remoteCLI() []string {
	cli := []string{"env", "-i"}
	for k, v := range r.remoteEnv {
		cli = append(cli, k+"="+v)
	}
	return append(cli, clienv.Bin(r.t))
}

// startCLI logs in as the remote account in a terminal, as a user does, and runs the CLI
// with --ide in its project there.
func (r *sshRig) startCLI() {
	r.t.Helper()
	line := []string{"cd", shellQuote(r.env.Project), "&&", "exec"}
	for _, w := range r.remoteCLI() {
		line = append(line, shellQuote(w))
	}
	line = append(line, "--ide", "--permission-mode", "default")
	argv := append(append([]string{r.sshd.client[0], "-tt"}, r.sshd.client[1:]...), "--", strings.Join(line, " "))
	r.startTerm(r.local, argv)
}

// answer types 1 (Yes) to the CLI's question, again while it stays (a key typed while the
// dialog is drawn can be lost).
func (r *sshRig) answer(question string) {
	r.t.Helper()
	r.waitText(question)
	for try := 1; ; try++ {
		if err := r.cli.Type("1"); err != nil {
			r.t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), answerWait)
		_, err := r.cli.WaitUntil(ctx, "the question answered", func(s string) bool { return !strings.Contains(s, question) })
		cancel()
		if err == nil {
			return
		}
		if try == 3 {
			r.t.Fatalf("the CLI still asks %q after 1 was typed %d times", question, try)
		}
	}
}

func TestOverSSHTheRemoteCLISeesTheSelectionEditsThroughAReviewAndReadsDiagnostics(t *testing.T) {
	t.Parallel()
	const warning = "e2e: two is misspelt"
	r := newSSHRig(t)
	localPath, remotePath := r.writeFile("greet.txt", original)
	r.api.Push(fakeapi.Read(remotePath), fakeapi.Edit(remotePath, "two", "TWO"), fakeapi.Say("Edited."))
	r.api.Push(fakeapi.Use("mcp__ide__getDiagnostics", map[string]any{"uri": "file://" + remotePath}),
		fakeapi.Say("One warning."))

	st := r.connect()
	if st.PID <= 1 || !strings.Contains(st.Lockfile, r.env.ConfigDir) {
		t.Errorf("the relay's state %+v: want its pid and its lock in the remote's %s", st, r.env.LockDir())
	}
	if fi, err := os.Stat(st.Lockfile); err != nil {
		t.Errorf("the relay's lock: %v", err)
	} else if owner := fileOwner(fi); owner != r.uid || fi.Mode().Perm() != 0o600 {
		t.Errorf("the relay's lock is owned by uid %d with mode %v, want the remote account's (%d), 0600", owner, fi.Mode().Perm(), r.uid)
	}
	if _, err := os.Stat(remotePath); err == nil {
		t.Fatalf("the editor sees the remote path %s: the paths must differ", remotePath)
	}
	r.startCLI()

	r.nv.Cmd("edit " + localPath)
	r.nv.Keys("2GVj<Esc>")
	r.waitText("⧉ 2 lines selected")
	// The user stops typing here (see TestARemoteCLISeesTheSelection…: a proposal within a
	// second of their last key waits for :Claude review focus).
	r.nv.Cmd("lua require('claude.typing').forget()")
	r.prompt("Change two")
	ev := nvimtest.Next(t, r.diffs, "User ClaudeDiffOpened (the remote CLI's openDiff over SSH)", turnTimeout)
	if ev["path"] != localPath {
		t.Fatalf("ClaudeDiffOpened %v, want the editor's path %s", ev, localPath)
	}
	if got := r.mainRequest(1).LastUserText(); !strings.Contains(got, "The user selected the lines 2 to 3 from "+remotePath) {
		t.Errorf("the model request lacks the selection under the remote path %s:\n%s", remotePath, tail(got))
	}
	r.nv.Cmd("ClaudeDiffAccept")
	nvimtest.Next(t, r.closed, "User ClaudeDiffClosed", turnTimeout)
	r.waitText("Edited.")
	nvimtest.Wait(t, "the accepted edit written by the remote CLI", turnTimeout, func() bool {
		got, err := os.ReadFile(localPath)
		return err == nil && string(got) == "one\nTWO\nthree\n"
	})
	if fi, err := os.Stat(localPath); err != nil || fileOwner(fi) != r.uid {
		t.Errorf("the edited file is not the remote account's (it wrote it): %v", err)
	}

	// Diagnostics of the editor's file, asked for by the remote CLI under its path.
	r.nv.Cmd("checktime")
	r.nv.Lua(nil, `local path, message = ...
		vim.diagnostic.set(vim.api.nvim_create_namespace('e2e'), vim.fn.bufnr(path), {
			{ lnum = 1, col = 0, message = message, severity = vim.diagnostic.severity.WARN } })`, localPath, warning)
	r.prompt("What does the editor say?")
	r.answer(clienv.ProceedQuestion)
	r.waitText("One warning.")
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	defer cancel()
	res, err := r.api.ToolResult(ctx, "mcp__ide__getDiagnostics")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(res.Texts(), "\n"); res.IsError || !strings.Contains(got, warning) ||
		!strings.Contains(got, remotePath) || strings.Contains(got, r.local) {
		t.Errorf("getDiagnostics over SSH answered %q (error %v), want %q under %s only", got, res.IsError, warning, remotePath)
	}
}

// fileOwner is the uid owning a file.
func fileOwner(fi os.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid)
	}
	return -1
}

// endRemoteProcesses ends the remote account's processes of this test (their command line
// or HOME under root): SIGTERM, then SIGKILL to those left after a while.
func (r *sshRig) endRemoteProcesses(root string) {
	find := func() []int {
		var pids []int
		ents, _ := os.ReadDir("/proc")
		for _, e := range ents {
			pid, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			fi, err := os.Stat("/proc/" + e.Name())
			if err != nil || fileOwner(fi) != r.uid {
				continue
			}
			cmdline, _ := os.ReadFile("/proc/" + e.Name() + "/cmdline")
			environ, _ := os.ReadFile("/proc/" + e.Name() + "/environ")
			if strings.Contains(string(cmdline), root) || strings.Contains(string(environ), "HOME="+root) {
				pids = append(pids, pid)
			}
		}
		return pids
	}
	for _, pid := range find() {
		_ = syscall.Kill(pid, syscall.SIGTERM)
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(find()) > 0 && time.Now().Before(deadline) {
		time.Sleep(pollInterval)
	}
	for _, pid := range find() {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}
