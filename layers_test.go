package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// No import runs up a layer. From the bottom: mcp (the IDE protocol), chat (the CLI's
// stream protocol) and acp (the Agent Client Protocol) know no editor and not each other; chatctl (the chat controller) reaches Neovim only through
// its View and never the host that wires it; nvimapi (the only Go that speaks Lua) implements
// mcp.Editor and chatctl.View; host wires them all.
func TestNoImportRunsUpALayer(t *testing.T) {
	const mod = "github.com/claude-nvim/claude.nvim/"
	neovim := []string{"github.com/neovim/go-client", mod + "nvimapi"}
	for _, layer := range []struct {
		pkgs   []string
		banned []string
	}{
		{[]string{"./mcp", "./mcp/mcptest"}, slices.Concat(neovim, []string{mod + "chat", mod + "chatctl", mod + "host"})},
		{[]string{"./chat"}, slices.Concat(neovim, []string{mod + "mcp", mod + "acp", mod + "chatctl", mod + "host"})},
		{[]string{"./acp", "./acp/acptest"}, slices.Concat(neovim, []string{mod + "mcp", mod + "chat", mod + "chatctl", mod + "host"})},
		{[]string{"./acpchat"}, slices.Concat(neovim, []string{mod + "mcp", mod + "chatctl", mod + "host"})},
		{[]string{"./chatctl"}, slices.Concat(neovim, []string{mod + "host"})},
		// lockfile, logfile, claudeconfig and workspace stand on the standard library alone (uuid aside);
		// attention on hooks and the standard library.
		{[]string{"./lockfile", "./logfile", "./memtrim", "./ledger", "./hooks", "./claudeconfig", "./attention", "./workspace"}, slices.Concat(neovim, []string{mod + "mcp", mod + "chat", mod + "chatctl", mod + "host"})},
		// changes wires the ledger to hook events and knows no editor.
		{[]string{"./changes"}, slices.Concat(neovim, []string{mod + "mcp", mod + "chat", mod + "chatctl", mod + "host"})},
		{[]string{"./jupyter"}, slices.Concat(neovim, []string{mod + "mcp", mod + "chat", mod + "chatctl", mod + "host"})},
		{[]string{"./kernels"}, slices.Concat(neovim, []string{mod + "chat", mod + "chatctl", mod + "host"})},
	} {
		t.Run(strings.Join(layer.pkgs, " "), func(t *testing.T) {
			out, err := exec.Command("go", append([]string{"list", "-deps"}, layer.pkgs...)...).CombinedOutput()
			if err != nil {
				t.Fatalf("go list -deps: %v\n%s", err, out)
			}
			deps := strings.Fields(string(out))
			if len(deps) < 10 {
				t.Fatalf("go list -deps printed %d packages; it cannot have worked:\n%s", len(deps), out)
			}
			for _, dep := range deps {
				for _, banned := range layer.banned {
					if dep == banned || strings.HasPrefix(dep, banned+"/") {
						t.Errorf("%s depends on %s", layer.pkgs, dep)
					}
				}
			}
		})
	}
}
