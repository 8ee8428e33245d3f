package chatctl

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/claude-nvim/claude.nvim/chat"
)

// run pushes each batch of proc's events to the editor, one call per batch, until the CLI
// has exited.
func (c *Controller) run(dc *dirChat, proc Backend) {
	ctx := context.Background()
	var text blockCut
	var sessions []string // the conversations proc ran, whose scratch directories go with it
	texted := false       // proc's first text was read (a debug log's milestone)
	for {
		evs, err := proc.Next(ctx)
		if errors.Is(err, io.EOF) { // the CLI has exited: nothing of it writes there any more
			c.mu.Lock()
			tmp := dc.cliTemp
			c.mu.Unlock()
			removeCLITemp(tmp, dc.dir, sessions)
			return
		}
		if err != nil {
			c.log.Warn("chat: next", "dir", dc.dir, "err", err)
			return
		}
		for _, ev := range evs {
			if _, ok := ev.(chat.TextDelta); ok && !texted {
				texted = true
				c.log.Debug("chat: first text read", "dir", dc.dir)
			}
			if in, ok := ev.(chat.Init); ok && in.SessionID != "" && (len(sessions) == 0 || sessions[len(sessions)-1] != in.SessionID) {
				sessions = append(sessions, in.SessionID)
			}
		}
		c.mu.Lock()
		retired := dc.proc != proc // until its Exited is converted, a running CLI is dc.proc
		c.mu.Unlock()
		if retired {
			continue // replaced by a resumed or new conversation: drain, show nothing
		}
		c.show(ctx, dc.dir, c.items(dc, proc, &text, evs)...)
	}
}

// items converts a batch for the transcript and keeps dc in step: the conversation to
// resume, the edits under review, the process gone after Exited.
func (c *Controller) items(dc *dirChat, proc Backend, text *blockCut, evs []chat.Event) []Item {
	items := make([]Item, 0, len(evs))
	for _, ev := range evs {
		dc.edits.event(ev)
		if dc.taskTools.hides(ev) {
			continue // the task list shows it (agents.go)
		}
		switch ev.(type) {
		case chat.TextDelta, chat.ThinkingDelta, chat.Status, chat.Init, chat.MessageState: // within a block
		default:
			if !besideTheConversation(ev) {
				items = append(items, text.end()...)
			}
		}
		switch e := ev.(type) {
		case chat.Init:
			c.mu.Lock()
			if e.SessionID != "" {
				dc.conversation = e.SessionID
			}
			c.mu.Unlock()
			items = append(items, Item{Kind: "init", SessionID: e.SessionID, Model: e.Model, Mode: e.PermissionMode})
		case chat.Status:
			items = append(items, Item{Kind: "status", Text: e.Status, Mode: e.PermissionMode})
		case chat.TextDelta:
			marker, shown := text.take("text", e.Text)
			items = append(items, marker...)
			if shown != "" {
				items = append(items, Item{Kind: "text", Text: shown})
			}
		case chat.ThinkingDelta:
			marker, shown := text.take("thinking", e.Text)
			items = append(items, marker...)
			if shown != "" {
				items = append(items, Item{Kind: "thinking", Text: shown})
			}
		case chat.BlockEnd:
			items = append(items, contentItem(e))
		case chat.ToolUse:
			dc.writes.use(e)
			items = append(items, contentItem(e))
		case chat.ToolResult:
			it := contentItem(e)
			dc.writes.result(e, &it)
			items = append(items, it)
		case chat.LineSkipped:
			items = append(items, skippedItem(e))
		case chat.UserText:
			if !e.Replay {
				items = append(items, Item{Kind: "user", Text: e.Text})
			}
		case chat.PermissionRequest:
			items = append(items, c.ask(dc, proc, e))
		case chat.PermissionRefused:
			items = append(items, Item{Kind: "error", Text: "refused a " + e.ToolName + " permission request without asking: " + e.Reason})
		case chat.PermissionCancelled:
			c.mu.Lock()
			if cancel := dc.reviews[e.Ticket]; cancel != nil {
				cancel()
			}
			c.mu.Unlock()
			items = append(items, Item{Kind: "cancelled", ID: e.Ticket})
		case chat.TurnEnd:
			if len(e.Diagnostics) > 0 {
				c.log.Debug("chat: the CLI's diagnostics", "dir", dc.dir, "lines", e.Diagnostics)
			}
			items = append(items, endItem(e))
			c.refreshContextSoon(dc, proc) // after the turn, not per token
		case chat.Compacted:
			items = append(items, compactItem(e))
		case chat.Informational, chat.Denied, chat.Checking:
			items = append(items, noticeItem(e))
		case chat.Titled:
			items = append(items, Item{Kind: "title", Text: e.Title})
		case chat.TaskList:
			items = append(items, tasksItem(e))
		case chat.Task:
			items = append(items, agentItem(e))
		case chat.MessageState:
			if it, ok := c.messageItem(dc, e); ok {
				items = append(items, it)
			}
		case chat.Commands:
			items = append(items, commandsItem(e.List))
		case chat.Notice:
			kind := "note"
			if e.IsError {
				kind = "error"
			}
			items = append(items, Item{Kind: kind, Text: e.Text})
		case chat.Exited:
			c.mu.Lock()
			if dc.proc == proc {
				c.forgetLocked(dc)
			}
			c.mu.Unlock()
			items = append(items, Item{Kind: "exited", Code: e.Code, Signal: e.Signal, MidTurn: e.MidTurn, Text: e.Stderr})
		}
	}
	return items
}

