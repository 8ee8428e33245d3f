package nvimtest

import (
	"os"
	"path/filepath"
	"testing"
)

// PluginsDir is where `make trees` (scripts/install-trees) puts the
// third-party plugins some tests load: $CLAUDE_NVIM_TREES, else
// .deps/trees in this repository.
func PluginsDir() string {
	if dir := os.Getenv("CLAUDE_NVIM_TREES"); dir != "" {
		return dir
	}
	return filepath.Join(RepoRoot(), ".deps", "trees")
}

// WithPlugins puts the named plugins of PluginsDir on the child's
// 'runtimepath' before its plugins load, or skips t, saying how to install
// them, when one is missing. They are not in `make deps`: the tests that
// need them skip on machines without them.
func WithPlugins(t testing.TB, names ...string) Option {
	t.Helper()
	var args []string
	for _, name := range names {
		dir := filepath.Join(PluginsDir(), name)
		if _, err := os.Stat(filepath.Join(dir, "lua")); err != nil {
			t.Skipf("%s is not installed in %s: run `make trees` (with CLAUDE_NVIM_TREES_MIRROR=dir to clone from local mirrors), or point CLAUDE_NVIM_TREES at them", name, PluginsDir())
		}
		args = append(args, "--cmd", "set rtp+="+escapeOption(dir))
	}
	return WithArgs(args...)
}
