package claudeconfig

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bigConfig writes a config file of about size bytes shaped like a long-used CLI's: many
// projects, each with a history of pasted prompts (what made users' files reach 65 to 238
// MiB), and returns its path.
func bigConfig(tb testing.TB, dir string, size int) string {
	tb.Helper()
	path := filepath.Join(dir, ".claude.json")
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString("{\n  \"numStartups\": 120,\n  \"projects\": {\n")
	lorem := strings.Repeat("lorem ipsum ", 20)
	for i, n := 0, 0; n < size; i++ {
		var b strings.Builder
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, "    \"/home/u/work/project-%d\": {\n      \"allowedTools\": [],\n      \"history\": [", i)
		for j := range 20 {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, `{"display": "fix the bug in module %d \u00e9 %s", "pastedContents": {}}`, j, lorem)
		}
		b.WriteString("],\n      \"hasTrustDialogAccepted\": false,\n      \"lastCost\": 1.50\n    }")
		w.WriteString(b.String())
		n += b.Len()
	}
	w.WriteString("\n  },\n  \"userID\": \"abc\"\n}\n")
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return path
}

// BenchmarkTrustA100MiBConfig: one yes (a folder not in the file yet) in a 100 MiB config
// file, and the check a chat start makes.
//
//	go test -run '^$' -bench TrustA100MiB -benchtime 5x ./claudeconfig/
func BenchmarkTrustA100MiBConfig(b *testing.B) {
	path := bigConfig(b, b.TempDir(), 100<<20)
	b.Run("Trust", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; b.Loop(); i++ {
			if err := Trust(context.Background(), path, fmt.Sprintf("/w/new-%d", i)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Trusted", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Trusted(path, "/home/u/work/project-7/sub"); err != nil {
				b.Fatal(err)
			}
		}
	})
}
