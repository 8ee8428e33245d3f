package lockfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// withUmask sets the process umask for the rest of the test. The umask is
// process-wide, so tests using it must not call t.Parallel.
func withUmask(t *testing.T, mask int) {
	t.Helper()
	old := syscall.Umask(mask)
	t.Cleanup(func() { syscall.Umask(old) })
}

func wantMode(t *testing.T, path string, want fs.FileMode) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != want {
		t.Errorf("mode of %s = %#o, want %#o", path, got, want)
	}
}

var umasks = []struct {
	name string
	mask int
}{
	{"with umask 0", 0},
	{"with umask 022", 0o022},
	{"with umask 077", 0o077},
	{"with umask 277, which strips the owner's write bit", 0o277},
}

func TestDir(t *testing.T) {
	tests := []struct {
		name      string
		configDir *string // nil: unset
		home      string
		want      string
		wantErr   bool
	}{
		{name: "uses CLAUDE_CONFIG_DIR/ide when CLAUDE_CONFIG_DIR is set", configDir: ptr("/cfg/claude"), home: "/home/u", want: "/cfg/claude/ide"},
		{name: "uses ~/.claude/ide when CLAUDE_CONFIG_DIR is empty", configDir: ptr(""), home: "/home/u", want: "/home/u/.claude/ide"},
		{name: "uses ~/.claude/ide when CLAUDE_CONFIG_DIR is unset", home: "/home/u", want: "/home/u/.claude/ide"},
		{name: "ignores HOME when CLAUDE_CONFIG_DIR is set", configDir: ptr("/cfg"), home: "", want: "/cfg/ide"},
		{name: "fails when neither CLAUDE_CONFIG_DIR nor HOME is set", home: "", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("CLAUDE_CONFIG_DIR", "")
			if tt.configDir == nil {
				os.Unsetenv("CLAUDE_CONFIG_DIR") // t.Setenv above restores it
			} else {
				t.Setenv("CLAUDE_CONFIG_DIR", *tt.configDir)
			}
			t.Setenv("HOME", tt.home)

			got, err := Dir()
			if tt.wantErr {
				if err == nil {
					t.Errorf("Dir() with HOME=%q = %q, want an error", tt.home, got)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("Dir() with CLAUDE_CONFIG_DIR=%v HOME=%q = %q, %v; want %q", show(tt.configDir), tt.home, got, err, tt.want)
			}
		})
	}
}

func ptr(s string) *string { return &s }

func show(s *string) string {
	if s == nil {
		return "(unset)"
	}
	return "\"" + *s + "\""
}

func TestEnsureDirCreatesMode0700(t *testing.T) {
	for _, u := range umasks {
		t.Run("creates the directory and its parents "+u.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "config", "ide")
			withUmask(t, u.mask) // after TempDir, which the umask would lock us out of
			if err := EnsureDir(dir); err != nil {
				t.Fatalf("EnsureDir(%s): %v", dir, err)
			}
			wantMode(t, dir, 0o700)
		})
	}
}

func TestEnsureDirLeavesExistingDirectories(t *testing.T) {
	tests := []struct {
		name string
		mode fs.FileMode
	}{
		{"keeps a 0755 directory at 0755 (:checkhealth reports it)", 0o755},
		{"keeps a 0700 directory at 0700", 0o700},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "ide")
			if err := os.Mkdir(dir, tt.mode); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(dir, tt.mode); err != nil {
				t.Fatal(err)
			}
			if err := EnsureDir(dir); err != nil {
				t.Fatalf("EnsureDir(%s) with mode %#o: %v", dir, tt.mode, err)
			}
			wantMode(t, dir, tt.mode)
		})
	}
}

func TestEnsureDirRefusesAFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ide")
	if err := os.WriteFile(dir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := EnsureDir(dir); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("EnsureDir(%s) on a regular file = %v, want a 'not a directory' error", dir, err)
	}
}
