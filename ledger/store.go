package ledger

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
)

// Tree is a snapshot: a git tree id in the Store's repository.
type Tree string

// ErrNotRepository: Snapshot needs a git work tree; elsewhere use SnapshotFiles.
var ErrNotRepository = errors.New("ledger: the workspace is not in a git work tree")

// ErrOutside: a path given to SnapshotFiles or Read is not inside the workspace.
var ErrOutside = errors.New("ledger: path outside the workspace")

// ErrNotExist: Read found no such file in the snapshot.
var ErrNotExist = errors.New("ledger: no such file in the snapshot")

// Store holds the snapshots of one workspace.
type Store struct {
	// mu makes the journal's read-change-write and the snapshots one at a time (git's index
	// lock would refuse a second writer anyway).
	mu  sync.Mutex
	git gitRunner // Snapshot's: the index keeps the work tree's file times
	// files is SnapshotFiles': its own index, rebuilt from the base tree each time, so that it
	// never spoils the work tree index's record of what is unchanged.
	files gitRunner
	root  string // the directory snapshots cover: the work tree's top, or the workspace
	repo  bool   // root is a git work tree's top
	// empty is the empty tree's id in this object format.
	empty Tree

	// log hears what the store did on its own (a stale lock removed); SetLog.
	log *slog.Logger
	// fileLimit: a file larger than this is left out of snapshots (SetLimits).
	fileLimit int64
	// Guarded by mu: gitlinksDropped once the index holds no gitlink (snapshot.go), swept
	// once the refs' stale locks were looked for (lock.go).
	gitlinksDropped, swept bool
	// gitFailed: a git failed since the last sweep; the next lock looks for its leftovers.
	gitFailed *atomic.Bool
	// lastTree is the work tree index's last write-tree, while the index file is lastIndex
	// (guarded by mu): a snapshot that staged nothing reuses it.
	lastTree  Tree
	lastIndex os.FileInfo
}

// attributes go to the private info/attributes, which outranks every .gitattributes: no
// filter (git-lfs, a workspace's own), no line-ending or encoding conversion, no $Id$
// expansion. A snapshot is the bytes on disk, and nothing the workspace names is run.
const attributes = "* -text -filter -ident -working-tree-encoding\n"

// Open opens or creates the store of workspace under dir (one subdirectory per work tree or
// workspace, named after it). It writes nothing in the workspace or its repository.
func Open(ctx context.Context, dir, workspace string) (*Store, error) {
	gitDir, root, format, user, repo, err := locate(ctx, dir, workspace)
	if err != nil {
		return nil, err
	}
	failed := new(atomic.Bool)
	s := &Store{
		git:   gitRunner{gitDir: gitDir, workTree: root, index: "index", failed: failed},
		files: gitRunner{gitDir: gitDir, workTree: root, index: "index-files", failed: failed},
		root:  root, repo: repo,
		log: slog.New(slog.DiscardHandler), fileLimit: DefaultLimits.FileSize, gitFailed: failed,
	}
	if err := s.init(ctx, format); err != nil {
		return nil, err
	}
	if repo {
		if err := s.followUserRepo(user); err != nil {
			return nil, err
		}
	}
	empty, err := s.git.run(ctx, nil, "hash-object", "-t", "tree", "--stdin")
	if err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	s.empty = Tree(strings.TrimSpace(string(empty)))
	return s, nil
}

// Exists says whether workspace has a store under dir already, creating nothing (to show
// what was recorded without starting a ledger for every directory the editor opens).
func Exists(ctx context.Context, dir, workspace string) bool {
	gitDir, _, _, _, _, err := locate(ctx, dir, workspace)
	if err != nil {
		return false
	}
	_, err = os.Stat(filepath.Join(gitDir, "HEAD"))
	return err == nil
}

