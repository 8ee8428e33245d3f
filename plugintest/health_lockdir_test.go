package plugintest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// :checkhealth is the one judge of the lock directory and its files (the
// Go side only creates them, 0700 and 0600): it must work when the Go
// binary does not, which is when users run it.
func TestCheckhealthJudgesTheLockDirectoryAndItsFiles(t *testing.T) {
	for _, tt := range []struct {
		name        string
		setup       func(t *testing.T, dir string)
		level, want string
	}{
		{"a 0700 directory", mkdir(0o700), "OK", "has mode 700 and is writable"},
		{"a 0755 directory", mkdir(0o755), "ERROR", "has mode 755, want 700 (other users could plant lock files or read tokens)"},
		{"a group-writable directory", mkdir(0o770), "ERROR", "has mode 770, want 700 (other users could plant lock files or read tokens)"},
		{"a directory its owner cannot write", mkdir(0o500), "ERROR", "has mode 500, want 700 (the owner needs rwx to write lock files)"},
		{"a missing directory", func(*testing.T, string) {}, "OK", "does not exist yet; the server creates it with mode 0700"},
		{"a file in place of the directory", func(t *testing.T, dir string) {
			if err := os.WriteFile(dir, nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}, "ERROR", "is not a directory"},
		{"a directory owned by another user", func(t *testing.T, dir string) {
			if os.Geteuid() != 0 {
				t.Skip("needs root to chown")
			}
			mkdir(0o700)(t, dir)
			if err := os.Chown(dir, 4321, 4321); err != nil {
				t.Fatal(err)
			}
		}, "ERROR", "is owned by uid 4321"},
		{"a world-readable lock file", lockFile(0o644, false), "ERROR", "has mode 644, want 600 (others could read its token)"},
		{"a lock file that is a symlink", lockFile(0o600, true), "ERROR", "is not a regular file"},
		{"a directory that is a symlink", func(t *testing.T, dir string) {
			target := filepath.Join(t.TempDir(), "elsewhere")
			mkdir(0o700)(t, target)
			if err := os.Symlink(target, dir); err != nil {
				t.Fatal(err)
			}
		}, "ERROR", "is a symbolic link (to "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			config := t.TempDir()
			dir := filepath.Join(config, "ide")
			tt.setup(t, dir)
			nv := newNvim(t, nvimtest.WithEnv("CLAUDE_CONFIG_DIR="+config))
			reports, text := checkhealth(t, nv)
			expect(t, reports, text, tt.level, tt.want)
		})
	}
}

func mkdir(mode os.FileMode) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		t.Helper()
		if err := os.Mkdir(dir, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, mode); err != nil { // past the umask
			t.Fatal(err)
		}
	}
}

// lockFile makes a 0700 directory holding 40000.lock with mode (or a
// symlink to such a file).
func lockFile(mode os.FileMode, symlink bool) func(t *testing.T, dir string) {
	return func(t *testing.T, dir string) {
		t.Helper()
		mkdir(0o700)(t, dir)
		path := filepath.Join(dir, "40000.lock")
		target := path
		if symlink {
			target = filepath.Join(dir, "elsewhere.json")
		}
		if err := os.WriteFile(target, []byte(`{"pid": 1, "workspaceFolders": [], "authToken": "x"}`), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(target, mode); err != nil {
			t.Fatal(err)
		}
		if symlink {
			if err := os.Symlink(target, path); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// A lock file is never read through a symbolic link (one to /dev/zero ran
// :checkhealth out of memory): a link to another editor's valid lock is
// reported as not a regular file, never as an editor serving here.
func TestCheckhealthNeverReadsALockFileThroughALink(t *testing.T) {
	config := t.TempDir()
	dir := filepath.Join(config, "ide")
	mkdir(0o700)(t, dir)
	target := filepath.Join(dir, "elsewhere.json")
	lock := fmt.Sprintf(`{"pid": %d, "workspaceFolders": ["/"], "ideName": "Linked", "authToken": "x"}`, os.Getpid())
	if err := os.WriteFile(target, []byte(lock), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, "40000.lock")); err != nil {
		t.Fatal(err)
	}
	nv := newNvim(t, nvimtest.WithEnv("CLAUDE_CONFIG_DIR="+config))
	reports, text := checkhealth(t, nv)
	expect(t, reports, text, "ERROR", "40000.lock is not a regular file")
	if strings.Contains(text, "Linked") {
		t.Errorf(":checkhealth read the lock file through its link:\n%s", text)
	}
}
