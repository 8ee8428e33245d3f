package e2e

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/tmuxterm"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// needNamespaces skips a test that needs new pid and mount namespaces:
// unshare needs root for them (CI's .ci/run uses sudo only for apt).
func needNamespaces(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root: unshare --pid --mount-proc stands in for a container")
	}
	for _, tool := range []string{"unshare", "nsenter"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("needs %s (util-linux): %v", tool, err)
		}
	}
}

// namespaceTransport runs the relay in new pid and mount namespaces, as a
// container's process: sh is their pid 1 and the relay pid 2 (the CLI takes
// pid 1 for no process at all).
var namespaceTransport = []string{"unshare", "--pid", "--fork", "--mount-proc", "sh", "-c", `"$@"; exit $?`, "sh"}

func TestInAContainerThePlainLockIsDeletedAndTheRelaysLockIsUsed(t *testing.T) {
	t.Parallel()
	needNamespaces(t)
	r := newRemoteRig(t, namespaceTransport)

	// First the plain lock an editor writes, with the editor's pid: the CLI in
	// its own pid namespace cannot see that pid and deletes the lock.
	var nvimPID int
	r.nv.Lua(&nvimPID, `return vim.fn.getpid()`)
	plain := filepath.Join(r.env.LockDir(), "1.lock")
	if err := os.MkdirAll(r.env.LockDir(), 0o700); err != nil {
		t.Fatal(err)
	}
	lock, _ := json.Marshal(map[string]any{"pid": nvimPID, "workspaceFolders": []string{r.env.Project},
		"ideName": "Neovim", "transport": "ws", "authToken": strings.Repeat("a", 64)})
	if err := os.WriteFile(plain, lock, 0o600); err != nil {
		t.Fatal(err)
	}
	argv := []string{"unshare", "--pid", "--fork", "--mount-proc", clienv.Bin(t), "--ide", "--permission-mode", "default"}
	alone := tmuxterm.Start(t, tmuxterm.Options{Dir: r.env.Project, Env: r.env.Vars(), Width: 120, Height: 40}, argv...)
	nvimtest.Wait(t, "the CLI in its own pid namespace deleting the editor's plain lock", startTimeout, func() bool {
		_, err := os.Stat(plain)
		return errors.Is(err, os.ErrNotExist)
	})
	alone.Close()

	// Then the relay, in a pid namespace of its own with the CLI beside it.
	st := r.connect()
	if st.PID != 2 {
		t.Errorf("the relay's lock names pid %d, want 2: its pid in its namespace", st.PID)
	}
	outer := outerPID(t, st.PID)
	r.writeFile("greet.txt", original)
	r.startCLI("nsenter", "--target", strconv.Itoa(outer), "--pid", "--mount", "--wd="+r.env.Project, "--")
	if _, err := os.Stat(st.Lockfile); err != nil {
		t.Errorf("the relay's lock is gone with the CLI beside it: %v", err)
	}
	r.nv.Cmd("edit " + filepath.Join(r.local, "greet.txt"))
	r.nv.Keys("2GVj<Esc>")
	r.waitText("⧉ 2 lines selected")
}

// outerPID finds the relay whose pid in its namespace is inner, by its
// NSpid line (outer pid first).
func outerPID(t *testing.T, inner int) int {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if !strings.HasPrefix(string(cmdline), pluginBinary+"\x00relay") {
			continue
		}
		status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
		for _, line := range strings.Split(string(status), "\n") {
			f := strings.Fields(strings.TrimPrefix(line, "NSpid:"))
			if strings.HasPrefix(line, "NSpid:") && len(f) == 2 && f[1] == strconv.Itoa(inner) {
				return pid
			}
		}
	}
	t.Fatalf("no relay with pid %d in its namespace", inner)
	return 0
}