// locate finds the root a workspace's snapshots cover and its store's directory under dir.
func locate(ctx context.Context, dir, workspace string) (gitDir, root, format string, user userRepo, repo bool, err error) {
	workspace, err = filepath.Abs(workspace)
	if err != nil {
		return "", "", "", userRepo{}, false, fmt.Errorf("ledger: %w", err)
	}
	user, repo, err = findUserRepo(ctx, workspace)
	if err != nil {
		return "", "", "", userRepo{}, false, err
	}
	root, format = workspace, "sha1"
	if repo {
		root, format = user.top, user.format
	}
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(dir, filepath.Base(root)+"-"+hex.EncodeToString(sum[:8])), root, format, user, repo, nil
}

// SetLog sends what the store does on its own (a stale lock removed) to log.
func (s *Store) SetLog(log *slog.Logger) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = log
}

// SetLimits sets the size limits of later snapshots (the other limits are Forget's).
func (s *Store) SetLimits(l Limits) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l.FileSize > 0 {
		s.fileLimit = l.FileSize
	}
}

// Root is the directory the snapshots cover (paths in Changes are relative to it).
func (s *Store) Root() string { return s.root }

// Dir is the store's private repository (for :checkhealth).
func (s *Store) Dir() string { return s.git.gitDir }

// Repository says whether Root is a git work tree (Snapshot works) or not (SnapshotFiles).
func (s *Store) Repository() bool { return s.repo }

// Empty is the snapshot of nothing: the base for SnapshotFiles' first call.
func (s *Store) Empty() Tree { return s.empty }

// init creates the private repository once; only the user can read it (0700).
func (s *Store) init(ctx context.Context, format string) error {
	gitDir := s.git.gitDir
	if _, err := os.Stat(filepath.Join(gitDir, "HEAD")); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(gitDir), 0o700); err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	init := gitRunner{gitDir: gitDir}
	if _, err := init.run(ctx, nil, "init", "-q", "--bare", "--object-format="+format, gitDir); err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	if err := os.Chmod(gitDir, 0o700); err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	// Not bare: we give it a work tree. No automatic gc: our snapshots are referenced by
	// nothing but the ledger, and gc would prune them.
	for _, kv := range [][2]string{{"core.bare", "false"}, {"gc.auto", "0"}, {"core.autocrlf", "false"}, {"core.safecrlf", "false"}} {
		if _, err := init.run(ctx, nil, "config", kv[0], kv[1]); err != nil {
			return fmt.Errorf("ledger: %w", err)
		}
	}
	if err := os.WriteFile(filepath.Join(gitDir, "info", "attributes"), []byte(attributes), 0o600); err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	return nil
}

// followUserRepo points the store at the user's objects (read only) and copies their
// info/exclude, so that what their git ignores we ignore too.
func (s *Store) followUserRepo(user userRepo) error {
	info := filepath.Join(s.git.gitDir, "objects", "info")
	if err := os.MkdirAll(info, 0o700); err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	if err := os.WriteFile(filepath.Join(info, "alternates"), []byte(user.objects+"\n"), 0o600); err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	s.seedIndex(user.index)
	exclude, err := os.ReadFile(user.exclude)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("ledger: %w", err)
	}
	return os.WriteFile(filepath.Join(s.git.gitDir, "info", "exclude"), exclude, 0o600)
}

// seedIndex starts a new store's index as a copy of the user's, so that the first snapshot
// of a large repository reads only the files that differ from it (their stat data says which)
// instead of every file. The blobs it names are in the user's objects, which the store reads.
// Git replaces its index by renaming a new one in, so the copy is never half-written. A copy
// git cannot use (a split index, whose other half stays in the user's .git) is dropped by
// Snapshot, which then starts from nothing.
func (s *Store) seedIndex(userIndex string) {
	ours := filepath.Join(s.git.gitDir, "index")
	if _, err := os.Stat(ours); err == nil {
		return
	}
	data, err := os.ReadFile(userIndex)
	if err != nil {
		return // a new repository has no index yet
	}
	_ = os.WriteFile(ours, data, 0o600)
}
