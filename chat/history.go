package chat

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// PermissionAnswer is how the user answered a tool's permission request, as a stored
// conversation records it (2.1.332: the tool result's line carries a permissionDecision);
// History puts it right before that tool's ToolResult. Only History makes it: live, the
// chat knows the answers it gave.
type PermissionAnswer struct {
	ToolUseID string
	Allowed   bool
	// Scope is how far an allow reaches ("once", "session", …; "" when not recorded).
	Scope string
	// Reason is what the user told Claude with a deny (the tool result's text), "" if nothing.
	Reason string
}

func (PermissionAnswer) event() {}

// storedDecision is the permission answer on a stored tool result's line.
type storedDecision struct {
	Decision   string `json:"decision"` // "accept" or "reject"
	Source     string `json:"source"`   // user_temporary, user_reject, config, …
	GrantScope string `json:"grantScope"`
}

// History reads a stored conversation's file (Conversation.Path) and returns its conversation as
// events, so that a resumed chat can show its earlier turns: the user's prompts (UserText,
// each with its line's uuid, which a rewind to it takes), the assistant's text and thinking,
// tool uses, the user's permission answers (PermissionAnswer) and the tools' results. Meta
// lines, slash-command and system-reminder texts, and subagent (sidechain) lines are left
// out. Only the last max events are kept (max ≤ 0 keeps all).
func History(path string, max int) ([]Event, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	defer f.Close()
	var events []Event
	lineUUID := "" // the uuid of the line being parsed: its prompts' id for a rewind
	p := newParser(func(e Event) {
		if u, ok := e.(UserText); ok {
			if strings.HasPrefix(strings.TrimSpace(u.Text), "<") {
				return // <command-name>, <local-command-stdout>, <system-reminder>: not typed by the user
			}
			u.UUID = lineUUID
			e = u
		}
		events = append(events, e)
	})
	err = readLines(f, maxLine, func(raw []byte) bool {
		var head struct {
			Type               string          `json:"type"`
			UUID               string          `json:"uuid"`
			IsMeta             bool            `json:"isMeta"`
			IsSidechain        bool            `json:"isSidechain"`
			PermissionDecision *storedDecision `json:"permissionDecision"`
			HoldsPersonsWords  bool            `json:"holdsPersonsWords"`
			Message            struct {
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(raw, &head) != nil || head.IsMeta || head.IsSidechain {
			return true
		}
		if d := head.PermissionDecision; d != nil && head.Type == "user" && isUserAnswer(d) {
			events = append(events, permissionAnswers(d, head.HoldsPersonsWords, head.Message.Content)...)
		}
		if head.Type == "user" || head.Type == "assistant" {
			lineUUID = head.UUID
			_ = p.parse(raw) // a line we cannot read is left out, as in a live stream
		}
		return true
	}, func(int, []byte) {})
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("history %s: %w", path, err)
	}
	if max > 0 && len(events) > max {
		events = events[len(events)-max:]
	}
	return events, nil
}

// isUserAnswer tells an answer the user gave from one a rule or mode gave without asking
// (source "config", "mode", …): only the user's are shown, as the live chat shows them.
func isUserAnswer(d *storedDecision) bool {
	return strings.HasPrefix(d.Source, "user")
}

// permissionAnswers makes the answer d of a stored tool result line (content: its blocks) one
// PermissionAnswer per tool result; a deny's reason is the result's text when the line
// holds the user's own words.
func permissionAnswers(d *storedDecision, personsWords bool, content json.RawMessage) []Event {
	var blocks []block
	if json.Unmarshal(content, &blocks) != nil {
		return nil
	}
	var out []Event
	for _, b := range blocks {
		if b.Type != "tool_result" {
			continue
		}
		a := PermissionAnswer{ToolUseID: b.ToolUseID, Allowed: d.Decision == "accept", Scope: d.GrantScope}
		if !a.Allowed && personsWords {
			a.Reason = oneLine(resultText(b.Content))
		}
		out = append(out, a)
	}
	return out
}

// resultText is a tool result's content as text: a string, or its text blocks joined.
func resultText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []block
	json.Unmarshal(raw, &blocks)
	var parts []string
	for _, b := range blocks {
		if b.Type == "text" {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}
