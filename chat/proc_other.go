//go:build !unix

package chat

import (
	"os"
	"os/exec"
)

func setProcessGroup(*exec.Cmd) {}

func killProcess(cmd *exec.Cmd) { cmd.Process.Kill() }

func signalOf(*os.ProcessState) string { return "" }
