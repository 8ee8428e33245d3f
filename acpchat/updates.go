package acpchat

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/claude-nvim/claude.nvim/acp"
	"github.com/claude-nvim/claude.nvim/chat"
)

// toolState is what the chat knows of one tool call: the updates fold into it, and it is
// shown once (a chat.ToolUse when its input is known or it is asked about) and once more
// when it ends (a chat.ToolResult).
type toolState struct {
	call  acp.ToolCall
	shown bool // its ToolUse was handed out
	ended bool // its ToolResult was
}

// SessionUpdate serves acp.Client: each update becomes the chat's events. It runs on the
// connection's reader and only queues.
func (b *Backend) SessionUpdate(n acp.SessionNotification) {
	b.mu.Lock()
	own := n.SessionID == b.session || b.session == ""
	b.mu.Unlock()
	if !own {
		return // a session this chat closed or never opened
	}
	switch u := n.Update.(type) {
	case *acp.MessageChunk:
		b.chunk(u)
	case *acp.ToolCall:
		b.q.put(b.tool(u.ToolCallID, func(c *acp.ToolCall) { *c = *u })...)
	case *acp.ToolCallUpdate:
		evs := b.tool(u.ToolCallID, func(c *acp.ToolCall) { fold(c, u) })
		if u.Status != nil && (*u.Status == "completed" || *u.Status == "failed") {
			evs = append(b.settle(u.ToolCallID, *u.Status), evs...)
		}
		b.q.put(evs...)
	case *acp.Plan:
		b.q.put(planList(u))
	case *acp.AvailableCommandsUpdate:
		b.q.put(commands(u))
	case *acp.CurrentModeUpdate:
		b.mu.Lock()
		if b.modes != nil {
			b.modes.CurrentModeID = u.CurrentModeID
		}
		b.mu.Unlock()
		b.q.put(chat.Status{PermissionMode: u.CurrentModeID})
	case *acp.ConfigOptionUpdate:
		b.mu.Lock()
		b.configs = u.ConfigOptions
		b.mu.Unlock()
	case *acp.UsageUpdate:
		b.mu.Lock()
		b.usage = u
		b.mu.Unlock()
	case *acp.SessionInfoUpdate:
	case *acp.UnknownUpdate:
		why := "a kind this chat does not know"
		if u.Err != nil {
			why = u.Err.Error()
		}
		b.log.Debug("acpchat: update not understood", "kind", u.SessionUpdate, "bytes", len(u.Raw), "why", why)
		b.q.put(chat.Notice{Text: fmt.Sprintf("%s sent an update this chat does not show (%s: %s)", b.name(), u.SessionUpdate, why)})
	}
}

// chunk streams a piece of a message. The user's own chunks are a loaded session's
// replay; they are shown as the user's turns.
func (b *Backend) chunk(u *acp.MessageChunk) {
	text := blockText(u.Content)
	switch u.SessionUpdate {
	case acp.KindAgentMessageChunk:
		b.q.put(chat.TextDelta{Text: text})
	case acp.KindAgentThoughtChunk:
		b.q.put(chat.ThinkingDelta{Text: text})
	case acp.KindUserMessageChunk:
		b.q.put(chat.UserText{Text: text})
	}
}

// blockText is a content block as the transcript shows it.
func blockText(c acp.ContentBlock) string {
	switch c.Type {
	case "text":
		return c.Text
	case "image", "audio":
		return "[" + c.Type + "]"
	case "resource_link":
		return "[" + c.URI + "]"
	}
	if c.Resource != nil {
		return "[" + c.Resource.URI + "]"
	}
	return "[" + c.Type + "]"
}

// fold applies a tool_call_update to the call: only what it carries changes.
func fold(c *acp.ToolCall, u *acp.ToolCallUpdate) {
	c.ToolCallID = u.ToolCallID
	if u.Title != nil {
		c.Title = *u.Title
	}
	if u.ToolKind != nil {
		c.ToolKind = *u.ToolKind
	}
	if u.Status != nil {
		c.Status = *u.Status
	}
	if u.Content != nil {
		c.Content = u.Content
	}
	if u.Locations != nil {
		c.Locations = u.Locations
	}
	if len(u.RawInput) > 0 {
		c.RawInput = u.RawInput
	}
	if len(u.RawOutput) > 0 {
		c.RawOutput = u.RawOutput
	}
	if len(u.Meta) > 0 {
		c.Meta = u.Meta
	}
}

