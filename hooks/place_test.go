package hooks

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// blockLine is one transcript line as the CLI writes a content block of an assistant
// message: the message's id, one tool use.
func blockLine(t *testing.T, message, id, tool string) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{
		"type": "assistant", "uuid": id + "-line",
		"message": map[string]any{"id": message, "role": "assistant", "content": []any{
			map[string]any{"type": "tool_use", "id": id, "name": tool, "input": map[string]any{"file_path": "/w/" + id}},
		}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// transcript writes lines to a file and returns its path.
func transcript(t *testing.T, lines ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "conv.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestAnEditsPlaceAmongTheEditsOfItsMessage(t *testing.T) {
	var lines []string
	add := func(message, id, tool string) { lines = append(lines, blockLine(t, message, id, tool)) }
	add("msg_1", "toolu_e0", "Edit") // an earlier message's edit
	lines = append(lines, `{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_e0","type":"tool_result","content":"ok"}]}}`)
	add("msg_2", "toolu_r", "Read") // not reviewed: not counted
	add("msg_2", "toolu_a", "Edit")
	lines = append(lines, `{"type":"attachment","attachment":{"type":"todo"}}`, "")
	add("msg_2", "toolu_b", "Write")
	add("msg_2", "toolu_c", "MultiEdit")
	path := transcript(t, lines...)
	for _, tt := range []struct {
		id        string
		place, of int
	}{
		{"toolu_a", 1, 3},
		{"toolu_b", 2, 3},
		{"toolu_c", 3, 3},
		{"toolu_e0", 1, 1},
	} {
		place, of, err := EditPlace(path, tt.id)
		if err != nil || place != tt.place || of != tt.of {
			t.Errorf("EditPlace(%s) = %d of %d, %v; want %d of %d", tt.id, place, of, err, tt.place, tt.of)
		}
	}
	for _, id := range []string{"toolu_r", "toolu_missing", ""} {
		if _, _, err := EditPlace(path, id); !errors.Is(err, ErrNotInTranscript) {
			t.Errorf("EditPlace(%q) err = %v, want ErrNotInTranscript", id, err)
		}
	}
}

func TestATranscriptIsNeverReadThroughALink(t *testing.T) {
	path := transcript(t, blockLine(t, "msg_1", "toolu_a", "Edit"))
	link := filepath.Join(t.TempDir(), "link.jsonl")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	if _, _, err := EditPlace(link, "toolu_a"); err == nil || errors.Is(err, ErrNotInTranscript) {
		t.Errorf("EditPlace through a link: err = %v, want it refused", err)
	}
	if _, _, err := EditPlace(filepath.Join(t.TempDir(), "none.jsonl"), "toolu_a"); err == nil {
		t.Error("EditPlace of a missing transcript: no error")
	}
}

func TestTheTailStartsAtALine(t *testing.T) {
	path := transcript(t, "first line, long enough to be cut", "second", "third")
	for _, tt := range []struct {
		max  int64
		want string
	}{
		{1 << 20, "first line, long enough to be cut\nsecond\nthird\n"},
		{14, "second\nthird\n"}, // cut right after the first line's newline: "second" is whole
		{13, "third\n"},         // starts right at "second": the tail cannot tell, and drops it
		{8, "third\n"},          // inside "second"
		{3, ""},                 // inside the last line
	} {
		got, err := readTail(path, tt.max)
		if err != nil || string(got) != tt.want {
			t.Errorf("readTail(max %d) = %q, %v; want %q", tt.max, got, err, tt.want)
		}
	}
}
