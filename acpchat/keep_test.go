package acpchat

import (
	"os"
	"path/filepath"
	"testing"
)

// putBack gives the file what the user kept only where the agent's tool left what it
// proposed: a file changed since (by the user, another tool) is not overwritten.
func TestPutBackWritesTheKeptTextOnlyOverTheProposal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "poem.txt")
	if err := os.WriteFile(path, []byte("one\nTWO\nFOUR\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	k := keep{path: path, after: "one\nTWO\nFOUR\n", final: "one\ntwo\nFOUR\n"}
	if err := putBack(k); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != k.final {
		t.Errorf("after putBack the file holds %q, want %q", got, k.final)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640 kept", fi.Mode().Perm())
	}
	// Changed since: left as it is.
	if err := os.WriteFile(path, []byte("the user's own\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := putBack(k); err == nil {
		t.Errorf("putBack over a file that is not the proposal succeeded")
	}
	if got, _ := os.ReadFile(path); string(got) != "the user's own\n" {
		t.Errorf("a file changed since holds %q after putBack", got)
	}
}
