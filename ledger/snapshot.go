package ledger

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Snapshot records the whole work tree as it is now (what `git add -A` would stage: new
// files too, ignored files not) and returns its tree. Only files whose size or time changed
// since the last snapshot are read again.
func (s *Store) Snapshot(ctx context.Context) (Tree, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.snapshot(ctx)
}

func (s *Store) snapshot(ctx context.Context) (Tree, error) {
	if !s.repo {
		return "", ErrNotRepository
	}
	if _, err := s.git.run(ctx, nil, "add", "-A", "--ignore-errors", "--", "."); err != nil {
		// An index git cannot read (see seedIndex) is rebuilt from the files.
		if rmErr := os.Remove(filepath.Join(s.git.gitDir, "index")); rmErr != nil {
			return "", fmt.Errorf("ledger: snapshot of %s: %w", s.root, err)
		}
		if _, err := s.git.run(ctx, nil, "add", "-A", "--ignore-errors", "--", "."); err != nil {
			return "", fmt.Errorf("ledger: snapshot of %s: %w", s.root, err)
		}
	}
	return writeTree(ctx, s.git)
}

// SnapshotFiles records base with paths (absolute, or relative to Root) replaced by what is
// on disk now; a path that no longer exists is removed. For workspaces outside git, where
// the files the tools named are what can be followed.
func (s *Store) SnapshotFiles(ctx context.Context, base Tree, paths []string) (Tree, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.snapshotFiles(ctx, base, paths)
}

func (s *Store) snapshotFiles(ctx context.Context, base Tree, paths []string) (Tree, error) {
	rels := make([]string, 0, len(paths))
	for _, p := range paths {
		rel, err := s.relative(p)
		if err != nil {
			return "", err
		}
		rels = append(rels, rel)
	}
	if _, err := s.files.run(ctx, nil, "read-tree", string(base)); err != nil {
		return "", fmt.Errorf("ledger: %w", err)
	}
	var present, missing []string
	for _, rel := range rels {
		if _, err := os.Lstat(filepath.Join(s.root, filepath.FromSlash(rel))); err == nil {
			present = append(present, rel)
		} else {
			missing = append(missing, rel)
		}
	}
	// --pathspec-from-file: no argument list limit; --literal-pathspecs: no glob magic in
	// file names.
	if len(present) > 0 {
		if _, err := s.files.run(ctx, nulList(present), "--literal-pathspecs", "add", "-A", "--ignore-errors", "--pathspec-from-file=-", "--pathspec-file-nul"); err != nil {
			return "", fmt.Errorf("ledger: snapshot of %d files: %w", len(present), err)
		}
	}
	if len(missing) > 0 {
		if _, err := s.files.run(ctx, nulList(missing), "--literal-pathspecs", "rm", "-q", "--cached", "--ignore-unmatch", "--pathspec-from-file=-", "--pathspec-file-nul"); err != nil {
			return "", fmt.Errorf("ledger: snapshot of %d deleted files: %w", len(missing), err)
		}
	}
	return writeTree(ctx, s.files)
}

// nulList is paths as --pathspec-file-nul reads them.
func nulList(paths []string) []byte {
	return []byte(strings.Join(paths, "\x00") + "\x00")
}

func writeTree(ctx context.Context, g gitRunner) (Tree, error) {
	out, err := g.run(ctx, nil, "write-tree")
	if err != nil {
		return "", fmt.Errorf("ledger: %w", err)
	}
	return Tree(strings.TrimSpace(string(out))), nil
}

// relative is p relative to Root, refusing what is outside it (after resolving symlinks of
// the directories, so that a link cannot lead the ledger out of the workspace).
func (s *Store) relative(p string) (string, error) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(s.root, p)
	}
	p = filepath.Clean(p)
	if dir, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		p = filepath.Join(dir, filepath.Base(p))
	}
	root := s.root
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(os.PathSeparator)) {
		return "", fmt.Errorf("%w: %s", ErrOutside, p)
	}
	return filepath.ToSlash(rel), nil
}
