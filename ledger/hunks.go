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
// files cost one process, not three per file. Binary files have none. The patch names each
// file in its ---/+++ lines, which git quotes C-style when a name holds a control character,
// a quote, a backslash or (core.quotePath, set here whatever the user's config says) any byte
// outside ASCII; parseAllHunks decodes that quoting exactly.
func (s *Store) AllHunks(ctx context.Context, from, to Tree) (map[string][]Hunk, error) {
	out, err := s.git.run(ctx, nil, "-c", "core.quotePath=true", "diff-tree", "-r", "-p", "-U0", "-M",
		"--no-ext-diff", "--no-textconv", "--no-color", string(from), string(to))
	if err != nil {
		return nil, fmt.Errorf("ledger: hunks: %w", err)
	}
	return parseAllHunks(out)
}

// parseAllHunks reads a multi-file `git diff -U0` patch: each file's "+++ b/path" (or, for a
// deletion, "--- a/path" then "+++ /dev/null") names the file its @@ lines belong to. A -U0
// patch's other lines start with '+', '-' or '\', so no line of a file's text is taken for
// a header: the headers are read only between a "diff --git" line and the file's "+++".
func parseAllHunks(patch []byte) (map[string][]Hunk, error) {
	all := map[string][]Hunk{}
	var path, oldPath string
	var err error
	for _, line := range bytes.Split(patch, []byte("\n")) {
		switch {
		case bytes.HasPrefix(line, []byte("diff --git ")):
			path, oldPath = "", ""
		case bytes.HasPrefix(line, []byte("--- ")) && path == "":
			if oldPath, err = patchPath(line[4:], "a/"); err != nil {
				return nil, err
			}
		case bytes.HasPrefix(line, []byte("+++ ")) && path == "":
			if path, err = patchPath(line[4:], "b/"); err != nil {
				return nil, err
			}
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

// patchPath is a ---/+++ line's path without its a/ or b/ prefix; "" for /dev/null. Git
// ends the line with a tab when the name holds a space (for patch(1)), and quotes a name
// that needs it, prefix included ("a/x\ty").
func patchPath(name []byte, prefix string) (string, error) {
	s := strings.TrimSuffix(string(name), "\t")
	if s == "/dev/null" {
		return "", nil
	}
	if strings.HasPrefix(s, `"`) {
		u, ok := unquoteC(s)
		if !ok {
			return "", fmt.Errorf("ledger: hunks: cannot read the file name %s in git's patch", s)
		}
		s = u
	}
	if !strings.HasPrefix(s, prefix) {
		return "", fmt.Errorf("ledger: hunks: the file name %q in git's patch lacks its %s prefix", s, prefix)
	}
	return s[len(prefix):], nil
}

// unquoteC decodes a name git quoted C-style (quote_c_style in git's quote.c): between
// double quotes, \a \b \t \n \v \f \r \" and \\ for those bytes, three octal digits for
// any other; every other byte stands for itself. ok is false for anything else, such as a
// lone quote inside or an escape git never writes. Not strconv.Unquote: that is Go's syntax,
// which refuses a name with a byte that is not UTF-8 and reads \x and \u that git never
// writes.
func unquoteC(s string) (string, bool) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return "", false
	}
	s = s[1 : len(s)-1]
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			return "", false
		case c != '\\':
			out = append(out, c)
			continue
		}
		if i++; i == len(s) {
			return "", false
		}
		switch c = s[i]; c {
		case 'a':
			out = append(out, '\a')
		case 'b':
			out = append(out, '\b')
		case 't':
			out = append(out, '\t')
		case 'n':
			out = append(out, '\n')
		case 'v':
			out = append(out, '\v')
		case 'f':
			out = append(out, '\f')
		case 'r':
			out = append(out, '\r')
		case '"', '\\':
			out = append(out, c)
		case '0', '1', '2', '3':
			if i+2 >= len(s) || !isOctal(s[i+1]) || !isOctal(s[i+2]) {
				return "", false
			}
			out = append(out, (c-'0')<<6|(s[i+1]-'0')<<3|(s[i+2]-'0'))
			i += 2
		default:
			return "", false
		}
	}
	return string(out), true
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }
