package ledger

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// How a snapshot is taken (issue 35). `git add -A` is not used: for every gitlink it meets
// (a submodule, a repository embedded in the tree, a folder whose .git is a file) it runs
// `git status` inside that repository with its own config, so a core.fsmonitor command or a
// clean filter written there by a tool would run at our next snapshot. Instead git is asked
// only for names (diff-files, ls-files), and the snapshot's index is updated with
// update-index from a list this package has checked itself:
//   - a nested repository (ls-files shows it as "dir/") is never entered, listed or added;
//   - gitlinks are dropped from the index the store starts from, and diff-files ignores any
//     (--ignore-submodules=all), so no git runs inside one;
//   - a path behind a symbolic link, a directory, a FIFO, a socket or a device is left out;
//   - a regular file over the file size limit is left out and reported (Large), never read.
// This is as much work as `git status`: one stat of each indexed file, one walk for new ones.

// stageRetries: how many more times a snapshot whose staging failed is tried.
const stageRetries = 3

// Large is what a snapshot left out for its size: path (relative) → "size mtime", so that a
// later snapshot can tell whether it changed.
type Large map[string]string

// Snapshot records the whole work tree as it is now (what `git add -A` would stage: new
// files too, ignored files not, nested repositories and files over the size limit never) and
// returns its tree. Only files whose size or time changed since the last snapshot are read
// again.
func (s *Store) Snapshot(ctx context.Context) (Tree, error) {
	unlock, err := s.lock(ctx)
	if err != nil {
		return "", err
	}
	defer unlock()
	tree, _, err := s.snapshot(ctx)
	return tree, err
}

func (s *Store) snapshot(ctx context.Context) (Tree, Large, error) {
	if !s.repo {
		return "", nil, ErrNotRepository
	}
	if err := s.dropGitlinks(ctx); err != nil {
		return "", nil, err
	}
	paths, err := s.candidates(ctx)
	if err != nil {
		// An index git cannot read (see seedIndex) is rebuilt from the files.
		if rmErr := os.Remove(filepath.Join(s.git.gitDir, "index")); rmErr != nil {
			return "", nil, fmt.Errorf("ledger: snapshot of %s: %w", s.root, err)
		}
		if paths, err = s.candidates(ctx); err != nil {
			return "", nil, fmt.Errorf("ledger: snapshot of %s: %w", s.root, err)
		}
	}
	large, staged, err := s.stage(ctx, s.git, paths)
	// A file rewritten while git read it (git maps it, and dies of a bus error when it
	// shrinks, leaving its lock), or one replaced by a FIFO since it was checked: clean up
	// and look again. A file rewritten all the time fails one read in about fifteen.
	for try := 0; err != nil && try < stageRetries && ctx.Err() == nil; try++ {
		s.removeStaleLocks()
		if paths, err = s.candidates(ctx); err == nil {
			large, staged, err = s.stage(ctx, s.git, paths)
		}
	}
	if err != nil {
		return "", nil, fmt.Errorf("ledger: snapshot of %s: %w", s.root, err)
	}
	// Nothing staged and the index as the last write-tree left it: the same tree (the
	// usual prompt after a turn that wrote nothing, at the cost of one ls-files).
	index, _ := os.Stat(filepath.Join(s.git.gitDir, "index"))
	if !staged && s.lastTree != "" && index != nil && s.lastIndex != nil && sameStat(index, s.lastIndex) {
		return s.lastTree, large, nil
	}
	tree, err := writeTree(ctx, s.git)
	if err != nil {
		return "", nil, err
	}
	// Stat after write-tree: it may rewrite the index (its cache of trees).
	s.lastTree, s.lastIndex = tree, nil
	if info, err := os.Stat(filepath.Join(s.git.gitDir, "index")); err == nil {
		s.lastIndex = info
	}
	return tree, large, nil
}

// sameStat says whether a and b are the same file, unchanged (size, time, inode).
func sameStat(a, b os.FileInfo) bool {
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime())
}

// candidates are the paths that may differ from the index: indexed files whose stat data
// changed or that are gone (-m -d), and files not in the index that git does not ignore (-o),
// from one git: one read of the index and one walk of the tree, as `git status` does. A
// nested repository comes as "dir/", which stage leaves out; ls-files never runs anything
// inside one (a gitlink's HEAD is read, never its work tree).
func (s *Store) candidates(ctx context.Context) ([]string, error) {
	out, err := s.git.run(ctx, nil, "ls-files", "-z", "-m", "-d", "-o", "--exclude-standard")
	if err != nil {
		return nil, err
	}
	return splitNul(out), nil
}

