package chat

import (
	"encoding/json"
	"path/filepath"
	"strings"
)

// summaryMax bounds a summary line; a renderer shows the whole input on demand.
const summaryMax = 120

// summaryFields names, per tool, the input field that says what the call does, in order of
// preference. Tools not listed fall back to the first short string field.
var summaryFields = map[string][]string{
	"Read":         {"file_path"},
	"Edit":         {"file_path"},
	"MultiEdit":    {"file_path"},
	"Write":        {"file_path"},
	"NotebookEdit": {"notebook_path"},
	"Bash":         {"command"},
	"Glob":         {"pattern"},
	"Grep":         {"pattern"},
	"WebFetch":     {"url"},
	"WebSearch":    {"query"},
	"Task":         {"description", "prompt"},
	"Agent":        {"description", "prompt"},
	"Skill":        {"skill", "command"},
}

// pathFields are shown relative to the process's directory when inside it.
var pathFields = map[string]bool{"file_path": true, "notebook_path": true, "path": true}

// summarize makes the one-line description of a tool call: "src/main.go" for Read, the command
// for Bash, and so on. cwd may be empty.
func summarize(tool string, input json.RawMessage, cwd string) string {
	var fields map[string]any
	if json.Unmarshal(input, &fields) != nil {
		return ""
	}
	pick := func(name string) (string, bool) {
		s, ok := fields[name].(string)
		if !ok || s == "" {
			return "", false
		}
		if pathFields[name] && cwd != "" {
			if rel, err := filepath.Rel(cwd, s); err == nil && !strings.HasPrefix(rel, "..") {
				s = rel
			}
		}
		return s, true
	}
	for _, name := range summaryFields[tool] {
		if s, ok := pick(name); ok {
			if tool == "Grep" {
				if path, ok := pick("path"); ok {
					s += " in " + path
				}
			}
			return oneLine(s)
		}
	}
	// An MCP or unknown tool: the first string field in a stable order.
	for _, name := range []string{"file_path", "path", "command", "query", "url", "pattern", "name"} {
		if s, ok := pick(name); ok {
			return oneLine(s)
		}
	}
	return ""
}

// oneLine keeps the first line and cuts it at summaryMax runes, marking what was left out.
func oneLine(s string) string {
	first, rest, multi := strings.Cut(s, "\n")
	cut := multi && strings.TrimSpace(rest) != ""
	if r := []rune(first); len(r) > summaryMax {
		first, cut = string(r[:summaryMax]), true
	}
	if cut {
		first += "…"
	}
	return first
}
