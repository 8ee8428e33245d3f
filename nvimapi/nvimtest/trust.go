package nvimtest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/claude-nvim/claude.nvim/claudeconfig"
)

// TrustWorkspaces records, in the CLI config file of the child's environment (the chat's CLI
// gets that environment), that the CLI trusts the test's whole temporary root, where the child's working directory
// is: without it no chat CLI starts (chatctl/trust.go).
func TrustWorkspaces(t testing.TB, nv *Nvim) {
	t.Helper()
	root, err := filepath.EvalSymlinks(nv.Dir)
	if err != nil {
		t.Fatal(err)
	}
	var env map[string]string
	nv.Lua(&env, `return vim.fn.environ()`)
	var list []string
	for k, v := range env {
		list = append(list, k+"="+v)
	}
	if err := claudeconfig.Trust(context.Background(), claudeconfig.Path(list), root); err != nil {
		t.Fatal(err)
	}
}
