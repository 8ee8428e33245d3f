//go:build !unix

package acp

import (
	"os"
	"os/exec"
)

func setProcessGroup(*exec.Cmd) {}

func killGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }

func signalOf(*os.ProcessState) string { return "" }
