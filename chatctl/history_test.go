package chatctl

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/chat"
)

func TestThePreviewKeepsTheFirstAndLastLinesOfALongConversation(t *testing.T) {
	config := t.TempDir()
	pd := chat.ProjectDir(config, "/p")
	os.MkdirAll(pd, 0o700)
	write := func(id string, turns int) {
		var b strings.Builder
		for i := 1; i <= turns; i++ {
			fmt.Fprintf(&b, `{"type":"user","message":{"role":"user","content":"question %d"}}`+"\n", i)
			fmt.Fprintf(&b, `{"type":"assistant","message":{"id":"m%d","content":[{"type":"text","text":"answer %d"}]}}`+"\n", i, i)
		}
		if err := os.WriteFile(filepath.Join(pd, id+".jsonl"), []byte(b.String()), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("short", 2)
	write("long", 50) // 3 lines a turn: "", "> question N", "answer N"

	short, err := previewOf(config, "/p", "short")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(short, "|"), "|> question 1|answer 1||> question 2|answer 2"; got != want {
		t.Errorf("preview of a short conversation = %q, want it whole: %q", got, want)
	}
	long, err := previewOf(config, "/p", "long")
	if err != nil {
		t.Fatal(err)
	}
	if len(long) != 2*previewLines+1 || long[1] != "> question 1" || long[previewLines] != "⋮  (126 lines more)" || long[len(long)-1] != "answer 50" {
		t.Errorf("preview of 150 lines = %q, want the first and last %d around a count of the rest", long, previewLines)
	}
	if _, err := previewOf(config, "/p", "../p"); err == nil {
		t.Errorf("a preview of ../p was made, want an error")
	}
}