// ask is the transcript's item for a permission request. An edit is reviewed in a diff and
// answered by review (Lua does not ask), which reads its file in a goroutine of its own;
// any other request waits, in proc alone, for the user's Answer.
func (c *Controller) ask(dc *dirChat, proc Backend, e chat.PermissionRequest) Item {
	it := permissionItem(e)
	in, ok := editOf(e)
	_, tells := proc.(Teller)
	_, keeps := proc.(Keeper)
	if !ok || !tells && !keeps {
		// A review that keeps the user's changes tells the agent of them; an agent that
		// can neither be told nor keep them is asked as for any tool.
		return it
	}
	ctx, cancel := context.WithCancel(context.Background())
	c.mu.Lock()
	dc.reviews[e.Ticket] = cancel
	c.mu.Unlock()
	it.Review = true
	place, of := dc.edits.place(e.ToolUseID)
	go func() {
		c.review(ctx, dc.dir, proc, e, in, place, of)
		c.mu.Lock()
		delete(dc.reviews, e.Ticket)
		c.mu.Unlock()
		cancel()
	}()
	return it
}

// contentItem is what the transcript shows of the conversation's content: text, thinking,
// the end of a block, a tool use or its result.
func contentItem(ev chat.Event) Item {
	switch e := ev.(type) {
	case chat.TextDelta:
		return Item{Kind: "text", Text: e.Text}
	case chat.ThinkingDelta:
		return Item{Kind: "thinking", Text: e.Text}
	case chat.ToolUse:
		return Item{Kind: "tool", ID: e.ID, Name: e.Name, Summary: e.Summary, Body: inputLines(e.Input), Parent: e.Parent}
	case chat.ToolResult:
		content := withoutNumberedEnd(e.Content)
		first, n := firstLine(content)
		return Item{Kind: "result", ID: e.ID, Text: first, Lines: n, IsError: e.IsError, Body: resultLines(content), Parent: e.Parent}
	}
	return Item{Kind: "block_end"}
}

// messageItem is the transcript's "message" item for the fate of a message Lua sent (Text
// is the state: queued, started, completed, cancelled); false for one Lua gave no id.
func (c *Controller) messageItem(dc *dirChat, e chat.MessageState) (Item, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	m, ok := dc.messages[e.ID]
	if !ok {
		return Item{}, false
	}
	if e.State == "completed" || e.State == "cancelled" {
		delete(dc.messages, e.ID)
	}
	return Item{Kind: "message", ID: m.id, Text: e.State}, true
}

// endItem ends a turn in the transcript. Text is what failed ("" for a turn that did not
// fail, or was interrupted: the transcript already says so), never the subtype alone.
func endItem(e chat.TurnEnd) Item {
	why := e.ErrorText()
	return Item{
		Kind: "end", Subtype: e.Subtype, IsError: why != "", Text: why, Errors: e.Errors,
		DurationMS: e.Duration.Milliseconds(), TokensIn: e.Tokens.Input + e.Tokens.CacheRead + e.Tokens.CacheCreation,
		TokensOut: e.Tokens.Output, CostUSD: e.CostUSD,
	}
}

func permissionItem(e chat.PermissionRequest) Item {
	it := Item{Kind: "permission", ID: e.Ticket, Name: e.ToolName, Description: e.Description}
	var input map[string]any
	if json.Unmarshal(e.Input, &input) == nil {
		it.Input = shownInput(input)
	}
	switch e.ToolName {
	case chat.ToolAskUserQuestion:
		it.Questions, _ = chat.Questions(e.Input)
	case chat.ToolExitPlanMode:
		it.Plan, it.PlanFile = chat.Plan(e.Input)
	}
	for _, s := range e.Suggestions {
		var v any
		if json.Unmarshal(s, &v) == nil {
			it.Suggestions = append(it.Suggestions, v)
		}
	}
	return it
}

// withoutNumberedEnd drops the last line of a Read result for a file that ends in a newline:
// the CLI numbers the empty string after that newline ("14\t", "    14→"), which is no line
// of the file, so a 13-line file read as "(14 lines)". Only the end is looked at: a huge
// result is not scanned.
func withoutNumberedEnd(s string) string {
	s = strings.TrimRight(s, "\n")
	i := strings.LastIndexByte(s, '\n')
	if i < 0 {
		return s
	}
	last := strings.TrimLeft(s[i+1:], " ")
	mark := strings.TrimLeft(last, "0123456789")
	if len(mark) < len(last) && (mark == "\t" || mark == "→") {
		return s[:i]
	}
	return s
}

// firstLine is a tool result as the transcript shows it: its first line and how many lines
// it has, so a huge result never crosses to the editor.
func firstLine(s string) (string, int) {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return "", 0
	}
	n := strings.Count(s, "\n") + 1
	first, _, _ := strings.Cut(s, "\n")
	const max = 200
	if len(first) > max {
		first = first[:max] + "…"
	}
	return first, n
}
