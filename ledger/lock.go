package ledger

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Only one git of ours works in a store at a time: s.mu within this process, and an flock on
// storeLockName between processes (two Neovims in one workspace share its store). So a git
// lock file found while both are held is a leftover of a git that died mid-write (a crash on
// a file rewritten while it was read, a killed host), and is removed: left in place, it
// would make every later snapshot fail, across restarts (issue 35).

// storeLockName is the file the store's processes lock, in the store's directory.
const storeLockName = "ledger.lock"

// lockPoll: how often a store locked by another process is tried again.
const lockPoll = 20 * time.Millisecond

// lock takes the store for one operation and returns its release.
func (s *Store) lock(ctx context.Context) (func(), error) {
	s.mu.Lock()
	f, err := os.OpenFile(filepath.Join(s.git.gitDir, storeLockName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		s.mu.Unlock()
		return nil, fmt.Errorf("ledger: %w", err)
	}
	for {
		ok, err := tryLockFile(f)
		if err != nil || ok {
			if err != nil {
				f.Close()
				s.mu.Unlock()
				return nil, fmt.Errorf("ledger: locking the store: %w", err)
			}
			break
		}
		select {
		case <-ctx.Done():
			f.Close()
			s.mu.Unlock()
			return nil, fmt.Errorf("ledger: the store is busy in another editor: %w", ctx.Err())
		case <-time.After(lockPoll):
		}
	}
	s.removeStaleLocks()
	return func() {
		f.Close() // releases the flock
		s.mu.Unlock()
	}, nil
}

// removeStaleLocks removes the lock files a dead git left: the indexes' at each operation
// (two stats), the refs' and the config's once per Store and after a git failed.
func (s *Store) removeStaleLocks() {
	for _, name := range []string{"index.lock", "index-files.lock"} {
		s.removeLock(filepath.Join(s.git.gitDir, name))
	}
	if failed := s.gitFailed.Swap(false); !failed && s.swept {
		return
	}
	s.swept = true
	for _, name := range []string{"packed-refs.lock", "config.lock", "HEAD.lock", "shallow.lock"} {
		s.removeLock(filepath.Join(s.git.gitDir, name))
	}
	_ = filepath.WalkDir(filepath.Join(s.git.gitDir, "refs"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".lock") {
			s.removeLock(path)
		}
		return nil
	})
}

func (s *Store) removeLock(path string) {
	if err := os.Remove(path); err == nil {
		s.log.Warn("ledger: removed a lock left by a git that stopped mid-write", "path", path)
	} else if !errors.Is(err, fs.ErrNotExist) {
		s.log.Warn("ledger: a stale lock stays", "err", err)
	}
}
