package ledger

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// ErrNoBase: the user's repository has no commit to compare with (no HEAD yet, or no branch
// to take a merge base with).
var ErrNoBase = errors.New("ledger: nothing to compare with")

// userGit runs git on the user's repository itself, read only: its refs and objects (the
// store reads the same objects through alternates). GIT_DIR and GIT_WORK_TREE are given, so
// nothing in the tree redirects it, and no fsmonitor or hook runs for these read commands.
func (s *Store) userGit() gitRunner {
	return gitRunner{gitDir: filepath.Join(s.root, ".git"), workTree: s.root, failed: nil}
}

// HeadTree is the tree of the user's HEAD commit: everything committed.
func (s *Store) HeadTree(ctx context.Context) (Tree, error) {
	if !s.repo {
		return "", ErrNotRepository
	}
	return s.userTree(ctx, "HEAD")
}

// BranchBase is the tree of the merge base of the user's HEAD with its upstream, or else with
// origin's default branch, main or master (the first that exists and is not HEAD itself),
// and the name it was taken against.
func (s *Store) BranchBase(ctx context.Context) (Tree, string, error) {
	if !s.repo {
		return "", "", ErrNotRepository
	}
	g := s.userGit()
	for _, ref := range []string{"@{upstream}", "refs/remotes/origin/HEAD", "refs/heads/main", "refs/heads/master"} {
		name, err := g.run(ctx, nil, "rev-parse", "--verify", "--quiet", "--symbolic-full-name", ref)
		if err != nil || strings.TrimSpace(string(name)) == "" {
			continue
		}
		head, _ := g.run(ctx, nil, "symbolic-ref", "--quiet", "HEAD")
		if strings.TrimSpace(string(head)) == strings.TrimSpace(string(name)) {
			continue // the branch itself: its merge base is HEAD
		}
		base, err := g.run(ctx, nil, "merge-base", "HEAD", ref)
		if err != nil {
			continue
		}
		tree, err := s.userTree(ctx, strings.TrimSpace(string(base)))
		if err != nil {
			return "", "", err
		}
		return tree, strings.TrimPrefix(strings.TrimSpace(string(name)), "refs/heads/"), nil
	}
	return "", "", fmt.Errorf("%w: no upstream, origin/HEAD, main or master besides the current branch", ErrNoBase)
}

func (s *Store) userTree(ctx context.Context, rev string) (Tree, error) {
	out, err := s.userGit().run(ctx, nil, "rev-parse", "--verify", "--quiet", rev+"^{tree}")
	if err != nil || strings.TrimSpace(string(out)) == "" {
		return "", fmt.Errorf("%w: %s has no commit", ErrNoBase, rev)
	}
	return Tree(strings.TrimSpace(string(out))), nil
}

// SnapshotNow is a snapshot of the work tree now, outside any turn (the "after" of a
// comparison with a commit), with the files it left out for their size.
func (s *Store) SnapshotNow(ctx context.Context) (Tree, Large, error) {
	unlock, err := s.lock(ctx)
	if err != nil {
		return "", nil, err
	}
	defer unlock()
	return s.snapshot(ctx)
}
