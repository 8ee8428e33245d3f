package ledger

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// BenchmarkSnapshot: a repository of 20,000 committed files (a mid-sized project; set
// LEDGER_BENCH_FILES for another size, 100000 for a big monorepo). "first" is a new store's
// first snapshot (its index seeded from the user's); "after-edits" a snapshot after a turn
// changed 200 files, with the changes listed.
func BenchmarkSnapshot(b *testing.B) {
	files := 20000
	if n, err := strconv.Atoi(os.Getenv("LEDGER_BENCH_FILES")); err == nil && n > 200*97/100 {
		files = n
	}
	home := b.TempDir()
	b.Setenv("HOME", home)
	repo, _ := filepath.EvalSymlinks(b.TempDir())
	run := func(args ...string) {
		b.Helper()
		if out, err := gitCmd(repo, args...).CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q")
	for i := range files {
		p := filepath.Join(repo, fmt.Sprintf("d%02d/f%05d.go", i%100, i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, fmt.Appendf(nil, "package d\n\n// file %d\nfunc F%d() int { return %d }\n", i, i, i), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	run("add", "-A")
	run("-c", "user.name=U", "-c", "user.email=u@example.com", "commit", "-q", "-m", "many")
	ctx := context.Background()
	b.Run("first", func(b *testing.B) {
		for range b.N {
			s, err := Open(ctx, b.TempDir(), repo)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := s.Snapshot(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
	// The floor the CLI's wait is measured against: the user's own `git status` on the same
	// tree, its index warm (refreshed once before).
	b.Run("floor-git-status", func(b *testing.B) {
		run("status", "--porcelain")
		b.ResetTimer()
		for range b.N {
			run("status", "--porcelain")
		}
	})
	// What a prompt's hook waits for when nothing changed since the last snapshot, and when
	// one file did (the usual turn).
	b.Run("incremental-unchanged", func(b *testing.B) {
		s, err := Open(ctx, b.TempDir(), repo)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Snapshot(ctx); err != nil {
			b.Fatal(err)
		}
		b.ResetTimer()
		for range b.N {
			if _, err := s.Snapshot(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("incremental-one-edit", func(b *testing.B) {
		s, err := Open(ctx, b.TempDir(), repo)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Snapshot(ctx); err != nil {
			b.Fatal(err)
		}
		p := filepath.Join(repo, "d07/f00007.go")
		b.ResetTimer()
		for n := range b.N {
			if err := os.WriteFile(p, fmt.Appendf(nil, "package d\n// one edit %d\n", n), 0o644); err != nil {
				b.Fatal(err)
			}
			if _, err := s.Snapshot(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("after-edits", func(b *testing.B) {
		s, err := Open(ctx, b.TempDir(), repo)
		if err != nil {
			b.Fatal(err)
		}
		before, err := s.Snapshot(ctx)
		if err != nil {
			b.Fatal(err)
		}
		for n := range b.N {
			for i := range 200 {
				p := filepath.Join(repo, fmt.Sprintf("d%02d/f%05d.go", (i*97)%100, i*97%files))
				if err := os.WriteFile(p, fmt.Appendf(nil, "package d\n// edit %d\n", n), 0o644); err != nil {
					b.Fatal(err)
				}
			}
			after, err := s.Snapshot(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := s.Changes(ctx, before, after); err != nil {
				b.Fatal(err)
			}
			before = after
		}
	})
}

// BenchmarkSnapshotBigFile: a turn that rewrote one line of a 50 MiB file, snapshot and
// changes listed.
func BenchmarkSnapshotBigFile(b *testing.B) {
	b.Setenv("HOME", b.TempDir())
	repo, _ := filepath.EvalSymlinks(b.TempDir())
	if out, err := gitCmd(repo, "init", "-q").CombinedOutput(); err != nil {
		b.Fatalf("git init: %v\n%s", err, out)
	}
	line := []byte("0123456789 the quick brown fox jumps over the lazy dog 0123456789\n")
	big := bytes.Repeat(line, (50<<20)/len(line))
	path := filepath.Join(repo, "big.txt")
	if err := os.WriteFile(path, big, 0o644); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	s, err := Open(ctx, b.TempDir(), repo)
	if err != nil {
		b.Fatal(err)
	}
	before, err := s.Snapshot(ctx)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for n := range b.N {
		copy(big[len(line)*1000:], fmt.Sprintf("edit %09d", n))
		if err := os.WriteFile(path, big, 0o644); err != nil {
			b.Fatal(err)
		}
		after, err := s.Snapshot(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Changes(ctx, before, after); err != nil {
			b.Fatal(err)
		}
		before = after
	}
}
