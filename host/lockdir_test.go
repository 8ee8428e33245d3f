package host

import (
	"os"
	"path/filepath"
	"testing"
)

// :Claude server start with a lock directory that is a symbolic link starts no
// server and tells the user why and what to run.
func TestClaudeStartRefusesALinkedLockDirectoryAndSaysHowToFixIt(t *testing.T) {
	e := newEnv(t)
	target := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.MkdirAll(filepath.Dir(e.lockDir), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(target, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, e.lockDir); err != nil {
		t.Fatal(err)
	}
	msg := commandMessages(t, e.nv, "ClaudeStart")
	for _, want := range []string{e.lockDir + " is a symbolic link", "mkdir -m 700 " + e.lockDir} {
		if !contains(msg, want) {
			t.Errorf(":Claude server start said %q; want it to say %q", msg, want)
		}
	}
	var port int
	e.nv.Lua(&port, `return require('claude').status().port or 0`)
	if port != 0 {
		t.Errorf("a server started on port %d with its lock directory a link", port)
	}
	if entries, _ := os.ReadDir(target); len(entries) > 0 {
		t.Errorf("lock files written through the link: %v", entries)
	}
}
