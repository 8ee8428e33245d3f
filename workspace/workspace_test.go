package workspace

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// tree makes a folder with files (name -> content) and returns its path.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func symlink(t *testing.T, target, name string) {
	t.Helper()
	if err := os.Symlink(target, name); err != nil {
		t.Fatal(err)
	}
}

func TestResolve(t *testing.T) {
	folders := []string{"/proj/sub", "/proj", "/other"}
	tests := []struct {
		name, path string
		want       Target
		err        error
	}{
		{"a relative path is the primary folder's", "a/b.go", Target{"/proj", "sub/a/b.go", "/proj/sub/a/b.go"}, nil},
		{"an absolute path inside nested folders takes the outer one", "/proj/sub/x", Target{"/proj", "sub/x", "/proj/sub/x"}, nil},
		{"an absolute path in another folder", "/other/y", Target{"/other", "y", "/other/y"}, nil},
		{"the folder itself", "/other", Target{"/other", ".", "/other"}, nil},
		{"dot-dot that stays inside", "a/../../z", Target{"/proj", "z", "/proj/z"}, nil},
		{"dot-dot out of every folder is refused", "../../etc/passwd", Target{}, ErrOutside},
		{"an absolute path elsewhere is refused", "/etc/passwd", Target{}, ErrOutside},
		{"a sibling with a common prefix is refused", "/project/x", Target{}, ErrOutside},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Resolve(folders, tt.path)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("Resolve(%q) = %+v, %v; want %v", tt.path, got, err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("Resolve(%q) = %+v, %v; want %+v", tt.path, got, err, tt.want)
			}
		})
	}
	if _, err := Resolve(nil, "a"); !errors.Is(err, ErrNoFolder) {
		t.Errorf("Resolve without folders: %v, want ErrNoFolder", err)
	}
	if _, err := Resolve(folders, ""); err == nil {
		t.Error("Resolve of an empty path: no error")
	}
}

func TestReadAndCheck(t *testing.T) {
	outside := tree(t, map[string]string{"secret": "outside\n", "dir/s": "s\n"})
	dir := tree(t, map[string]string{"a.txt": "hello\n", "sub/b.txt": "b\n", "big": strings.Repeat("x", 100)})
	symlink(t, "a.txt", filepath.Join(dir, "link-in"))
	symlink(t, "../a.txt", filepath.Join(dir, "sub", "link-up"))
	symlink(t, filepath.Join(outside, "secret"), filepath.Join(dir, "link-out"))
	symlink(t, "../"+filepath.Base(outside)+"/secret", filepath.Join(dir, "rel-out"))
	symlink(t, filepath.Join(dir, "a.txt"), filepath.Join(dir, "abs-in"))
	symlink(t, filepath.Join(outside, "dir"), filepath.Join(dir, "dir-out"))
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		want       string
		err        error // nil: reads want
	}{
		{"a regular file", "a.txt", "hello\n", nil},
		{"in a subdirectory", "sub/b.txt", "b\n", nil},
		{"through a link that stays inside", "link-in", "hello\n", nil},
		{"through a relative link up that stays inside", "sub/link-up", "hello\n", nil},
		{"not through an absolute link out", "link-out", "", ErrOutside},
		{"not through a relative link out", "rel-out", "", ErrOutside},
		{"not through an absolute link even inside", "abs-in", "", ErrOutside},
		{"not through a directory link out", "dir-out/s", "", ErrOutside},
		{"not a FIFO, and without blocking", "fifo", "", ErrNotRegular},
		{"not a directory", "sub", "", ErrNotRegular},
		{"not past the limit", "big", "", ErrTooLarge},
		{"a missing file", "nope", "", fs.ErrNotExist},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			target, err := Resolve([]string{dir}, tt.path)
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan struct{})
			var got []byte
			go func() {
				defer close(done)
				got, err = Read(target, 50)
			}()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				t.Fatalf("Read(%q) blocked", tt.path)
			}
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Errorf("Read(%q) = %q, %v; want %v", tt.path, got, err, tt.err)
				}
			} else if err != nil || string(got) != tt.want {
				t.Errorf("Read(%q) = %q, %v; want %q", tt.path, got, err, tt.want)
			}
		})
	}

	checks := []struct {
		name, path string
		exists     bool
		err        error
	}{
		{"an existing file", "a.txt", true, nil},
		{"a new file", "sub/new.txt", false, nil},
		{"a new file in a new directory", "new/dir/x.txt", false, nil},
		{"a file through a link out", "link-out", false, ErrOutside},
		{"a new file under a directory link out", "dir-out/new.txt", false, ErrOutside},
		{"a FIFO", "fifo", false, ErrNotRegular},
		{"a directory", "sub", false, ErrNotRegular},
	}
	for _, tt := range checks {
		t.Run("check "+tt.name, func(t *testing.T) {
			target, err := Resolve([]string{dir}, tt.path)
			if err != nil {
				t.Fatal(err)
			}
			exists, err := Check(target)
			if (tt.err == nil && err != nil) || (tt.err != nil && !errors.Is(err, tt.err)) || exists != tt.exists {
				t.Errorf("Check(%q) = %v, %v; want %v, %v", tt.path, exists, err, tt.exists, tt.err)
			}
		})
	}
}

