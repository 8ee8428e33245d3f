package ledger

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// userGit runs the user's own git in dir, failing the test on error.
func userGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=U", "-c", "user.email=u@example.com", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func write(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// isolate gives git a HOME of its own, so the machine's config cannot change what is tested.
func isolate(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	return home
}

// newRepo is a user's repository with two committed files, an ignored pattern in
// .gitignore and another in info/exclude.
func newRepo(t *testing.T) string {
	t.Helper()
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	userGit(t, dir, "init", "-q")
	write(t, dir, "a.txt", "one\ntwo\nthree\n")
	write(t, dir, "b.txt", "bee\n")
	write(t, dir, ".gitignore", "*.log\n")
	write(t, dir, ".git/info/exclude", "secret.local\n")
	userGit(t, dir, "add", "-A")
	userGit(t, dir, "commit", "-q", "-m", "first")
	return dir
}

func open(t *testing.T, workspace string) *Store {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "ledger"), workspace)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func snapshot(t *testing.T, s *Store) Tree {
	t.Helper()
	tree, err := s.Snapshot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

func changes(t *testing.T, s *Store, from, to Tree) map[string]FileChange {
	t.Helper()
	list, err := s.Changes(context.Background(), from, to)
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]FileChange{}
	for _, c := range list {
		m[c.Path] = c
	}
	return m
}

func TestSnapshotsOfAWorkTreeShowWhatATurnChanged(t *testing.T) {
	isolate(t)
	repo := newRepo(t)
	s := open(t, filepath.Join(repo))
	before := snapshot(t, s)

	write(t, repo, "a.txt", "one\n2\nthree\nfour\n")
	if err := os.Remove(filepath.Join(repo, "b.txt")); err != nil {
		t.Fatal(err)
	}
	write(t, repo, "new/c.txt", "sea\n")
	write(t, repo, "debug.log", "ignored by .gitignore\n")
	write(t, repo, "secret.local", "ignored by info/exclude\n")
	after := snapshot(t, s)

	got := changes(t, s, before, after)
	want := map[string]FileChange{
		"a.txt":     {Path: "a.txt", Status: 'M', Added: 2, Deleted: 1},
		"b.txt":     {Path: "b.txt", Status: 'D', Deleted: 1},
		"new/c.txt": {Path: "new/c.txt", Status: 'A', Added: 1},
	}
	if len(got) != len(want) {
		t.Errorf("changes %v, want %v", got, want)
	}
	for p, w := range want {
		if got[p] != w {
			t.Errorf("%s: %+v, want %+v", p, got[p], w)
		}
	}
	old, err := s.Read(context.Background(), before, "a.txt")
	if err != nil || string(old) != "one\ntwo\nthree\n" {
		t.Errorf("a.txt before the turn: %q, %v", old, err)
	}
	if _, err := s.Read(context.Background(), after, "b.txt"); !errors.Is(err, ErrNotExist) {
		t.Errorf("b.txt after it was deleted: %v, want ErrNotExist", err)
	}
	if got := changes(t, s, after, snapshot(t, s)); len(got) != 0 {
		t.Errorf("nothing changed, yet %v", got)
	}
}

func TestSnapshotsCoverTheWholeWorkTreeFromASubdirectory(t *testing.T) {
	isolate(t)
	repo := newRepo(t)
	sub := filepath.Join(repo, "sub")
	write(t, sub, "x.txt", "x\n")
	s := open(t, sub)
	if s.Root() != repo || !s.Repository() {
		t.Fatalf("Root %q (repository %v), want %q", s.Root(), s.Repository(), repo)
	}
	before := snapshot(t, s)
	write(t, repo, "a.txt", "changed above the workspace\n")
	if got := changes(t, s, before, snapshot(t, s)); got["a.txt"].Status != 'M' {
		t.Errorf("a change at the top of the work tree was missed: %v", got)
	}
}

func TestRenamesAreFound(t *testing.T) {
	isolate(t)
	repo := newRepo(t)
	write(t, repo, "long.txt", strings.Repeat("a line that stays the same\n", 20))
	userGit(t, repo, "add", "-A")
	userGit(t, repo, "commit", "-q", "-m", "long")
	s := open(t, repo)
	before := snapshot(t, s)
	if err := os.Rename(filepath.Join(repo, "long.txt"), filepath.Join(repo, "moved.txt")); err != nil {
		t.Fatal(err)
	}
	got := changes(t, s, before, snapshot(t, s))
	if c := got["moved.txt"]; c.Status != 'R' || c.OldPath != "long.txt" || len(got) != 1 {
		t.Errorf("changes %+v, want one rename from long.txt", got)
	}
}

