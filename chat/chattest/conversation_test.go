package chattest_test

import (
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/chat"
	"github.com/claude-nvim/claude.nvim/chat/chattest"
)

// The chat's own reader finds the generated conversation and every message in it: the
// prompts, the answers, the tool uses and their results.
func TestAGeneratedConversationReadsBackWhole(t *testing.T) {
	config, dir := t.TempDir(), "/tmp/some project"
	stored, err := chattest.Write(config, dir, chattest.Shape{Messages: 2000, ToolEvery: 5})
	if err != nil {
		t.Fatal(err)
	}
	list, err := chat.ListConversations(config, dir)
	if err != nil || len(list) != 1 || list[0].ID != stored.ID {
		t.Fatalf("ListConversations = %+v, %v; want the one conversation %s", list, err, stored.ID)
	}
	evs, err := chat.History(stored.Path, 0)
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	lastText := ""
	for _, ev := range evs {
		if d, ok := ev.(chat.TextDelta); ok {
			lastText = d.Text
		}
		switch ev.(type) {
		case chat.UserText:
			counts["prompt"]++
		case chat.ToolUse:
			counts["tool use"]++
		case chat.ToolResult:
			counts["tool result"]++
		case chat.BlockEnd:
			counts["answer"]++
		}
	}
	// 2000 messages: exchanges of 2 lines, every fifth of 4: 40 lines per 10 exchanges' 24.
	if counts["prompt"]+counts["tool use"]+counts["tool result"]+counts["answer"] != 2000 || counts["tool use"] != counts["tool result"] || counts["tool use"] == 0 {
		t.Errorf("messages read back: %v; want 2000 in all, as many tool results as tool uses", counts)
	}
	if !strings.Contains(lastText, stored.LastAnswer) {
		t.Errorf("the last answer %q does not hold %q", lastText, stored.LastAnswer)
	}
}
