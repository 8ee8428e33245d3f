package lockfile

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// deadPID returns the pid of a process that has exited and been reaped.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatalf("run true: %v", err)
	}
	return cmd.ProcessState.Pid()
}

func pidJSON(pid int) string {
	return fmt.Sprintf(`{"pid":%d,"workspaceFolders":[],"ideName":"X","transport":"ws","authToken":"t"}`, pid)
}

func TestRemoveStale(t *testing.T) {
	tests := []struct {
		name        string
		file        string
		make        func(t *testing.T, path string) // writes path
		wantRemoved bool
	}{
		{
			name:        "removes a lock whose pid is dead",
			file:        "40001.lock",
			make:        writeLock(func(t *testing.T) string { return pidJSON(deadPID(t)) }),
			wantRemoved: true,
		},
		{
			name: "keeps a lock whose pid is alive",
			file: "40001.lock",
			make: writeLock(func(*testing.T) string { return pidJSON(os.Getpid()) }),
		},
		{
			name: "keeps a lock of pid 1, alive (EPERM when not root)",
			file: "40001.lock",
			make: writeLock(func(*testing.T) string { return pidJSON(1) }),
		},
		{
			name: "keeps a lock with pid 0, which kill(2) reads as our process group",
			file: "40001.lock",
			make: writeLock(func(*testing.T) string { return pidJSON(0) }),
		},
		{
			name: "keeps a lock with a negative pid",
			file: "40001.lock",
			make: writeLock(func(*testing.T) string { return pidJSON(-1) }),
		},
		{
			name: "keeps a lock whose pid would truncate to a dead one",
			file: "40001.lock",
			make: writeLock(func(t *testing.T) string { return pidJSON(1<<32 + deadPID(t)) }),
		},
		{
			name: "keeps a lock without a pid",
			file: "40001.lock",
			make: writeLock(func(*testing.T) string { return `{"transport":"ws"}` }),
		},
		{
			name: "keeps a half-written lock",
			file: "40001.lock",
			make: writeLock(func(*testing.T) string { return `{"pid":` }),
		},
		{
			name: "keeps an empty lock",
			file: "40001.lock",
			make: writeLock(func(*testing.T) string { return "" }),
		},
		{
			name: "keeps an oversized lock with a dead pid",
			file: "40001.lock",
			make: writeLock(func(t *testing.T) string {
				return pidJSON(deadPID(t)) + strings.Repeat(" ", maxLockSize)
			}),
		},
		{
			name: "keeps a non-lock file with a dead pid",
			file: "notes.json",
			make: writeLock(func(t *testing.T) string { return pidJSON(deadPID(t)) }),
		},
		{
			name: "keeps a .lock file whose name is not a port",
			file: "vscode.lock",
			make: writeLock(func(t *testing.T) string { return pidJSON(deadPID(t)) }),
		},
		{
			name: "keeps a file named just .lock",
			file: ".lock",
			make: writeLock(func(t *testing.T) string { return pidJSON(deadPID(t)) }),
		},
		{
			name: "keeps a temporary file of an atomic write",
			file: ".40001.lock.tmp-123",
			make: writeLock(func(t *testing.T) string { return pidJSON(deadPID(t)) }),
		},
		{
			name: "keeps a backup copy of a lock",
			file: "40001.lock.bak",
			make: writeLock(func(t *testing.T) string { return pidJSON(deadPID(t)) }),
		},
		{
			name: "keeps a directory named like a lock",
			file: "40001.lock",
			make: func(t *testing.T, path string) {
				if err := os.Mkdir(path, 0o700); err != nil {
					t.Fatal(err)
				}
			},
		},
		{
			name: "keeps a symlink named like a lock that points at a dead lock",
			file: "40001.lock",
			make: func(t *testing.T, path string) {
				target := filepath.Join(filepath.Dir(path), "target")
				writeLock(func(t *testing.T) string { return pidJSON(deadPID(t)) })(t, target)
				if err := os.Symlink(target, path); err != nil {
					t.Fatal(err)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, tt.file)
			tt.make(t, path)

			removed, err := RemoveStale(dir)
			if err != nil {
				t.Errorf("RemoveStale with %s: %v", tt.file, err)
			}
			var want []string
			if tt.wantRemoved {
				want = []string{path}
			}
			if !slices.Equal(removed, want) {
				t.Errorf("RemoveStale with %s removed %q, want %q", tt.file, removed, want)
			}
			_, statErr := os.Lstat(path)
			if exists := statErr == nil; exists == tt.wantRemoved {
				t.Errorf("%s exists after RemoveStale: %v, want %v", tt.file, exists, !tt.wantRemoved)
			}
		})
	}
}

func writeLock(content func(t *testing.T) string) func(t *testing.T, path string) {
	return func(t *testing.T, path string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(content(t)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRemoveStaleRemovesOnlyDeadLocksAmongMany(t *testing.T) {
	dir := t.TempDir()
	dead := deadPID(t)
	files := map[string]string{
		"1001.lock":  pidJSON(dead),
		"1002.lock":  pidJSON(os.Getpid()),
		"1003.lock":  pidJSON(dead),
		"1004.lock":  `not json`,
		"readme.txt": pidJSON(dead),
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	removed, err := RemoveStale(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "1001.lock"), filepath.Join(dir, "1003.lock")}
	if !slices.Equal(removed, want) {
		t.Errorf("RemoveStale removed %q, want %q", removed, want)
	}
	wantOnly(t, dir, "1002.lock", "1004.lock", "readme.txt")
}

func TestRemoveStaleKeepsOurOwnLock(t *testing.T) {
	dir := t.TempDir()
	l := mustCreate(t, dir, 8080, Info{PID: os.Getpid(), AuthToken: "tok"})
	removed, err := RemoveStale(dir)
	if err != nil || len(removed) != 0 {
		t.Errorf("RemoveStale with our own live lock = %q, %v; want nothing removed", removed, err)
	}
	wantOnly(t, dir, filepath.Base(l.Path()))
}

func TestRemoveStaleOnAMissingDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "missing")
	removed, err := RemoveStale(dir)
	if err != nil || removed != nil {
		t.Errorf("RemoveStale(%s) = %q, %v; want nothing and no error", dir, removed, err)
	}
}
