package procstat

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// A command name with spaces and parentheses does not shift the fields after it.
func TestFieldsFollowACommandNameWithSpacesAndParentheses(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/PID/stat is Linux's")
	}
	dir := t.TempDir()
	name := filepath.Join(dir, "a b) (c")
	if err := os.Symlink("/bin/sleep", name); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(name, "600")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	st, err := Read(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	if st.Comm != "a b) (c" {
		t.Errorf("Comm = %q, want the command name whole", st.Comm)
	}
	if got := st.Int(4); got != int64(os.Getpid()) {
		t.Errorf("field 4 (ppid) = %d, want this process %d", got, os.Getpid())
	}
	if st.Field(3) == "" || st.Field(22) == "" || st.Fields() < 44 {
		t.Errorf("state %q, start %q, %d fields: want the whole line", st.Field(3), st.Field(22), st.Fields())
	}
	if st.Field(2) != "" || st.Field(st.Fields()+1) != "" {
		t.Errorf("fields outside 3..%d are not empty", st.Fields())
	}
	if _, err := Read(-1); err == nil {
		t.Errorf("Read(-1) succeeded")
	}
}
