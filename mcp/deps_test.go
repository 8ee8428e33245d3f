package mcp_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The protocol layer must not know Neovim (STYLE.md): neither the mcp
// package nor its test client may depend on go-client or nvimapi.
func TestMCPDoesNotDependOnNeovim(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go command not found: %v", err)
	}
	out, err := exec.Command(goBin, "list", "-deps", ".", "./mcptest").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps printed %d packages; it cannot have worked:\n%s", len(deps), out)
	}
	for _, dep := range deps {
		for _, banned := range []string{"github.com/neovim/go-client", "github.com/claude-nvim/claude.nvim/nvimapi"} {
			if dep == banned || strings.HasPrefix(dep, banned+"/") {
				t.Errorf("mcp depends on %s", dep)
			}
		}
	}
}
