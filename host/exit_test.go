package host

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// stubbornCLI stands in for a chat CLI that does not exit when told: it
// ignores SIGTERM and its stdin's end, and sleeps. It records its pid and
// its arguments.
const stubbornCLI = `#!/bin/sh
trap '' TERM HUP INT
printf '%s\n' "$$" > DIR/pid
printf '%s\n' "$@" > DIR/args
cat > /dev/null
exec sleep 3600
`

// gone reports whether pid no longer runs (a zombie nobody reaped counts
// as gone: it holds nothing).
func gone(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return syscall.Kill(pid, 0) != nil
	}
	if i := bytes.LastIndexByte(stat, ')'); i > 0 && i+2 < len(stat) {
		return stat[i+2] == 'Z'
	}
	return false
}

// Neovim kills its jobs 2 s after SIGTERM. A chat CLI that takes its time
// must still be gone when Neovim has quit, and the temporary directory
// with its MCP token too: the real binary as Neovim's host, :qa!.
func TestQuittingNeovimEndsAChatCLIThatIgnoresSIGTERM(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "claude")
	if err := os.WriteFile(script, []byte(strings.ReplaceAll(stubbornCLI, "DIR", dir)), 0o755); err != nil {
		t.Fatal(err)
	}
	nv := nvimtest.New(t)
	nv.Lua(nil, `vim.g.claude_nvim_binary = ...`, bin)
	nv.Lua(nil, `require('claude').setup({ terminal_cmd = { ... } })`, script)
	nvimtest.TrustWorkspaces(t, nv)
	nv.Cmd("ClaudeChat")
	var pid int
	nvimtest.Wait(t, "the chat CLI to start", waitTimeout, func() bool {
		b, err := os.ReadFile(filepath.Join(dir, "pid"))
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		return err == nil && pid > 0
	})
	t.Cleanup(func() { syscall.Kill(-pid, syscall.SIGKILL) })
	var config string
	nvimtest.Wait(t, "the chat CLI's arguments", waitTimeout, func() bool {
		b, _ := os.ReadFile(filepath.Join(dir, "args"))
		args := strings.Split(string(b), "\n")
		for i := 1; i < len(args); i++ {
			if args[i-1] == "--mcp-config" && strings.HasSuffix(args[i], ".json") {
				config = filepath.Dir(args[i])
				return true
			}
		}
		return false
	})
	_ = nv.Command("qa!") // its answer may never come: Neovim is gone
	nvimtest.Wait(t, "the chat CLI to end once Neovim quit", waitTimeout, func() bool { return gone(pid) })
	if _, err := os.Stat(config); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the chat's MCP config directory %s (its token) outlived Neovim: %v", config, err)
	}
}
