package chatctl

import "github.com/claude-nvim/claude.nvim/chat"

// noticeItem is the transcript's item for what the CLI says beside the conversation
// (chat/notices.go): "notice" (Text its words, Subtype the level, Name the tag), "denied"
// (a tool refused without asking: ID its tool use, Name the tool, Text the reason, Subtype
// the CLI's code or else the reason's type) and "checking" (ID waits on auto mode's safety
// check: Text "checking", or "done").
func noticeItem(ev chat.Event) Item {
	switch e := ev.(type) {
	case chat.Informational:
		return Item{Kind: "notice", Text: e.Text, Subtype: e.Level, Name: e.Tag}
	case chat.Denied:
		why := e.Code
		if why == "" {
			why = e.ReasonType
		}
		return Item{Kind: "denied", ID: e.ToolUseID, Name: e.ToolName, Text: e.Reason, Subtype: why}
	case chat.Checking:
		state := "done"
		if e.Waiting {
			state = "checking"
		}
		return Item{Kind: "checking", ID: e.ToolUseID, Text: state}
	}
	return Item{Kind: "block_end"}
}
