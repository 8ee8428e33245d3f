package changes

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/hooks"
	"github.com/claude-nvim/claude.nvim/ledger"
)

// What a tool may have made of a file since its turn: a revert neither reads nor writes
// through it, and says why (issue 35, item 2).
func TestARevertNeverGoesThroughWhatTheFileBecame(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func(t *testing.T, dir, outside string)
		want error
	}{
		{"a link to a file outside the workspace", func(t *testing.T, dir, outside string) {
			replace(t, dir, "a.txt", func(p string) error { return os.Symlink(filepath.Join(outside, "bashrc"), p) })
		}, ledger.ErrNotRegular},
		{"a relative link out of the workspace", func(t *testing.T, dir, outside string) {
			rel, _ := filepath.Rel(dir, filepath.Join(outside, "bashrc"))
			replace(t, dir, "a.txt", func(p string) error { return os.Symlink(rel, p) })
		}, ledger.ErrNotRegular},
		{"a link to /dev/zero", func(t *testing.T, dir, outside string) {
			replace(t, dir, "a.txt", func(p string) error { return os.Symlink("/dev/zero", p) })
		}, ledger.ErrNotRegular},
		{"a FIFO", func(t *testing.T, dir, outside string) {
			replace(t, dir, "a.txt", func(p string) error { return syscall.Mkfifo(p, 0o644) })
		}, ledger.ErrNotRegular},
		{"a directory", func(t *testing.T, dir, outside string) {
			replace(t, dir, "a.txt", func(p string) error { return os.Mkdir(p, 0o755) })
		}, ledger.ErrNotRegular},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := repo(t)
			outside, _ := filepath.EvalSymlinks(t.TempDir())
			// The outside file holds what Claude left in a.txt: a revert that followed
			// the link would find it "as Claude left it" and write the old text there.
			write(t, outside, "bashrc", claudesA)
			r := recorder(t, Options{})
			claudeTurn(t, r, dir, "edit")
			tc.make(t, dir, outside)
			l, err := r.List(context.Background(), dir)
			if err != nil {
				t.Fatal(err)
			}
			key := hunksOf(t, r, dir, l.Turns[0].ID, "a.txt")[0].Key
			done := make(chan error, 3)
			go func() {
				ctx := context.Background()
				_, err := r.RevertFile(ctx, dir, l.Turns[0].ID, "a.txt")
				done <- err
				_, err = r.RevertHunk(ctx, dir, l.Turns[0].ID, "a.txt", key)
				done <- err
				_, err = r.RevertTurn(ctx, dir, l.Turns[0].ID)
				done <- err
			}()
			for _, what := range []string{"the file", "the hunk", "the turn"} {
				if err := waitFor(t, done); !errors.Is(err, tc.want) {
					t.Errorf("reverting %s: %v, want %v", what, err, tc.want)
				}
			}
			if got := readFile(t, outside, "bashrc"); got != claudesA {
				t.Errorf("the file outside the workspace became %q", got)
			}
			if got := readFile(t, dir, "b.txt"); got != "b1\nb2\nb3\n" {
				t.Errorf("the turn's revert wrote b.txt (%q) though a.txt was refused", got)
			}
		})
	}
}

// claudesA is a.txt as claudeTurn leaves it.
const claudesA = "a1\nA2\na3\na4\na5\na6\nA7\na8\n"

// replace swaps name in dir for what mk makes at its path.
func replace(t *testing.T, dir, name string, mk func(path string) error) {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := mk(p); err != nil {
		t.Fatal(err)
	}
}

// hangLimit: far past what a revert of a few lines takes on any machine; only a revert that
// never returns gets there.
const hangLimit = 2 * time.Minute

// waitFor is the next value of ch; a revert that hangs (a FIFO opened for reading blocks
// until a writer comes) fails here instead of hanging the suite.
func waitFor(t *testing.T, ch chan error) error {
	t.Helper()
	select {
	case err := <-ch:
		return err
	case <-time.After(hangLimit):
		t.Fatal("the revert never returned")
		return nil
	}
}

