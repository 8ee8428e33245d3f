//go:build unix

package chat

import (
	"os"
	"os/exec"
	"syscall"
)

// setProcessGroup puts the CLI in a process group of its own, so that a kill also ends what it
// started (MCP servers, Bash tools) and a Ctrl-C in our terminal does not reach it.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killProcess kills the CLI's process group.
func killProcess(cmd *exec.Cmd) {
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		cmd.Process.Kill()
	}
}

func signalOf(ps *os.ProcessState) string {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal().String()
	}
	return ""
}
