package host

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/hooks"
)

// editLine is a transcript line as the CLI writes one block of an assistant message: an
// edit of path.
func editLine(t *testing.T, message, id, path string) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"type": "assistant", "message": map[string]any{
		"id": message, "role": "assistant",
		"content": []any{map[string]any{"type": "tool_use", "id": id, "name": "Edit", "input": map[string]any{"file_path": path}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	return string(b) + "\n"
}

// A terminal's review says where its edit stands among the edits of the model's message:
// the CLI's PreToolUse hook names the edit, its transcript has the message. The message may
// reach the transcript only after the hook (the CLI starts a message's first tool early):
// the place is then read when the review opens.
func TestAReviewSaysWhereItsEditStandsAmongItsMessagesEdits(t *testing.T) {
	d := newDiffEnv(t, "")
	transcript := filepath.Join(t.TempDir(), "conversation.jsonl")
	if err := os.WriteFile(transcript, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	input, _ := json.Marshal(map[string]any{"file_path": d.path, "old_string": "two", "new_string": "TWO"})
	d.host.hookBus.handle(context.Background(), hooks.Event{
		Name: hooks.PreToolUse, Origin: "terminal:1", ToolName: "Edit", ToolUseID: "toolu_2",
		ToolInput: input, TranscriptPath: transcript,
	})
	lines := editLine(t, "msg_1", "toolu_1", "/w/a.txt") + editLine(t, "msg_1", "toolu_2", d.path) + editLine(t, "msg_1", "toolu_3", "/w/c.txt")
	if err := os.WriteFile(transcript, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	p := d.openDiff(d.path, proposed, tab)
	if bar := d.renderedWinbar(); !strings.Contains(bar, "2 of 3") {
		t.Errorf("the proposal's winbar is %q, want it to say 2 of 3", bar)
	}
	d.nv.Cmd("ClaudeDiffReject")
	answer(t, p)

	// The review of another file than the last hook's edit: no count.
	d.host.hookBus.handle(context.Background(), hooks.Event{
		Name: hooks.PreToolUse, Origin: "terminal:1", ToolName: "Edit", ToolUseID: "toolu_3",
		ToolInput: json.RawMessage(`{"file_path":"/w/c.txt"}`), TranscriptPath: transcript,
	})
	p = d.openDiff(d.path, proposed, "✻ [Claude Code] greet.txt (d4e5f6) ⧉")
	if bar := d.renderedWinbar(); strings.Contains(bar, " of ") {
		t.Errorf("a review of another file than the hook's edit says %q, want no count", bar)
	}
	d.nv.Cmd("ClaudeDiffReject")
	answer(t, p)
}
