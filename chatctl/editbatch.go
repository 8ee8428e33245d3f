package chatctl

import "github.com/claude-nvim/claude.nvim/chat"

// editBatch follows the edits of the model's message that runs, so that each one's review
// says where it stands among them ("2 of 3"), as the terminal's reviews do (host/reviews.go):
// the CLI asks about a message's edits one after another. A message's tool uses come
// together, before any of their results; the first tool use after a result, a text or a
// turn's end starts the next message's batch. Only the items goroutine touches it.
type editBatch struct {
	ids  []string // the message's edit tool uses, in order
	open bool     // the message's tool uses are still coming
}

// event notes what ev says of the message's edits.
func (b *editBatch) event(ev chat.Event) {
	switch e := ev.(type) {
	case chat.ToolUse:
		if e.Parent != "" {
			return // a subagent's: its own messages
		}
		if !b.open {
			b.ids, b.open = b.ids[:0], true
		}
		switch e.Name {
		case "Edit", "MultiEdit", "Write":
			b.ids = append(b.ids, e.ID)
		}
	case chat.ToolResult, chat.TextDelta, chat.TurnEnd, chat.UserText:
		if e, ok := ev.(chat.ToolResult); ok && e.Parent != "" {
			return
		}
		b.open = false
	}
}

// place is tool use id's place among its message's edits and their number; 0, 0 when it is
// not one of them or the only one (a single review says no count).
func (b *editBatch) place(id string) (int, int) {
	if len(b.ids) < 2 {
		return 0, 0
	}
	for i, have := range b.ids {
		if have == id {
			return i + 1, len(b.ids)
		}
	}
	return 0, 0
}
