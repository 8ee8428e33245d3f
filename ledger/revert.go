package ledger

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// ErrConflict: what would be taken back overlaps an edit made after Claude's; nothing is
// changed, and the user decides.
var ErrConflict = errors.New("ledger: you changed these lines after Claude did; nothing was reverted")

// ErrBinary: a binary file is taken back whole, and only if nobody changed it since.
var ErrBinary = errors.New("ledger: a binary file can only be reverted whole, and only while it is as Claude left it")

// Revision is what a file should become: Content, or no file at all when Delete is set.
type Revision struct {
	Content []byte
	Delete  bool
}

// Version is a file's content at some point; Exists is false when there was no file.
type Version struct {
	Content []byte
	Exists  bool
}

// RevertHunk takes back one hunk of Claude's change (before → after) from current, keeping
// every other change, Claude's and the user's: a three-way merge of current with "after
// without that hunk", over after. ErrConflict when the user has since changed those lines.
func (s *Store) RevertHunk(ctx context.Context, before, after, current Version, h Hunk) (Revision, error) {
	if isBinary(before.Content) || isBinary(after.Content) || isBinary(current.Content) {
		return Revision{}, ErrBinary
	}
	if !current.Exists {
		return Revision{}, ErrConflict
	}
	oldLines, newLines := splitLines(before.Content), splitLines(after.Content)
	if h.NewStart+h.NewCount-1 > len(newLines) || h.OldStart+h.OldCount-1 > len(oldLines) {
		return Revision{}, fmt.Errorf("ledger: hunk %+v is outside the file", h)
	}
	// Where the hunk sits in after: NewStart is the first changed line, or for a deletion
	// (NewCount 0) the line after which lines were removed.
	at := h.NewStart - 1
	if h.NewCount == 0 {
		at = h.NewStart
	}
	from := h.OldStart - 1
	if h.OldCount == 0 {
		from = h.OldStart
	}
	var target [][]byte
	target = append(target, newLines[:at]...)
	target = append(target, oldLines[from:from+h.OldCount]...)
	target = append(target, newLines[at+h.NewCount:]...)
	merged, err := s.merge(ctx, current.Content, after.Content, bytes.Join(target, nil))
	if err != nil {
		return Revision{}, err
	}
	return Revision{Content: merged}, nil
}

// RevertFile takes back Claude's whole change to a file, keeping the user's later edits
// where they do not overlap it. A file Claude created is deleted only if nobody changed it
// since; a file Claude deleted comes back only if nobody made a new one.
func (s *Store) RevertFile(ctx context.Context, before, after, current Version) (Revision, error) {
	switch {
	case !before.Exists: // Claude created it
		if current.Exists && !bytes.Equal(current.Content, after.Content) {
			return Revision{}, ErrConflict
		}
		return Revision{Delete: true}, nil
	case !after.Exists: // Claude deleted it
		if current.Exists {
			return Revision{}, ErrConflict
		}
		return Revision{Content: before.Content}, nil
	case !current.Exists:
		return Revision{}, ErrConflict
	case bytes.Equal(current.Content, after.Content):
		return Revision{Content: before.Content}, nil
	case isBinary(before.Content) || isBinary(after.Content) || isBinary(current.Content):
		return Revision{}, ErrBinary
	}
	merged, err := s.merge(ctx, current.Content, after.Content, before.Content)
	if err != nil {
		return Revision{}, err
	}
	return Revision{Content: merged}, nil
}

// merge is git merge-file: ours and theirs, each a change from base, combined; ErrConflict
// when they overlap. The three texts go through files in a private directory of the store.
func (s *Store) merge(ctx context.Context, ours, base, theirs []byte) ([]byte, error) {
	dir, err := os.MkdirTemp(s.git.gitDir, "merge-")
	if err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	defer os.RemoveAll(dir)
	names := []string{"current", "claude", "revert"}
	for i, data := range [][]byte{ours, base, theirs} {
		if err := os.WriteFile(filepath.Join(dir, names[i]), data, 0o600); err != nil {
			return nil, fmt.Errorf("ledger: %w", err)
		}
	}
	cmd := exec.CommandContext(ctx, "git", "merge-file", "-p", "--quiet", names[0], names[1], names[2])
	cmd.Dir = dir
	cmd.Env = s.git.env()
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return out.Bytes(), nil
	case errors.As(err, &exit) && exit.ExitCode() > 0 && exit.ExitCode() < 127:
		// The exit code counts the conflicts.
		return nil, ErrConflict
	default:
		return nil, fmt.Errorf("ledger: merge: %v: %s", err, bytes.TrimSpace(stderr.Bytes()))
	}
}

// splitLines cuts s after each newline, keeping it; a last line without one is kept as is.
func splitLines(s []byte) [][]byte {
	var lines [][]byte
	for len(s) > 0 {
		i := bytes.IndexByte(s, '\n')
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i+1])
		s = s[i+1:]
	}
	return lines
}

// isBinary is git's rule: a NUL byte in the first 8000 bytes.
func isBinary(b []byte) bool {
	return bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0
}