// tool folds an update into the call id and returns what to show of it: its line once its
// input is known (or it runs), and its result once it completed or failed.
func (b *Backend) tool(id string, change func(*acp.ToolCall)) []chat.Event {
	b.mu.Lock()
	defer b.mu.Unlock()
	t := b.tools[id]
	if t == nil {
		t = &toolState{}
		b.tools[id] = t
	}
	change(&t.call)
	var evs []chat.Event
	started := t.call.Status == "in_progress" || t.call.Status == "completed" || t.call.Status == "failed" || hasInput(t.call.RawInput)
	if !t.shown && started {
		evs = append(evs, b.useLocked(t))
	}
	if !t.ended && (t.call.Status == "completed" || t.call.Status == "failed") {
		if !t.shown {
			evs = append(evs, b.useLocked(t))
		}
		t.ended = true
		evs = append(evs, chat.ToolResult{ID: id, Content: resultText(t.call), IsError: t.call.Status == "failed"})
		delete(b.tools, id) // nothing more is shown of it
	}
	return evs
}

// useLocked is the call's transcript line; called with b.mu held.
func (b *Backend) useLocked(t *toolState) chat.Event {
	t.shown = true
	return chat.ToolUse{ID: t.call.ToolCallID, Name: toolName(t.call), Summary: summary(t.call, b.opts.Dir), Input: t.call.RawInput}
}

func hasInput(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return s != "" && s != "{}" && s != "null"
}

// toolName is the agent's own name for the tool where it says it (claude-agent-acp:
// _meta.claudeCode.toolName), else the ACP kind ("edit", "execute", …).
func toolName(c acp.ToolCall) string {
	var meta struct {
		ClaudeCode struct {
			ToolName string `json:"toolName"`
		} `json:"claudeCode"`
	}
	if json.Unmarshal(c.Meta, &meta) == nil && meta.ClaudeCode.ToolName != "" {
		return meta.ClaudeCode.ToolName
	}
	if c.ToolKind != "" {
		return c.ToolKind
	}
	return "tool"
}

// summary is the call's one line: its title, or the file it works on.
func summary(c acp.ToolCall, dir string) string {
	if c.Title != "" {
		return c.Title
	}
	if len(c.Locations) > 0 {
		p := c.Locations[0].Path
		if rel, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
		return p
	}
	return ""
}

// resultText is what the call's result shows: its text content, its diffs as lines taken
// out and put in, its terminals by id.
func resultText(c acp.ToolCall) string {
	var out []string
	for _, cc := range c.Content {
		switch cc.Type {
		case "content":
			if cc.Content != nil {
				out = append(out, blockText(*cc.Content))
			}
		case "diff":
			out = append(out, diffText(cc))
		case "terminal":
			out = append(out, "[terminal "+cc.TerminalID+"]")
		}
	}
	if len(out) == 0 && len(c.RawOutput) > 0 {
		var s string
		if json.Unmarshal(c.RawOutput, &s) == nil {
			return s
		}
		return string(c.RawOutput)
	}
	return strings.Join(out, "\n")
}

// diffText shows a diff as the old lines taken out and the new put in, under the path.
func diffText(cc acp.ToolCallContent) string {
	var sb strings.Builder
	if cc.OldText == nil {
		fmt.Fprintf(&sb, "new file %s\n", cc.Path)
	} else {
		fmt.Fprintf(&sb, "--- %s\n+++ %s\n", cc.Path, cc.Path)
		for _, l := range strings.Split(strings.TrimSuffix(*cc.OldText, "\n"), "\n") {
			sb.WriteString("-" + l + "\n")
		}
	}
	for _, l := range strings.Split(strings.TrimSuffix(cc.NewText, "\n"), "\n") {
		sb.WriteString("+" + l + "\n")
	}
	return strings.TrimSuffix(sb.String(), "\n")
}

// planList is the agent's plan as the chat's task list.
func planList(p *acp.Plan) chat.TaskList {
	l := chat.TaskList{Items: []chat.TodoItem{}}
	for i, e := range p.Entries {
		l.Items = append(l.Items, chat.TodoItem{ID: fmt.Sprint(i + 1), Subject: e.Content, ActiveForm: e.Content, Status: e.Status})
	}
	return l
}

// commands is the agent's slash commands for / completion.
func commands(u *acp.AvailableCommandsUpdate) chat.Commands {
	c := chat.Commands{List: []chat.Command{}}
	for _, ac := range u.AvailableCommands {
		cmd := chat.Command{Name: ac.Name, Description: ac.Description}
		if ac.Input != nil {
			cmd.ArgumentHint = ac.Input.Hint
		}
		c.List = append(c.List, cmd)
	}
	return c
}