func TestBytesAreKeptExactlyAndNoWorkspaceFilterRuns(t *testing.T) {
	home := isolate(t)
	pwned := filepath.Join(t.TempDir(), "filter-ran")
	// A filter the user's config defines and the workspace's .gitattributes applies (as
	// git-lfs is set up), plus line-ending conversion: a snapshot must store the bytes on disk.
	write(t, home, ".gitconfig", "[filter \"evil\"]\n\tclean = touch "+pwned+"; tr a-z A-Z\n\tsmudge = cat\n")
	repo := newRepo(t)
	write(t, repo, ".gitattributes", "*.txt filter=evil\n*.crlf text eol=crlf\n*.bin -text\n")
	s := open(t, repo)
	before := snapshot(t, s)
	files := map[string]string{
		"a.txt":        "lower case stays lower\n",
		"win.crlf":     "line one\r\nline two\n",
		"image.bin":    "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00",
		"nested/z.txt": "zed\n",
	}
	for name, content := range files {
		write(t, repo, name, content)
	}
	after := snapshot(t, s)
	for name, content := range files {
		got, err := s.Read(context.Background(), after, name)
		if err != nil || !bytes.Equal(got, []byte(content)) {
			t.Errorf("%s in the snapshot: %q, %v; on disk %q", name, got, err, content)
		}
	}
	if _, err := os.Stat(pwned); err == nil {
		t.Error("the clean filter named by the workspace's .gitattributes ran")
	}
	if c := changes(t, s, before, after)["image.bin"]; !c.Binary || c.Status != 'A' {
		t.Errorf("image.bin: %+v, want an added binary file", c)
	}
}

func TestTheUsersRepositoryIsNeverWritten(t *testing.T) {
	isolate(t)
	repo := newRepo(t)
	write(t, repo, "a.txt", "edited by the user, not staged\n")
	write(t, repo, "staged.txt", "staged by the user\n")
	userGit(t, repo, "add", "staged.txt")
	gitDir := filepath.Join(repo, ".git")
	before := tree(t, gitDir)
	// A Neovim started from a git hook has these set; they must not lead us into the repo.
	t.Setenv("GIT_DIR", gitDir)
	t.Setenv("GIT_INDEX_FILE", filepath.Join(gitDir, "index"))
	t.Setenv("GIT_OBJECT_DIRECTORY", filepath.Join(gitDir, "objects"))
	s := open(t, repo)
	first := snapshot(t, s)
	write(t, repo, "new.txt", "claude wrote this\n")
	if _, err := s.Changes(context.Background(), first, snapshot(t, s)); err != nil {
		t.Fatal(err)
	}
	if after := tree(t, gitDir); after != before {
		t.Errorf("the user's .git changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// tree lists every file under dir with its size and modification time; for objects, their
// size only: git refreshes the time of an object it reuses (so that gc keeps it), as the
// user's own `git add` would, and that is the one mark snapshots leave.
func tree(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		line := p + " " + strconv.FormatInt(info.Size(), 10)
		if !strings.Contains(p, string(filepath.Separator)+"objects"+string(filepath.Separator)) {
			line += " " + info.ModTime().String()
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func TestFilesOutsideGitAreFollowedOneByOne(t *testing.T) {
	isolate(t)
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	a := write(t, dir, "a.txt", "a\n")
	write(t, dir, "untouched.txt", "never named\n")
	s := open(t, dir)
	if s.Repository() {
		t.Fatal("a plain directory was taken for a work tree")
	}
	if _, err := s.Snapshot(context.Background()); !errors.Is(err, ErrNotRepository) {
		t.Fatalf("Snapshot outside git: %v, want ErrNotRepository", err)
	}
	ctx := context.Background()
	before, err := s.SnapshotFiles(ctx, s.Empty(), []string{a, "b.txt"})
	if err != nil {
		t.Fatal(err)
	}
	write(t, dir, "a.txt", "a\nA\n")
	write(t, dir, "b.txt", "b\n")
	after, err := s.SnapshotFiles(ctx, before, []string{a, "b.txt"})
	if err != nil {
		t.Fatal(err)
	}
	got := changes(t, s, before, after)
	if got["a.txt"].Status != 'M' || got["b.txt"].Status != 'A' || len(got) != 2 {
		t.Errorf("changes %+v, want a.txt modified and b.txt added only", got)
	}
	if err := os.Remove(a); err != nil {
		t.Fatal(err)
	}
	gone, err := s.SnapshotFiles(ctx, after, []string{a})
	if err != nil {
		t.Fatal(err)
	}
	if got := changes(t, s, after, gone); got["a.txt"].Status != 'D' || len(got) != 1 {
		t.Errorf("changes %+v, want a.txt deleted only", got)
	}
	for _, outside := range []string{"/etc/passwd", "../x", filepath.Join(dir, "..", "y")} {
		if _, err := s.SnapshotFiles(ctx, after, []string{outside}); !errors.Is(err, ErrOutside) {
			t.Errorf("SnapshotFiles(%q): %v, want ErrOutside", outside, err)
		}
	}
}

func TestTheStoreIsTheUsersAlone(t *testing.T) {
	isolate(t)
	repo := newRepo(t)
	dir := filepath.Join(t.TempDir(), "ledger")
	s, err := Open(context.Background(), dir, repo)
	if err != nil {
		t.Fatal(err)
	}
	snapshot(t, s)
	info, err := os.Stat(s.git.gitDir)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o700 {
		t.Errorf("store %s has mode %o, want 700", s.git.gitDir, perm)
	}
}

func gitCmd(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	return cmd
}
