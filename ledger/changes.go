package ledger

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// FileChange is one file that differs between two snapshots.
type FileChange struct {
	Path    string // relative to Root, with forward slashes
	OldPath string // for a rename, where it was; else empty
	// Status: 'A' added, 'M' modified, 'D' deleted, 'R' renamed, 'T' type changed (a file
	// became a link or the other way).
	Status byte
	// Added and Deleted count lines; both are 0 for a binary file.
	Added, Deleted int
	Binary         bool
	gitlink        bool
}

// Changes lists the files that differ from from to to, sorted by path, renames found.
func (s *Store) Changes(ctx context.Context, from, to Tree) ([]FileChange, error) {
	out, err := s.git.run(ctx, nil, "diff-tree", "-r", "-z", "--no-ext-diff",
		"--raw", "--numstat", "-M", string(from), string(to))
	if err != nil {
		return nil, fmt.Errorf("ledger: changes: %w", err)
	}
	return parseRawNumstat(out)
}

// parseRawNumstat reads `git diff-tree -z --raw --numstat` output: first one raw record per
// file (":mode mode oid oid STATUS\0path\0[path\0]"), then one numstat record per file
// ("added\tdeleted\tpath\0", or "added\tdeleted\t\0old\0new\0" for a rename), in the same
// order.
func parseRawNumstat(out []byte) ([]FileChange, error) {
	fields := bytes.Split(out, []byte{0})
	var changes []FileChange
	i := 0
	for ; i < len(fields) && len(fields[i]) > 0 && fields[i][0] == ':'; i++ {
		meta := strings.Fields(string(fields[i]))
		if len(meta) != 5 || meta[4] == "" || i+1 >= len(fields) {
			return nil, fmt.Errorf("ledger: changes: bad raw record %q", fields[i])
		}
		c := FileChange{Status: meta[4][0]}
		// A gitlink (a commit's submodule, compared with a snapshot that keeps none): not a
		// file, never listed.
		c.gitlink = meta[0] == ":160000" || meta[1] == "160000"
		i++
		c.Path = string(fields[i])
		if c.Status == 'R' || c.Status == 'C' {
			if i+1 >= len(fields) {
				return nil, fmt.Errorf("ledger: changes: rename without a new path")
			}
			c.OldPath, c.Path = c.Path, string(fields[i+1])
			i++
		}
		changes = append(changes, c)
	}
	for n := range changes {
		if i >= len(fields) {
			return nil, fmt.Errorf("ledger: changes: %d numstat records for %d files", n, len(changes))
		}
		counts := strings.SplitN(string(fields[i]), "\t", 3)
		if len(counts) != 3 {
			return nil, fmt.Errorf("ledger: changes: bad numstat record %q", fields[i])
		}
		if counts[2] == "" { // a rename: the two paths follow
			i += 2
		}
		i++
		if counts[0] == "-" {
			changes[n].Binary = true
			continue
		}
		added, err1 := strconv.Atoi(counts[0])
		deleted, err2 := strconv.Atoi(counts[1])
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("ledger: changes: bad numstat record %q", fields[i-1])
		}
		changes[n].Added, changes[n].Deleted = added, deleted
	}
	return slices.DeleteFunc(changes, func(c FileChange) bool { return c.gitlink }), nil
}

// Read returns the bytes of path (relative to Root, or absolute) in snapshot t; ErrNotExist
// when t has no such file.
func (s *Store) Read(ctx context.Context, t Tree, path string) ([]byte, error) {
	rel, err := s.relative(path)
	if err != nil {
		return nil, err
	}
	out, err := s.git.run(ctx, nil, "cat-file", "blob", string(t)+":"+rel)
	if err != nil {
		if strings.Contains(err.Error(), "does not exist") || strings.Contains(err.Error(), "Not a valid object name") || strings.Contains(err.Error(), "exists on disk, but not in") {
			return nil, fmt.Errorf("%w: %s", ErrNotExist, rel)
		}
		return nil, fmt.Errorf("ledger: read %s: %w", rel, err)
	}
	return out, nil
}
