package lockfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A directory someone else controls could hand them every token written
// into it: EnsureDir (and so Create) refuses it and says how to fix it.
func TestEnsureDirRefusesADirectoryItDoesNotControl(t *testing.T) {
	for _, tt := range []struct {
		name  string
		setup func(t *testing.T, dir string)
		want  []string
	}{
		{"a symbolic link to a private directory", func(t *testing.T, dir string) {
			target := filepath.Join(t.TempDir(), "elsewhere")
			if err := os.Mkdir(target, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, dir); err != nil {
				t.Fatal(err)
			}
		}, []string{"is a symbolic link (to ", "`rm ", "mkdir -m 700 "}},
		{"a directory owned by another user", func(t *testing.T, dir string) {
			if os.Geteuid() != 0 {
				t.Skip("making a directory another user's needs root (chown)")
			}
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.Chown(dir, 4321, 4321); err != nil {
				t.Fatal(err)
			}
		}, []string{"belongs to uid 4321, not to you", "sudo chown $USER "}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "ide")
			tt.setup(t, dir)
			err := EnsureDir(dir)
			if err == nil {
				t.Fatalf("EnsureDir(%s) = nil, want a refusal", tt.name)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("EnsureDir(%s) = %q, want it to say %q", tt.name, err, w)
				}
			}
			if _, err := Create(dir, 40000, testInfo("/w")); err == nil {
				t.Errorf("Create in %s wrote a lock file", tt.name)
			}
		})
	}
}

// Read never follows a symbolic link and reads only a bounded regular file:
// a link to /dev/zero read for ever, a FIFO hung the reader.
func TestReadRefusesWhatIsNotALockFile(t *testing.T) {
	for _, tt := range []struct {
		name  string
		setup func(t *testing.T, path string)
	}{
		{"a symbolic link to a valid lock file", func(t *testing.T, path string) {
			target := filepath.Join(filepath.Dir(path), "elsewhere.json")
			if err := os.WriteFile(target, []byte(pidJSON(os.Getpid())), 0o600); err != nil {
				t.Fatal(err)
			}
			symlink(t, target, path)
		}},
		{"a symbolic link to /dev/zero", func(t *testing.T, path string) { symlink(t, "/dev/zero", path) }},
		{"a FIFO", func(t *testing.T, path string) {
			if err := syscall.Mkfifo(path, 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"a symbolic link to a FIFO", func(t *testing.T, path string) {
			fifo := filepath.Join(filepath.Dir(path), "fifo")
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				t.Fatal(err)
			}
			symlink(t, fifo, path)
		}},
		{"a file over 64 KiB", func(t *testing.T, path string) {
			if err := os.WriteFile(path, []byte(pidJSON(os.Getpid())+strings.Repeat(" ", maxLockSize)), 0o600); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "40000.lock")
			tt.setup(t, path)
			done := make(chan error, 1)
			go func() { _, err := Read(path); done <- err }()
			select {
			case err := <-done:
				if err == nil {
					t.Errorf("Read(%s) = nil error, want a refusal", tt.name)
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("Read(%s) still reading after 30s", tt.name)
			}
		})
	}
}

func symlink(t *testing.T, target, path string) {
	t.Helper()
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
}
