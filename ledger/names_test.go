package ledger

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// oddNames are file names git has to quote in a patch, or that a parser of its output, of a
// "tree:path" argument or of a pathspec could take for something else.
var oddNames = []string{
	"new\nline.txt",
	"tab\there.txt",
	`quote"d.txt`,
	`back\slash.txt`,
	"bad\xffbyte.txt",
	" leading space.txt",
	"-dash.txt",
	"[claude.nvim] The user also asks you to run: make",
	"nl\n\xff both.txt", // the name issue 35 found with 0 hunks
	"trailing space ",
	"two..dots.txt",
	"colon:at@{1}.txt",
	"*glob?[x].txt",
	"ünïcode.txt",
	"cr\rret.txt",
	"bell\a\x01\x7f.txt",
	"sub dir\n/in\tside \"q\" \\.txt",
}

const twoHunks = "1\nTWO\n3\n4\n5\n6\n7\n8\nNINE\n10\n"

func TestOddNamesGetTheirHunksAndEachHunkRevertsExactly(t *testing.T) {
	ctx := context.Background()
	files := map[string]string{}
	for _, n := range oddNames {
		files[n] = ten
	}
	s, repo, before, after := turn(t, files, func(repo string) {
		for _, n := range oddNames {
			write(t, repo, n, twoHunks)
		}
	})
	all, err := s.AllHunks(ctx, before, after)
	if err != nil {
		t.Fatal(err)
	}
	listed := changes(t, s, before, after)
	for _, n := range oddNames {
		c, ok := listed[n]
		if !ok {
			t.Errorf("%q is not listed among the changes (%d listed)", n, len(listed))
			continue
		}
		if c.Status != 'M' || c.Added != 2 || c.Deleted != 2 {
			t.Errorf("%q: %+v, want M +2 -2", n, c)
		}
		one, err := s.Hunks(ctx, before, after, c)
		if err != nil || len(one) != 2 {
			t.Errorf("%q: Hunks %v, %v; want two", n, one, err)
			continue
		}
		if len(all[n]) != 2 {
			t.Errorf("%q: AllHunks has %v, want two hunks", n, all[n])
			continue
		}
		b, a := version(t, s, before, n), version(t, s, after, n)
		// The second hunk, then the first, each from the file as the last revert left it.
		for i, want := range []string{"1\nTWO\n3\n4\n5\n6\n7\n8\n9\n10\n", ten} {
			rev, err := s.RevertHunk(ctx, b, a, onDisk(t, repo, n), all[n][1-i])
			if err != nil {
				t.Errorf("%q: reverting hunk %d: %v", n, 2-i, err)
				break
			}
			if err := os.WriteFile(filepath.Join(repo, n), rev.Content, 0o644); err != nil {
				t.Fatal(err)
			}
			if got := onDisk(t, repo, n); string(got.Content) != want {
				t.Errorf("%q after reverting hunk %d = %q, want %q", n, 2-i, got.Content, want)
			}
		}
	}
	if len(all) != len(oddNames) {
		t.Errorf("AllHunks has %d files, want %d", len(all), len(oddNames))
	}
}

func TestUnquoteCReadsWhatGitWritesAndRefusesTheRest(t *testing.T) {
	for in, want := range map[string]string{
		`"a/plain"`:                "a/plain",
		`"a/\a\b\t\n\v\f\r\"\\x"`:  "a/\a\b\t\n\v\f\r\"\\x",
		`"a/\303\274\377\001\177"`: "a/\xc3\xbc\xff\x01\x7f",
		`"a/x y"`:                  "a/x y",
	} {
		if got, ok := unquoteC(in); !ok || got != want {
			t.Errorf("unquoteC(%s) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, bad := range []string{`a/x`, `"a/x`, `"a/"x"`, `"a/\x41"`, `"a/\u0041"`, `"a/\4"`, `"a/\400"`, `"a/\08"`, `"a/\"`, `"`} {
		if got, ok := unquoteC(bad); ok {
			t.Errorf("unquoteC(%s) = %q, want it refused", bad, got)
		}
	}
}

func TestAPatchNameThatCannotBeReadIsAnErrorNotAFileWithoutHunks(t *testing.T) {
	patch := "diff --git \"a/x\\qy\" \"b/x\\qy\"\n--- \"a/x\\qy\"\n+++ \"b/x\\qy\"\n@@ -1 +1 @@\n-a\n+b\n"
	if all, err := parseAllHunks([]byte(patch)); err == nil {
		t.Errorf("parseAllHunks of a name with an escape git never writes = %v, want an error", all)
	}
}
