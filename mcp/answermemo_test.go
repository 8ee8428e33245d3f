package mcp

import (
	"slices"
	"strings"
	"testing"
)

// The memo reuses an encoding only for the same state, keeps its own copy
// of that state (an editor may reuse the slice it returned), and the server
// sends the encoding it holds.
func TestAnswerMemoFollowsTheState(t *testing.T) {
	m := answerMemo[[]string]{same: slices.Equal[[]string], clone: slices.Clone[[]string]}
	builds := 0
	build := func(dirs []string) (*ToolResult, error) {
		builds++
		return JSONResult(dirs)
	}
	text := func(r *ToolResult) string { return string(r.wire) }

	dirs := []string{"/proj/a"}
	first, _ := m.answer(dirs, build)
	again, _ := m.answer([]string{"/proj/a"}, build)
	if builds != 1 || first != again {
		t.Fatalf("the same state built %d answers, want 1 reused", builds)
	}
	dirs[0] = "/proj/b" // the editor reuses its slice
	same, _ := m.answer([]string{"/proj/a"}, build)
	if builds != 1 || !strings.Contains(text(same), "/proj/a") {
		t.Fatalf("after the caller's slice changed: %d builds, answer %s; want the kept /proj/a", builds, text(same))
	}
	changed, _ := m.answer([]string{"/proj/b"}, build)
	if builds != 2 || !strings.Contains(text(changed), "/proj/b") || strings.Contains(text(changed), "/proj/a") {
		t.Fatalf("a new state: %d builds, answer %s; want a new answer for /proj/b", builds, text(changed))
	}
	if got := string(encodeResult([]byte("7"), changed.wire)); !strings.Contains(got, `"id":7`) || !strings.Contains(got, `\"/proj/b\"`) {
		t.Fatalf("the response %s does not carry the kept encoding", got)
	}
}

func TestSameEditorsComparesSelectionsByValue(t *testing.T) {
	a := []OpenEditor{{Path: "/a", Selection: &Range{End: Position{Line: 1}}}}
	b := cloneEditors(a)
	if b[0].Selection == a[0].Selection {
		t.Fatal("cloneEditors shares the selection")
	}
	if !sameEditors(a, b) {
		t.Fatal("equal editors compare unequal")
	}
	b[0].Selection.End.Line = 2
	if sameEditors(a, b) {
		t.Fatal("a moved selection compares equal")
	}
	b[0].Selection = nil
	if sameEditors(a, b) {
		t.Fatal("a lost selection compares equal")
	}
}
