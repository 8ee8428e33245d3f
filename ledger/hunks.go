package ledger

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Hunk is one changed stretch of a file between two snapshots, in lines. Starts are 1-based;
// a count of 0 is an insertion (OldCount) or a deletion (NewCount) after line Start.
type Hunk struct {
	OldStart, OldCount int
	NewStart, NewCount int
}

// Hunks lists the changed stretches of c between from and to, with no context lines, as
// `git diff -U0` finds them. A binary file has none: it is taken back whole or not at all.
func (s *Store) Hunks(ctx context.Context, from, to Tree, c FileChange) ([]Hunk, error) {
	if c.Binary {
		return nil, nil
	}
	oldPath := c.Path
	if c.OldPath != "" {
		oldPath = c.OldPath
	}
	a, err := s.blob(ctx, from, oldPath)
	if err != nil {
		return nil, err
	}
	b, err := s.blob(ctx, to, c.Path)
	if err != nil {
		return nil, err
	}
	out, err := s.git.run(ctx, nil, "diff", "-U0", "--no-ext-diff", "--no-textconv", "--no-color", a, b)
	if err != nil {
		return nil, fmt.Errorf("ledger: hunks of %s: %w", c.Path, err)
	}
	return parseHunks(out)
}

// blob is the object id of path in t, or of the empty blob when t has no such file (an added
// or deleted file diffs against nothing).
func (s *Store) blob(ctx context.Context, t Tree, path string) (string, error) {
	out, err := s.git.run(ctx, nil, "rev-parse", "--verify", "-q", string(t)+":"+path)
	if err == nil {
		return strings.TrimSpace(string(out)), nil
	}
	empty, err := s.git.run(ctx, []byte{}, "hash-object", "-w", "--stdin")
	if err != nil {
		return "", fmt.Errorf("ledger: %w", err)
	}
	return strings.TrimSpace(string(empty)), nil
}

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

// parseHunks reads the @@ headers of a unified diff; a missing count is 1.
func parseHunks(diff []byte) ([]Hunk, error) {
	var hunks []Hunk
	for _, line := range bytes.Split(diff, []byte("\n")) {
		if !bytes.HasPrefix(line, []byte("@@ ")) {
			continue
		}
		m := hunkHeader.FindSubmatch(line)
		if m == nil {
			return nil, fmt.Errorf("ledger: bad hunk header %q", line)
		}
		n := func(b []byte) int {
			if b == nil {
				return 1
			}
			v, _ := strconv.Atoi(string(b))
			return v
		}
		hunks = append(hunks, Hunk{OldStart: n(m[1]), OldCount: n(m[2]), NewStart: n(m[3]), NewCount: n(m[4])})
	}
	return hunks, nil
}

// AllHunks lists the hunks of every text file that differs between from and to, by path (a
// renamed file's new path), in one git run: the signs of a turn that touched thousands of
// files cost one process, not three per file. Binary files have none.
func (s *Store) AllHunks(ctx context.Context, from, to Tree) (map[string][]Hunk, error) {
	out, err := s.git.run(ctx, nil, "-c", "core.quotePath=false", "diff-tree", "-r", "-p", "-U0", "-M",
		"--no-ext-diff", "--no-textconv", "--no-color", string(from), string(to))
	if err != nil {
		return nil, fmt.Errorf("ledger: hunks: %w", err)
	}
	return parseAllHunks(out)
}

// parseAllHunks reads a multi-file `git diff -U0` patch: each file's "+++ b/path" (or, for a
// deletion, "--- a/path" then "+++ /dev/null") names the file its @@ lines belong to.
func parseAllHunks(patch []byte) (map[string][]Hunk, error) {
	all := map[string][]Hunk{}
	var path, oldPath string
	for _, line := range bytes.Split(patch, []byte("\n")) {
		switch {
		case bytes.HasPrefix(line, []byte("diff --git ")):
			path, oldPath = "", ""
		case bytes.HasPrefix(line, []byte("--- ")) && path == "":
			oldPath = patchPath(line[4:], "a/")
		case bytes.HasPrefix(line, []byte("+++ ")) && path == "":
			path = patchPath(line[4:], "b/")
			if path == "" {
				path = oldPath
			}
		case bytes.HasPrefix(line, []byte("@@ ")) && path != "":
			h, err := parseHunks(line)
			if err != nil {
				return nil, err
			}
			all[path] = append(all[path], h...)
		}
	}
	return all, nil
}

// patchPath is a ---/+++ line's path without its a/ or b/ prefix; "" for /dev/null. A name
// git had to quote (a tab, a newline, a quote in it) is unquoted.
func patchPath(name []byte, prefix string) string {
	s := strings.TrimRight(string(name), "\t")
	if s == "/dev/null" {
		return ""
	}
	if strings.HasPrefix(s, `"`) {
		if u, err := strconv.Unquote(s); err == nil {
			s = u
		}
	}
	return strings.TrimPrefix(s, prefix)
}