func TestPattern(t *testing.T) {
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"", "any/thing", true},
		{"*.go", "main.go", true},
		{"*.go", "a/b/c.go", true},
		{"*.go", "a/b/c.goo", false},
		{"a/*.go", "a/b.go", true},
		{"a/*.go", "a/b/c.go", false},
		{"a/**/*.go", "a/c.go", true},
		{"a/**/*.go", "a/b/c/d.go", true},
		{"**/test/*", "x/y/test/z", true},
		{"**/test/*", "test/z", true},
		{"**", "anything/at/all", true},
		{"/a/b", "a/b", true},
		{"src/**/x/**/y", "src/1/x/2/3/y", true},
		{"src/**/x/**/y", "src/1/x/2/3/z", false},
		{"**/**/**/**/**/**/**/a", strings.Repeat("b/", 40) + "c", false},
	}
	for _, tt := range tests {
		p, err := CompilePattern(tt.pattern)
		if err != nil {
			t.Fatalf("CompilePattern(%q): %v", tt.pattern, err)
		}
		if got := p.Match(tt.name); got != tt.want {
			t.Errorf("%q matches %q = %v, want %v", tt.pattern, tt.name, got, tt.want)
		}
	}
	if _, err := CompilePattern("a/[b"); err == nil {
		t.Error("CompilePattern(a/[b): no error")
	}
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func TestListInAGitWorkTreeRespectsGitignore(t *testing.T) {
	dir := tree(t, map[string]string{
		".gitignore": "build/\n*.log\n", "main.go": "", "pkg/a.go": "", "gone.go": "",
		"build/out.bin": "", "debug.log": "", "new.go": "",
	})
	git(t, dir, "init", "-q")
	git(t, dir, "add", ".gitignore", "main.go", "pkg/a.go", "gone.go")
	git(t, dir, "commit", "-q", "-m", "x")
	os.Remove(filepath.Join(dir, "gone.go"))
	symlink(t, "main.go", filepath.Join(dir, "link.go"))
	// A fsmonitor command in the repository's own config must not run.
	marker := filepath.Join(t.TempDir(), "ran")
	git(t, dir, "config", "core.fsmonitor", "touch "+marker+"; false")

	got, err := List(context.Background(), dir, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".gitignore", "main.go", "new.go", "pkg/a.go"}
	if !got.Git || !slices.Equal(got.Files, want) {
		t.Errorf("List = %+v, want %v from git", got, want)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the repository's core.fsmonitor command ran")
	}
	p, _ := CompilePattern("*.go")
	got, _ = List(context.Background(), dir, p, 0)
	if want := []string{"main.go", "new.go", "pkg/a.go"}; !slices.Equal(got.Files, want) {
		t.Errorf("List *.go = %v, want %v", got.Files, want)
	}
	if _, err := List(context.Background(), dir, nil, 3); !errors.Is(err, ErrTooMany) {
		t.Errorf("List with max 3 of 4: %v, want ErrTooMany", err)
	}
}

func TestListWithoutGitWalks(t *testing.T) {
	outside := tree(t, map[string]string{"x.go": ""})
	dir := tree(t, map[string]string{"a.go": "", "sub/b.go": "", "sub/c.txt": "", ".git/config": "", "deep/.git/HEAD": ""})
	symlink(t, outside, filepath.Join(dir, "linked-dir"))
	symlink(t, "a.go", filepath.Join(dir, "linked.go"))
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.go"), 0o600); err != nil {
		t.Fatal(err)
	}
	// .git here is a directory, so git is asked first: an empty one is no repository, and
	// the walk answers.
	got, err := List(context.Background(), dir, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a.go", "sub/b.go", "sub/c.txt"}; got.Git || !slices.Equal(got.Files, want) {
		t.Errorf("List = %+v, want %v from a walk", got, want)
	}
	if _, err := List(context.Background(), dir, nil, 2); !errors.Is(err, ErrTooMany) {
		t.Errorf("List with max 2 of 3: %v, want ErrTooMany", err)
	}
}
