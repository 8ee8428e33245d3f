package ledger

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// turn snapshots a repository, lets edit change it as Claude would, snapshots again, and
// returns the store and both trees.
func turn(t *testing.T, files map[string]string, edit func(repo string)) (s *Store, repo string, before, after Tree) {
	t.Helper()
	isolate(t)
	repo, _ = filepath.EvalSymlinks(t.TempDir())
	userGit(t, repo, "init", "-q")
	for name, content := range files {
		write(t, repo, name, content)
	}
	s = open(t, repo)
	before = snapshot(t, s)
	edit(repo)
	after = snapshot(t, s)
	return s, repo, before, after
}

func version(t *testing.T, s *Store, tree Tree, path string) Version {
	t.Helper()
	data, err := s.Read(context.Background(), tree, path)
	if errors.Is(err, ErrNotExist) {
		return Version{}
	}
	if err != nil {
		t.Fatal(err)
	}
	return Version{Content: data, Exists: true}
}

func onDisk(t *testing.T, repo, path string) Version {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repo, path))
	if errors.Is(err, os.ErrNotExist) {
		return Version{}
	}
	if err != nil {
		t.Fatal(err)
	}
	return Version{Content: data, Exists: true}
}

const ten = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"

func TestRevertingOneHunkKeepsClaudesOtherHunksAndTheUsersLaterEdit(t *testing.T) {
	ctx := context.Background()
	s, repo, before, after := turn(t, map[string]string{"f.txt": ten}, func(repo string) {
		write(t, repo, "f.txt", "1\nTWO\n3\n4\n5\n6\n7\n8\nNINE\n10\n")
	})
	changes, err := s.Changes(ctx, before, after)
	if err != nil || len(changes) != 1 {
		t.Fatalf("changes %v, %v", changes, err)
	}
	hunks, err := s.Hunks(ctx, before, after, changes[0])
	if err != nil || len(hunks) != 2 {
		t.Fatalf("hunks %+v, %v; want two", hunks, err)
	}
	// The user edits line 5 after the turn; then takes back Claude's line 9.
	write(t, repo, "f.txt", "1\nTWO\n3\n4\nfive by the user\n6\n7\n8\nNINE\n10\n")
	rev, err := s.RevertHunk(ctx, version(t, s, before, "f.txt"), version(t, s, after, "f.txt"), onDisk(t, repo, "f.txt"), hunks[1])
	if err != nil {
		t.Fatal(err)
	}
	if want := "1\nTWO\n3\n4\nfive by the user\n6\n7\n8\n9\n10\n"; string(rev.Content) != want || rev.Delete {
		t.Errorf("after reverting the second hunk:\n%q\nwant\n%q", rev.Content, want)
	}
}

func TestRevertingAHunkTheUserChangedSinceRefuses(t *testing.T) {
	ctx := context.Background()
	s, repo, before, after := turn(t, map[string]string{"f.txt": ten}, func(repo string) {
		write(t, repo, "f.txt", "1\n2\n3\nFOUR\n5\n6\n7\n8\n9\n10\n")
	})
	changes, _ := s.Changes(ctx, before, after)
	hunks, err := s.Hunks(ctx, before, after, changes[0])
	if err != nil || len(hunks) != 1 {
		t.Fatalf("hunks %+v, %v", hunks, err)
	}
	write(t, repo, "f.txt", "1\n2\n3\nFOUR, then the user's word\n5\n6\n7\n8\n9\n10\n")
	_, err = s.RevertHunk(ctx, version(t, s, before, "f.txt"), version(t, s, after, "f.txt"), onDisk(t, repo, "f.txt"), hunks[0])
	if !errors.Is(err, ErrConflict) {
		t.Fatalf("revert over the user's edit of the same line: %v, want ErrConflict", err)
	}
}

func TestRevertingInsertionsAndDeletions(t *testing.T) {
	ctx := context.Background()
	s, repo, before, after := turn(t, map[string]string{"f.txt": ten}, func(repo string) {
		// Lines 3-4 deleted, two lines inserted after 8, a last line without a newline.
		write(t, repo, "f.txt", "1\n2\n5\n6\n7\n8\nnew a\nnew b\n9\n10\nno newline")
	})
	changes, _ := s.Changes(ctx, before, after)
	hunks, err := s.Hunks(ctx, before, after, changes[0])
	if err != nil || len(hunks) != 3 {
		t.Fatalf("hunks %+v, %v", hunks, err)
	}
	current := onDisk(t, repo, "f.txt")
	for i, want := range []string{
		"1\n2\n3\n4\n5\n6\n7\n8\nnew a\nnew b\n9\n10\nno newline",
		"1\n2\n5\n6\n7\n8\n9\n10\nno newline",
		"1\n2\n5\n6\n7\n8\nnew a\nnew b\n9\n10\n",
	} {
		rev, err := s.RevertHunk(ctx, version(t, s, before, "f.txt"), version(t, s, after, "f.txt"), current, hunks[i])
		if err != nil {
			t.Fatalf("hunk %d: %v", i, err)
		}
		if string(rev.Content) != want {
			t.Errorf("hunk %d %+v reverted:\n%q\nwant\n%q", i, hunks[i], rev.Content, want)
		}
	}
}

