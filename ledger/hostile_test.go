package ledger

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A workspace written by a tool (or cloned) is hostile: these are issue 35's attacks on the
// ledger, each through the API the recorder calls.

// booby traps repo (a nested repository's top) so that any git run inside it leaves a
// marker: an fsmonitor command in its config, and a clean filter its config defines and its
// .gitattributes applies. It returns the marker files' directory.
func boobyTrap(t *testing.T, repo, markers string) {
	t.Helper()
	name := filepath.Base(repo)
	userGit(t, repo, "config", "core.fsmonitor", "touch "+filepath.Join(markers, name+"-fsmonitor")+"; false")
	userGit(t, repo, "config", "filter.evil.clean", "touch "+filepath.Join(markers, name+"-clean")+"; cat")
	write(t, repo, ".gitattributes", "* filter=evil\n")
}

func markersIn(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestNoGitTheLedgerRunsEntersANestedRepository(t *testing.T) {
	isolate(t)
	markers := t.TempDir()
	repo := newRepo(t)
	// A real submodule (a gitlink in the user's index, whose .git is a file).
	upstream, _ := filepath.EvalSymlinks(t.TempDir())
	userGit(t, upstream, "init", "-q")
	write(t, upstream, "u.txt", "upstream\n")
	userGit(t, upstream, "add", "-A")
	userGit(t, upstream, "commit", "-q", "-m", "u")
	userGit(t, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", upstream, "sub")
	userGit(t, repo, "commit", "-q", "-m", "sub")
	boobyTrap(t, filepath.Join(repo, "sub"), markers)
	// A repository embedded in the tree, never added as a submodule.
	emb := filepath.Join(repo, "emb")
	write(t, emb, "e.txt", "embedded\n")
	userGit(t, emb, "init", "-q")
	userGit(t, emb, "add", "-A")
	userGit(t, emb, "commit", "-q", "-m", "e")
	boobyTrap(t, emb, markers)
	// A folder whose .git is a file naming a repository elsewhere.
	gf := filepath.Join(repo, "gitfile")
	write(t, gf, "g.txt", "gitfile\n")
	userGit(t, gf, "init", "-q", "--separate-git-dir", filepath.Join(t.TempDir(), "elsewhere.git"))
	userGit(t, gf, "add", "-A")
	userGit(t, gf, "commit", "-q", "-m", "g")
	boobyTrap(t, gf, markers)
	// A repository with no commit yet: git add -A failed every snapshot on it.
	userGit(t, filepath.Join(repo), "init", "-q", "nocommit")
	write(t, repo, "nocommit/n.txt", "no commit\n")

	s := open(t, repo)
	ctx := context.Background()
	before := snapshot(t, s)
	// A turn changes files inside each nested repository and one of the workspace's.
	for _, name := range []string{"sub/u.txt", "emb/e.txt", "gitfile/g.txt", "nocommit/n.txt"} {
		write(t, repo, name, "changed by a tool\n")
	}
	write(t, repo, "a.txt", "one\ntwo\nthree\nfour\n")
	after := snapshot(t, s)
	again := snapshot(t, s)
	if after != again {
		t.Errorf("an unchanged work tree gave another snapshot: %s, then %s", after, again)
	}
	if got := markersIn(t, markers); len(got) > 0 {
		t.Errorf("a program named by a nested repository ran: %v", got)
	}
	got := changes(t, s, before, after)
	if len(got) != 1 || got["a.txt"].Status != 'M' {
		t.Errorf("changes %+v, want a.txt alone (nested repositories are not recorded)", got)
	}
	for _, name := range []string{"sub", "emb", "gitfile", "nocommit", "emb/e.txt"} {
		if _, err := s.Read(ctx, after, name); !errors.Is(err, ErrNotExist) {
			t.Errorf("%s is in the snapshot (%v); nested repositories stay out", name, err)
		}
	}
}

func TestTheRootIsTheWorkspaceNeverWhereItsFilesPointGit(t *testing.T) {
	isolate(t)
	outside, _ := filepath.EvalSymlinks(t.TempDir())
	write(t, outside, "precious.txt", "the user's\n")
	repo := newRepo(t)
	// A bare repository the workspace commits, with a core.worktree out of it: plain git
	// run in evil/ takes `outside` for its work tree.
	evil := filepath.Join(repo, "evil")
	if err := os.MkdirAll(evil, 0o755); err != nil {
		t.Fatal(err)
	}
	userGit(t, evil, "init", "-q", "--bare", ".")
	userGit(t, evil, "config", "core.bare", "false")
	userGit(t, evil, "config", "core.worktree", outside)
	if top := strings.TrimSpace(userGit(t, evil, "rev-parse", "--show-toplevel")); top != outside {
		t.Fatalf("the trap does not work: git in evil/ sees %s, want %s", top, outside)
	}
	// The user's own config pointing elsewhere is ignored too.
	userGit(t, repo, "config", "core.worktree", outside)
	t.Setenv("GIT_WORK_TREE", outside)
	t.Setenv("GIT_DIR", filepath.Join(evil))
	for _, from := range []string{repo, evil, filepath.Join(evil, "refs")} {
		s := open(t, from)
		if s.Root() != repo {
			t.Errorf("opened from %s: root %s, want the workspace %s", from, s.Root(), repo)
		}
		tree := snapshot(t, s)
		if _, err := s.Read(context.Background(), tree, "precious.txt"); !errors.Is(err, ErrNotExist) {
			t.Errorf("opened from %s: a file of %s is in the snapshot (%v)", from, outside, err)
		}
	}
}

func TestALockLeftByADeadGitIsRemovedAndSnapshotsGoOn(t *testing.T) {
	isolate(t)
	repo := newRepo(t)
	s := open(t, repo)
	snapshot(t, s)
	// What a git killed mid-write leaves (the host killed, a crash on a file rewritten
	// while it was read): every later `git update-index` refused with "File exists".
	for _, name := range []string{"index.lock", "refs/ledger/x/before.lock"} {
		write(t, s.Dir(), name, "")
	}
	s.gitFailed.Store(true)
	write(t, repo, "a.txt", "changed\n")
	after := snapshot(t, s)
	if got, err := s.Read(context.Background(), after, "a.txt"); err != nil || string(got) != "changed\n" {
		t.Errorf("a.txt after the stale lock: %q, %v", got, err)
	}
	if _, err := s.Begin(context.Background(), Turn{ID: "x"}); err != nil {
		t.Errorf("a turn after the stale ref lock: %v", err)
	}
}

func TestFilesOverTheSizeLimitAreLeftOutUnread(t *testing.T) {
	isolate(t)
	repo := newRepo(t)
	s := open(t, repo)
	s.SetLimits(Limits{FileSize: 1 << 10})
	ctx := context.Background()
	before, largeBefore, err := s.snapshotLocked(ctx)
	if err != nil {
		t.Fatal(err)
	}
	size := s.Size()
	write(t, repo, "big.dat", strings.Repeat("x", 64<<10))
	// A sparse 1 GiB file: reading it took 11 s a prompt.
	sparse, err := os.Create(filepath.Join(repo, "sparse.img"))
	if err != nil {
		t.Fatal(err)
	}
	if err := sparse.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	sparse.Close()
	write(t, repo, "small.txt", "small\n")
	after, largeAfter, err := s.snapshotLocked(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(largeBefore) != 0 || largeAfter["big.dat"] == "" || largeAfter["sparse.img"] == "" || len(largeAfter) != 2 {
		t.Errorf("left out for their size: before %v, after %v; want big.dat and sparse.img after", largeBefore, largeAfter)
	}
	if got := changes(t, s, before, after); len(got) != 1 || got["small.txt"].Status != 'A' {
		t.Errorf("changes %+v, want small.txt alone", got)
	}
	if grown := s.Size() - size; grown >= 64<<10 {
		t.Errorf("the store grew by %d bytes for a 64 KiB file over the limit", grown)
	}
	if _, err := s.ReadDisk("big.dat"); !errors.Is(err, ErrTooLarge) {
		t.Errorf("ReadDisk of a file over the limit: %v, want ErrTooLarge", err)
	}
}

// snapshotLocked is Snapshot with what it left out for size.
func (s *Store) snapshotLocked(ctx context.Context) (Tree, Large, error) {
	unlock, err := s.lock(ctx)
	if err != nil {
		return "", nil, err
	}
	defer unlock()
	return s.snapshot(ctx)
}

func TestSnapshotsOfAFileBeingRewrittenAllSucceedAndLeaveNoLock(t *testing.T) {
	isolate(t)
	repo := newRepo(t)
	s := open(t, repo)
	s.SetLimits(Limits{FileSize: 64 << 20})
	big := filepath.Join(repo, "big.log.txt")
	content := [2][]byte{[]byte(strings.Repeat("a", 16<<20)), []byte(strings.Repeat("b", 8<<20))}
	if err := os.WriteFile(big, content[0], 0o644); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		// Rewritten in place, truncated first, as a build or a log writer does: git reading
		// it meanwhile found it shorter than it said (and died of it, 13 runs in 30).
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			_ = os.WriteFile(big, content[i%2], 0o644)
		}
	}()
	ctx := context.Background()
	for i := range 30 {
		if _, err := s.Snapshot(ctx); err != nil {
			t.Errorf("snapshot %d while big.log.txt is rewritten: %v", i, err)
		}
	}
	close(stop)
	<-done
	if _, err := os.Stat(filepath.Join(s.Dir(), "index.lock")); err == nil {
		t.Error("a snapshot left index.lock")
	}
	if _, err := s.Snapshot(ctx); err != nil {
		t.Errorf("a snapshot once the file is still: %v", err)
	}
}

func TestComparedWithHEADASubmoduleIsNotAFileChange(t *testing.T) {
	isolate(t)
	repo := newRepo(t)
	upstream, _ := filepath.EvalSymlinks(t.TempDir())
	userGit(t, upstream, "init", "-q")
	write(t, upstream, "u.txt", "upstream\n")
	userGit(t, upstream, "add", "-A")
	userGit(t, upstream, "commit", "-q", "-m", "u")
	userGit(t, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", upstream, "sub")
	userGit(t, repo, "commit", "-q", "-m", "sub")
	s := open(t, repo)
	ctx := context.Background()
	head, err := s.HeadTree(ctx)
	if err != nil {
		t.Fatal(err)
	}
	write(t, repo, "a.txt", "changed\n")
	now, _, err := s.SnapshotNow(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := changes(t, s, head, now)
	if len(got) != 1 || got["a.txt"].Status != 'M' {
		t.Errorf("HEAD → now: %+v, want a.txt alone (the submodule is no file of the snapshot)", got)
	}
}
