package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// :Claude open remote=NAME (issue 41): the CLI started on the remote side through the
// remote's terminal command (here ssh -tt as the remote account), in Neovim's terminal, in
// the directory the map gives the editor's cwd there, connected through the relay; and the
// per-directory choice: a remote with default = true takes plain :Claude open in its map.

// sshOpenSettings gives remote dev the terminal command and the CLI's command there.
func sshOpenSettings(isDefault bool) func(*sshRig) map[string]any {
	return func(r *sshRig) map[string]any {
		term := append([]string{r.sshd.client[0], "-tt"}, r.sshd.client[1:]...)
		return map[string]any{"terminal": term, "claude": r.remoteCLI(), "default": isDefault}
	}
}

func TestClaudeOpenRemoteStartsTheCLIOverSSHConnectedInTheMappedDirectory(t *testing.T) {
	t.Parallel()
	r := newSSHRigWith(t, sshOpenSettings(false))
	r.openRemote("ClaudeOpen remote=dev --permission-mode default", "")

	// :Claude close in the remote's terminal ends the CLI over there and deletes the
	// terminal, with no word of an exit code: the user asked for it.
	pid := r.remoteCLIPID()
	before := r.nv.Messages()
	r.nv.Lua(nil, `vim.api.nvim_set_current_win(vim.fn.bufwinid(require('claude.terminal.remote').buf('dev')))`)
	r.nv.Cmd("ClaudeClose")
	nvimtest.Wait(t, "the remote CLI to exit", turnTimeout, func() bool {
		_, err := os.Stat(fmt.Sprintf("/proc/%d", pid))
		return err != nil
	})
	var left bool
	r.nv.Lua(&left, `return require('claude.terminal.remote').buf('dev') ~= nil`)
	if left {
		t.Error(":Claude close left the remote's terminal")
	}
	if got := strings.TrimPrefix(r.nv.Messages(), before); strings.Contains(got, "exited with code") {
		t.Errorf(":Claude close made the plugin report an exit: %q", got)
	}
}

func TestClaudeOpenInADirectoryOfADefaultRemoteStartsTheCLIThere(t *testing.T) {
	t.Parallel()
	r := newSSHRigWith(t, sshOpenSettings(true))
	r.env.Trust(t, filepath.Join(r.env.Project, "sub"))
	r.openRemote("ClaudeOpen", "sub")
}

// openRemote makes dir (under the project; "" is the project) the editor's cwd, runs cmd,
// and checks that the remote CLI runs there under the remote path, connected: it shows the
// editor's selection.
func (r *sshRig) openRemote(cmd, dir string) {
	t := r.t
	t.Helper()
	if dir != "" {
		if err := os.Mkdir(filepath.Join(r.local, dir), 0o755); err != nil {
			t.Fatal(err)
		}
		r.chownAll(filepath.Join(r.local, dir))
	}
	localPath, _ := r.writeFile(filepath.Join(dir, "greet.txt"), original)
	r.nv.Cmd("cd " + filepath.Join(r.local, dir))
	r.nv.Cmd(cmd)
	r.waitState("connected", 1)
	want := filepath.Join(r.env.Project, dir)
	if got := r.remoteCLICwd(); got != want {
		t.Errorf("the remote CLI runs in %q, want the mapped %q", got, want)
	}
	var isTerm bool
	r.nv.Lua(&isTerm, `local b = require('claude.terminal.remote').buf('dev')
		return b ~= nil and vim.bo[b].buftype == 'terminal'`)
	if !isTerm {
		t.Fatal("no terminal buffer of remote dev in Neovim")
	}
	r.nv.Cmd("wincmd p")
	r.nv.Cmd("edit " + localPath)
	r.nv.Keys("2GVj<Esc>")
	nvimtest.Wait(t, "the remote CLI's terminal showing the selection", turnTimeout, func() bool {
		var text string
		r.nv.Lua(&text, `local b = require('claude.terminal.remote').buf('dev')
			return b and table.concat(vim.api.nvim_buf_get_lines(b, 0, -1, false), '\n') or ''`)
		return strings.Contains(text, "2 lines selected")
	})
}

// remoteCLICwd finds the CLI running as the remote account with this rig's HOME and reads
// its working directory (in its own mount namespace: the remote path).
func (r *sshRig) remoteCLICwd() string {
	r.t.Helper()
	cwd, _ := os.Readlink(fmt.Sprintf("/proc/%d/cwd", r.remoteCLIPID()))
	return cwd
}

// remoteCLIPID finds the CLI running as the remote account with this rig's HOME.
func (r *sshRig) remoteCLIPID() int {
	r.t.Helper()
	home := "HOME=" + r.remoteEnv["HOME"]
	var found int
	nvimtest.Wait(r.t, "the remote CLI's process", startTimeout, func() bool {
		ents, _ := os.ReadDir("/proc")
		for _, e := range ents {
			pid, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
			environ, _ := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
			if filepath.Base(exe) != "claude" || !strings.Contains("\x00"+string(environ)+"\x00", "\x00"+home+"\x00") {
				continue
			}
			found = pid
			return true
		}
		return false
	})
	return found
}