func TestRevertingWholeFiles(t *testing.T) {
	ctx := context.Background()
	s, repo, before, after := turn(t, map[string]string{"kept.txt": ten, "gone.txt": "old\n"}, func(repo string) {
		write(t, repo, "kept.txt", "1\n2\n3\nclaude\n5\n6\n7\n8\n9\n10\n")
		write(t, repo, "made.txt", "claude made this\n")
		if err := os.Remove(filepath.Join(repo, "gone.txt")); err != nil {
			t.Fatal(err)
		}
	})
	revert := func(path string) (Revision, error) {
		return s.RevertFile(ctx, version(t, s, before, path), version(t, s, after, path), onDisk(t, repo, path))
	}
	write(t, repo, "kept.txt", "1\n2\n3\nclaude\n5\n6\n7\n8\n9\nten by the user\n")
	if rev, err := revert("kept.txt"); err != nil || string(rev.Content) != "1\n2\n3\n4\n5\n6\n7\n8\n9\nten by the user\n" {
		t.Errorf("kept.txt: %q, %v", rev.Content, err)
	}
	if rev, err := revert("made.txt"); err != nil || !rev.Delete {
		t.Errorf("made.txt, created by Claude: %+v, %v; want it deleted", rev, err)
	}
	if rev, err := revert("gone.txt"); err != nil || string(rev.Content) != "old\n" || rev.Delete {
		t.Errorf("gone.txt, deleted by Claude: %+v, %v; want it back", rev, err)
	}
	write(t, repo, "made.txt", "claude made this\nand the user added to it\n")
	if _, err := revert("made.txt"); !errors.Is(err, ErrConflict) {
		t.Errorf("made.txt changed by the user since: %v, want ErrConflict", err)
	}
}

func TestBinaryFilesRevertOnlyWholeAndUnchanged(t *testing.T) {
	ctx := context.Background()
	s, repo, before, after := turn(t, map[string]string{"img.bin": "\x00\x01old"}, func(repo string) {
		write(t, repo, "img.bin", "\x00\x01new")
	})
	changes, _ := s.Changes(ctx, before, after)
	if hunks, err := s.Hunks(ctx, before, after, changes[0]); err != nil || len(hunks) != 0 {
		t.Errorf("a binary file's hunks: %v, %v; want none", hunks, err)
	}
	b, a := version(t, s, before, "img.bin"), version(t, s, after, "img.bin")
	if rev, err := s.RevertFile(ctx, b, a, onDisk(t, repo, "img.bin")); err != nil || string(rev.Content) != "\x00\x01old" {
		t.Errorf("unchanged since: %q, %v", rev.Content, err)
	}
	write(t, repo, "img.bin", "\x00\x01user")
	if _, err := s.RevertFile(ctx, b, a, onDisk(t, repo, "img.bin")); !errors.Is(err, ErrBinary) {
		t.Errorf("changed since: %v, want ErrBinary", err)
	}
}

func TestAllHunksMatchEachFilesHunks(t *testing.T) {
	s, _, before, after := turn(t, map[string]string{"a.txt": "1\n2\n3\n4\n", "b c.txt": "x\n", "gone.txt": "g\n"}, func(repo string) {
		write(t, repo, "a.txt", "1\nTWO\n3\n4\nfive\n")
		write(t, repo, "b c.txt", "y\n")
		write(t, repo, "new.txt", "n\n")
		if err := os.Remove(filepath.Join(repo, "gone.txt")); err != nil {
			t.Fatal(err)
		}
	})
	all, err := s.AllHunks(context.Background(), before, after)
	if err != nil {
		t.Fatal(err)
	}
	changes, err := s.Changes(context.Background(), before, after)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range changes {
		one, err := s.Hunks(context.Background(), before, after, c)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(all[c.Path]) != fmt.Sprint(one) {
			t.Errorf("%s: AllHunks %v, Hunks %v", c.Path, all[c.Path], one)
		}
	}
	if len(all) != 4 {
		t.Errorf("AllHunks has %d files (%v), want a.txt, b c.txt, new.txt, gone.txt", len(all), all)
	}
}
