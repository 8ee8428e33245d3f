package chat

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// History reads a stored conversation's file (Conversation.Path) and returns its conversation as
// events, so that a resumed chat can show its earlier turns: the user's prompts (UserText),
// the assistant's text and thinking, tool uses and their results. Meta lines, slash-command
// and system-reminder texts, and subagent (sidechain) lines are left out. Only the last max
// events are kept (max ≤ 0 keeps all).
func History(path string, max int) ([]Event, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	defer f.Close()
	var events []Event
	p := newParser(func(e Event) {
		if u, ok := e.(UserText); ok && strings.HasPrefix(strings.TrimSpace(u.Text), "<") {
			return // <command-name>, <local-command-stdout>, <system-reminder>: not typed by the user
		}
		events = append(events, e)
	})
	err = readLines(f, maxLine, func(line []byte) bool {
		var head struct {
			Type        string `json:"type"`
			IsMeta      bool   `json:"isMeta"`
			IsSidechain bool   `json:"isSidechain"`
		}
		if json.Unmarshal(line, &head) != nil || head.IsMeta || head.IsSidechain {
			return true
		}
		if head.Type == "user" || head.Type == "assistant" {
			_ = p.parse(line) // a line we cannot read is left out, as in a live stream
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
