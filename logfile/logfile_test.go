package logfile

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// logged reads the n=… values of the records in file, in order.
func logged(t *testing.T, file string) []int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var ns []int
	for _, m := range regexp.MustCompile(` n=(\d+)`).FindAllStringSubmatch(string(data), -1) {
		n, _ := strconv.Atoi(m[1])
		ns = append(ns, n)
	}
	return ns
}

func fileSize(t *testing.T, file string) int64 {
	t.Helper()
	st, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if mode := st.Mode().Perm(); mode != 0o600 {
		t.Errorf("%s has mode %o, want 600", file, mode)
	}
	return st.Size()
}

func TestLogRotatesWhileWriting(t *testing.T) {
	const limit = 1024
	tests := []struct {
		name    string
		before  string // the file's contents before it is opened
		records int
	}{
		{"a new log rotates when a record would take it past the cap", "", 100},
		{"a log already over the cap is rotated when opened", strings.Repeat("old line\n", 200), 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "state", "claude.log")
			if tt.before != "" {
				if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(tt.before), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			log, closer := openLog(path, "info", limit)
			for i := range tt.records {
				log.Info("mcp: refused connection", "n", i, "reason", "wrong auth token")
			}
			if err := closer.Close(); err != nil {
				t.Fatal(err)
			}

			if size := fileSize(t, path); size > limit {
				t.Errorf("claude.log is %d bytes, over the cap of %d", size, limit)
			}
			if size := fileSize(t, path+".1"); size > limit && tt.before == "" {
				t.Errorf("claude.log.1 is %d bytes, over the cap of %d", size, limit)
			}
			cur := logged(t, path)
			if len(cur) == 0 || cur[len(cur)-1] != tt.records-1 {
				t.Fatalf("claude.log holds records %v, want it to end with the newest, %d", cur, tt.records-1)
			}
			old := logged(t, path+".1")
			if tt.before != "" {
				data, _ := os.ReadFile(path + ".1")
				if string(data) != tt.before || cur[0] != 0 {
					t.Errorf("after opening an oversized log, claude.log.1 = %d bytes and claude.log starts at record %d; "+
						"want the old log moved aside whole and the new one from record 0", len(data), cur[0])
				}
				return
			}
			if len(old) == 0 || old[len(old)-1] != cur[0]-1 {
				t.Errorf("claude.log.1 ends with records %v and claude.log starts with %d: the lines before a rotation are lost",
					old[max(0, len(old)-3):], cur[0])
			}
		})
	}
}

func TestTwoHostsSharingALogKeepItCapped(t *testing.T) {
	const limit = 1024
	path := filepath.Join(t.TempDir(), "claude.log")
	a, closeA := openLog(path, "info", limit)
	defer closeA.Close()
	b, closeB := openLog(path, "info", limit)
	defer closeB.Close()
	// a fills and rotates the file; b, which opened it first, must follow
	// into the new one rather than write on into claude.log.1 for ever.
	for i := range 200 {
		a.Info("from a", "n", i)
		b.Info("from b", "n", i)
	}
	for _, f := range []string{path, path + ".1"} {
		if size := fileSize(t, f); size > 2*limit {
			t.Errorf("%s is %d bytes with two hosts writing, want at most %d", filepath.Base(f), size, 2*limit)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`"from a".* n=199\n.*"from b".* n=199\n$`).Match(data) {
		t.Errorf("claude.log does not end with both hosts' newest lines:\n%s", data)
	}
}
