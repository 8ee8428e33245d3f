package e2e

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/lockfile"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// A broken SSH connection (issue 41): the relay's ssh is killed mid-review. The user is
// told, the relay there ends and its lock with it, the plugin connects again by itself
// with the same address and token, the CLI there comes back on its own, and the edit under
// review is still the CLI's to ask about: answered there, it is written.
func TestOverSSHADroppedConnectionComesBackByItselfAndTheReviewIsNotLost(t *testing.T) {
	t.Parallel()
	r := newSSHRig(t)
	localPath, remotePath := r.writeFile("greet.txt", original)
	r.api.Push(fakeapi.Read(remotePath), fakeapi.Edit(remotePath, "two", "TWO"), fakeapi.Say("Edited."))
	st := r.connect()
	r.startCLI()
	r.nv.Cmd("edit " + localPath)
	r.nv.Cmd("lua require('claude.typing').forget()")
	r.prompt("Change two")
	nvimtest.Next(t, r.diffs, "User ClaudeDiffOpened (the remote CLI's openDiff)", turnTimeout)

	if err := syscall.Kill(r.transportPID(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	nvimtest.Next(t, r.closed, "User ClaudeDiffClosed after the connection broke", turnTimeout)
	nvimtest.Wait(t, "the user told of the drop", turnTimeout, func() bool {
		var msgs string
		r.nv.Lua(&msgs, `return vim.fn.execute('messages')`)
		return strings.Contains(msgs, "remote dev dropped")
	})
	nvimtest.Wait(t, "the old relay gone", turnTimeout, func() bool {
		_, err := os.Stat(fmt.Sprintf("/proc/%d", st.PID))
		return err != nil
	})
	back := r.waitState("connected", 1) // the CLI there is back
	if back.PID == st.PID || back.Port != st.Port {
		t.Errorf("after the drop: relay pid %d port %d, want a new relay at the old port %d", back.PID, back.Port, st.Port)
	}
	if info, err := lockfile.Read(back.Lockfile); err != nil || info.PID != back.PID {
		t.Errorf("the lock after the drop: %+v (%v), want the new relay's pid %d", info, err, back.PID)
	}
	r.answer(clienv.PermissionMarker)
	r.waitText("Edited.")
	nvimtest.Wait(t, "the edit answered in the CLI written", turnTimeout, func() bool {
		got, err := os.ReadFile(localPath)
		return err == nil && string(got) == "one\nTWO\nthree\n"
	})
}

// transportPID finds the ssh carrying remote dev's relay (its command ends in "relay").
func (r *sshRig) transportPID() int {
	r.t.Helper()
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		args := strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
		if args[0] == "ssh" && args[len(args)-1] == "relay" && strings.Contains(string(b), "\x00"+strconv.Itoa(r.sshd.port)+"\x00") {
			return pid
		}
	}
	r.t.Fatal("no ssh carrying the relay")
	return 0
}
