package chatctl_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The controller sits between the CLI's protocol (chat/) and the editor: it reaches Neovim
// only through its View, and never up into the host that wires it.
func TestTheControllerDoesNotDependOnNeovimOrTheHost(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go command not found: %v", err)
	}
	out, err := exec.Command(goBin, "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list -deps printed %d packages; it cannot have worked:\n%s", len(deps), out)
	}
	for _, dep := range deps {
		for _, banned := range []string{
			"github.com/neovim/go-client",
			"github.com/claude-nvim/claude.nvim/nvimapi",
			"github.com/claude-nvim/claude.nvim/host",
		} {
			if dep == banned || strings.HasPrefix(dep, banned+"/") {
				t.Errorf("chatctl depends on %s", dep)
			}
		}
	}
}