// dropGitlinks removes every gitlink from the index once per Store: the index seeded from
// the user's names their submodules, and no git of ours may look inside one.
func (s *Store) dropGitlinks(ctx context.Context) error {
	if s.gitlinksDropped {
		return nil
	}
	out, err := s.git.run(ctx, nil, "ls-files", "-z", "-s")
	if err != nil {
		// No index yet, or one git cannot read: candidates starts it again.
		return nil
	}
	var links []string
	for _, rec := range splitNul(out) {
		if meta, path, ok := strings.Cut(rec, "\t"); ok && strings.HasPrefix(meta, "160000 ") {
			links = append(links, path)
		}
	}
	if len(links) > 0 {
		if _, err := s.git.run(ctx, nulList(links), "update-index", "-z", "--force-remove", "--stdin"); err != nil {
			return fmt.Errorf("ledger: dropping nested repositories from the snapshot: %w", err)
		}
	}
	s.gitlinksDropped = true
	return nil
}

// stage brings g's index in line with paths as they are on disk, after checking each: a
// regular file or a link is added, anything else (gone, a directory, a nested repository,
// behind a link, a special file, over the size limit) is removed. update-index reads only
// the files it is given, and git reads a link's target as text, never through it.
func (s *Store) stage(ctx context.Context, g gitRunner, paths []string) (large Large, staged bool, err error) {
	var add, remove []string
	large = Large{}
	seen := map[string]bool{}
	dirs := map[string]bool{} // directories checked to be real, not links
	for _, rel := range paths {
		if strings.HasSuffix(rel, "/") || seen[rel] {
			continue // a nested repository, never recorded
		}
		seen[rel] = true
		info, ok := s.lstatInside(rel, dirs)
		switch {
		case !ok:
			remove = append(remove, rel)
		case info.Mode().IsRegular() && info.Size() > s.fileLimit:
			large[rel] = fmt.Sprintf("%d %d", info.Size(), info.ModTime().UnixNano())
			remove = append(remove, rel)
		case info.Mode().IsRegular() || info.Mode()&os.ModeSymlink != 0:
			add = append(add, rel)
		default:
			remove = append(remove, rel)
		}
	}
	if len(add) > 0 {
		// A file replaced between the check and git's read (a FIFO, a directory) fails the
		// whole update; the caller's next snapshot checks again.
		if _, err := g.run(ctx, nulList(add), "update-index", "-z", "--add", "--remove", "--stdin"); err != nil {
			return nil, false, err
		}
	}
	if len(remove) > 0 {
		if _, err := g.run(ctx, nulList(remove), "update-index", "-z", "--force-remove", "--stdin"); err != nil {
			return nil, false, err
		}
	}
	return large, len(add)+len(remove) > 0, nil
}

// lstatInside stats rel (relative to Root) without following a link anywhere on its way: ok
// is false when it is gone or a directory on its way is a link or not a directory.
func (s *Store) lstatInside(rel string, dirs map[string]bool) (os.FileInfo, bool) {
	parts := strings.Split(rel, "/")
	for i := 1; i < len(parts); i++ {
		dir := strings.Join(parts[:i], "/")
		real, checked := dirs[dir]
		if !checked {
			info, err := os.Lstat(filepath.Join(s.root, filepath.FromSlash(dir)))
			real = err == nil && info.IsDir()
			dirs[dir] = real
		}
		if !real {
			return nil, false
		}
	}
	info, err := os.Lstat(filepath.Join(s.root, filepath.FromSlash(rel)))
	if err != nil || info.IsDir() {
		return nil, false
	}
	return info, true
}

// SnapshotFiles records base with paths (absolute, or relative to Root) replaced by what is
// on disk now; a path that no longer exists is removed. For workspaces outside git, where
// the files the tools named are what can be followed.
func (s *Store) SnapshotFiles(ctx context.Context, base Tree, paths []string) (Tree, error) {
	unlock, err := s.lock(ctx)
	if err != nil {
		return "", err
	}
	defer unlock()
	tree, _, err := s.snapshotFiles(ctx, base, paths)
	return tree, err
}

func (s *Store) snapshotFiles(ctx context.Context, base Tree, paths []string) (Tree, Large, error) {
	rels := make([]string, 0, len(paths))
	for _, p := range paths {
		rel, err := s.relative(p)
		if err != nil {
			return "", nil, err
		}
		rels = append(rels, rel)
	}
	if _, err := s.files.run(ctx, nil, "read-tree", string(base)); err != nil {
		return "", nil, fmt.Errorf("ledger: %w", err)
	}
	large, _, err := s.stage(ctx, s.files, rels)
	if err != nil {
		return "", nil, fmt.Errorf("ledger: snapshot of %d files: %w", len(rels), err)
	}
	tree, err := writeTree(ctx, s.files)
	return tree, large, err
}

// nulList is paths as -z and --pathspec-file-nul read them.
func nulList(paths []string) []byte {
	return []byte(strings.Join(paths, "\x00") + "\x00")
}

// splitNul cuts -z output into its records.
func splitNul(out []byte) []string {
	var list []string
	for rec := range bytes.SplitSeq(out, []byte{0}) {
		if len(rec) > 0 {
			list = append(list, string(rec))
		}
	}
	return list
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
