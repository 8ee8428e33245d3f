package chatctl

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestTheCLIsEmptyScratchDirectoriesGoAndAnythingWithAFileStays(t *testing.T) {
	tmp := t.TempDir()
	const dir = "/work/my proj"
	project := filepath.Join(tmp, fmt.Sprintf("claude-%d", os.Getuid()), "-work-my-proj")
	mk := func(rel string) string {
		p := filepath.Join(project, rel)
		if err := os.MkdirAll(p, 0o700); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mk("s1/tasks")
	mk("s1/started")
	mk("s2/tasks")
	kept := filepath.Join(mk("s2/tasks"), "out.txt")
	if err := os.WriteFile(kept, []byte("output"), 0o600); err != nil {
		t.Fatal(err)
	}
	mk("s3/tasks") // another conversation's: not named, stays
	removeCLITemp(tmp, dir, []string{"s1", "s2", "..", "../s3"})

	exists := func(rel string) bool {
		_, err := os.Stat(filepath.Join(project, rel))
		return err == nil
	}
	for _, tc := range []struct {
		rel  string
		want bool
	}{
		{"s1", false},              // empty directories only: gone
		{"s2/tasks/out.txt", true}, // a file: kept, and the directories holding it
		{"s3/tasks", true},         // not one of the conversations named
	} {
		if got := exists(tc.rel); got != tc.want {
			t.Errorf("after the cleanup %s exists: %v, want %v", tc.rel, got, tc.want)
		}
	}

	// Once every conversation's directory is empty, the ones above go too.
	os.Remove(kept)
	removeCLITemp(tmp, dir, []string{"s2", "s3"})
	if _, err := os.Stat(filepath.Dir(project)); err == nil {
		t.Errorf("%s is left after its last conversation's empty directories went", filepath.Dir(project))
	}
	if _, err := os.Stat(tmp); err != nil {
		t.Errorf("the temporary directory itself went: %v", err)
	}
}
