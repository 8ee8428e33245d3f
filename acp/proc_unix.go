//go:build unix

package acp

import (
	"os"
	"os/exec"
	"syscall"
)

// setProcessGroup puts the agent in a process group of its own, so that killing the group
// also ends what it started, and a Ctrl-C in our terminal does not reach it.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills the agent's process group (the agent itself, if still there, and all it
// started that stayed in the group).
func killGroup(cmd *exec.Cmd) {
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		_ = cmd.Process.Kill()
	}
}

func signalOf(ps *os.ProcessState) string {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal().String()
	}
	return ""
}