func hunksOf(t *testing.T, r *Recorder, dir, turn, path string) []Hunk {
	t.Helper()
	d, err := r.Open(context.Background(), dir, turn, path)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Hunks) == 0 {
		t.Fatalf("%s has no hunks", path)
	}
	return d.Hunks
}

func TestARevertThroughADirectoryLinkedOutOfTheWorkspaceIsRefused(t *testing.T) {
	dir := repo(t)
	outside, _ := filepath.EvalSymlinks(t.TempDir())
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "sub/s.txt", "s1\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "sub")
	r := recorder(t, Options{})
	ctx := context.Background()
	r.Handle(ctx, event(hooks.UserPromptSubmit, dir, map[string]any{"prompt": "edit sub"}))
	write(t, dir, "sub/s.txt", "S1\n")
	r.Handle(ctx, event(hooks.Stop, dir, nil))
	// sub becomes a link to a directory outside holding a file of the same name.
	if err := os.RemoveAll(filepath.Join(dir, "sub")); err != nil {
		t.Fatal(err)
	}
	write(t, outside, "s.txt", "S1\n")
	if err := os.Symlink(outside, filepath.Join(dir, "sub")); err != nil {
		t.Fatal(err)
	}
	l, err := r.List(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.RevertFile(ctx, dir, l.Turns[0].ID, "sub/s.txt"); !errors.Is(err, ledger.ErrOutside) {
		t.Errorf("revert through a link out: %v, want ErrOutside", err)
	}
	if got := readFile(t, outside, "s.txt"); got != "S1\n" {
		t.Errorf("the file outside became %q", got)
	}
}

func TestATurnThatCannotBeRecordedIsToldOnceAndClearedWhenOneIs(t *testing.T) {
	dir := repo(t)
	elsewhere, _ := filepath.EvalSymlinks(t.TempDir())
	r := recorder(t, Options{})
	var mu sync.Mutex
	var told []string
	got := make(chan struct{}, 10)
	r.Trouble = func(root, reason string) {
		mu.Lock()
		told = append(told, reason)
		mu.Unlock()
		got <- struct{}{}
	}
	r.Folders = func(origin string) []string { return []string{dir} }
	ctx := context.Background()
	// Twice from a cwd outside the session's workspace: told once.
	for range 2 {
		r.Handle(ctx, event(hooks.UserPromptSubmit, elsewhere, map[string]any{"prompt": "p"}))
	}
	<-got
	if trouble := r.TroubleOf(dir); !strings.Contains(trouble, "outside its session's workspace") {
		t.Errorf("TroubleOf = %q, want why", trouble)
	}
	if h := r.Health(ctx, dir); h.Trouble == "" {
		t.Error(":checkhealth does not say the turn was not recorded")
	}
	if l, err := r.List(ctx, dir); err != nil || l.Trouble == "" {
		t.Errorf(":ClaudeChanges does not say the turn was not recorded: %+v, %v", l, err)
	}
	claudeTurn(t, r, dir, "recorded")
	<-got
	mu.Lock()
	defer mu.Unlock()
	if len(told) != 2 || told[0] == "" || told[1] != "" {
		t.Errorf("told %q, want the reason once, then that it records again", told)
	}
	if trouble := r.TroubleOf(dir); trouble != "" {
		t.Errorf("TroubleOf after a recorded turn = %q", trouble)
	}
}

func TestAFileOverTheLimitIsListedAndNeverReverted(t *testing.T) {
	dir := repo(t)
	r := recorder(t, Options{Limits: ledger.Limits{Turns: 10, Age: 1 << 40, FileSize: 1 << 10}})
	ctx := context.Background()
	write(t, dir, "big.dat", strings.Repeat("x", 4<<10))
	r.Handle(ctx, event(hooks.UserPromptSubmit, dir, map[string]any{"prompt": "rewrite big"}))
	write(t, dir, "big.dat", strings.Repeat("y", 4<<10))
	write(t, dir, "a.txt", "A\n")
	r.Handle(ctx, event(hooks.Stop, dir, nil))
	l, err := r.List(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if f := fileOf(t, l, "big.dat"); !f.TooLarge {
		t.Errorf("big.dat: %+v, want it listed too large to record", f)
	}
	if _, err := r.RevertFile(ctx, dir, l.Turns[0].ID, "big.dat"); !errors.Is(err, ledger.ErrTooLarge) {
		t.Errorf("reverting it: %v, want ErrTooLarge", err)
	}
	if got := readFile(t, dir, "big.dat"); got != strings.Repeat("y", 4<<10) {
		t.Error("the refused revert wrote big.dat")
	}
}

// gitTree lists every file under dir with its size and, but for objects (git refreshes the
// time of an object it reuses, as the user's own git would), its modification time.
func gitTree(t *testing.T, dir string) string {
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
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

func TestTheUsersRepositoriesAreUnchangedByTurnsAndRevertsInAHostileWorkspace(t *testing.T) {
	dir := repo(t)
	// A repository inside the project, armed: a program in its config for any git run in it.
	markers := t.TempDir()
	emb := filepath.Join(dir, "emb")
	if err := os.Mkdir(emb, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "emb/e.txt", "e\n")
	git(t, emb, "init", "-q")
	git(t, emb, "add", "-A")
	git(t, emb, "commit", "-qm", "e")
	git(t, emb, "config", "core.fsmonitor", "touch "+filepath.Join(markers, "fsmonitor")+"; false")
	git(t, emb, "config", "filter.evil.clean", "touch "+filepath.Join(markers, "clean")+"; cat")
	write(t, dir, "emb/.gitattributes", "* filter=evil\n")
	// A committed bare repository pointing git elsewhere.
	evil := filepath.Join(dir, "evil")
	if err := os.Mkdir(evil, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, evil, "init", "-q", "--bare", ".")
	git(t, evil, "config", "core.worktree", markers)
	watched := map[string]string{}
	for _, d := range []string{filepath.Join(dir, ".git"), filepath.Join(emb, ".git"), evil} {
		watched[d] = gitTree(t, d)
	}
	r := recorder(t, Options{})
	r.Folders = func(string) []string { return []string{dir} }
	ctx := context.Background()
	claudeTurn(t, r, dir, "first")
	write(t, dir, "emb/e.txt", "E\n") // the same size: a git status inside would hash it
	r.Handle(ctx, event(hooks.UserPromptSubmit, evil, map[string]any{"prompt": "from inside evil"}))
	write(t, dir, "a.txt", "a1\na2\na3\na4\na5\na6\na7\nA8\n")
	r.Handle(ctx, event(hooks.Stop, evil, nil))
	l, err := r.List(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Turns) != 2 || l.Root != dir {
		t.Fatalf("root %s with %d turns, want %s with 2", l.Root, len(l.Turns), dir)
	}
	newest, first := l.Turns[0].ID, l.Turns[1].ID
	key := hunksOf(t, r, dir, newest, "a.txt")[0].Key
	if _, err := r.RevertHunk(ctx, dir, newest, "a.txt", key); err != nil {
		t.Fatal(err)
	}
	if _, err := r.RevertFile(ctx, dir, first, "b.txt"); err != nil {
		t.Fatal(err)
	}
	if _, err := r.RevertTurn(ctx, dir, first); err == nil {
		t.Log("the first turn reverted whole") // a.txt may conflict with the later turn
	}
	for d, before := range watched {
		if after := gitTree(t, d); after != before {
			t.Errorf("%s changed:\nbefore:\n%s\nafter:\n%s", d, before, after)
		}
	}
	if got := markersIn(t, markers); len(got) > 0 {
		t.Errorf("a program named by the workspace ran: %v", got)
	}
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
