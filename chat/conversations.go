package chat

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Conversation is one the CLI keeps on disk; Options.Resume takes its ID (the CLI calls it
// the session id).
type Conversation struct {
	ID          string
	Path        string    // the .jsonl file
	FirstPrompt string    // the first thing the user typed, "" if the file has none
	Started     time.Time // the first prompt's time
	Modified    time.Time // the file's modification time: the last activity
	GitBranch   string    // the branch when the conversation started, as the CLI recorded it
	CWD         string
}

// headLines bounds how far into a conversation's file ListConversations looks for the first prompt; the
// rest of a long conversation is not read.
const headLines = 200

// ConfigDir is the CLI's config directory for an environment (KEY=VALUE list, nil for ours):
// $CLAUDE_CONFIG_DIR, else ~/.claude.
func ConfigDir(env []string) string {
	if env == nil {
		env = os.Environ()
	}
	var home string
	for _, kv := range slices.Backward(env) { // the last setting wins, as in exec
		k, v, _ := strings.Cut(kv, "=")
		if k == "CLAUDE_CONFIG_DIR" && v != "" {
			return v
		}
		if k == "HOME" && home == "" {
			home = v
		}
	}
	return filepath.Join(home, ".claude")
}

// ProjectDir is where the CLI stores the conversations of the workspace dir: every character of
// the absolute path that is not an ASCII letter or digit becomes "-"
// (/tmp/my_proj.v2 → -tmp-my-proj-v2), checked against the CLI 2.1.197.
func ProjectDir(configDir, dir string) string {
	b := []byte(dir)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			b[i] = '-'
		}
	}
	return filepath.Join(configDir, "projects", string(b))
}

// ListConversations lists the stored conversations of the workspace dir, newest activity
// first. Files without a prompt (a CLI that was started and closed unused) are left out. A
// workspace without conversations gives an empty list, not an error.
func ListConversations(configDir, dir string) ([]Conversation, error) {
	pd := ProjectDir(configDir, dir)
	entries, err := os.ReadDir(pd)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list conversations: %w", err)
	}
	var out []Conversation
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || e.IsDir() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		s := Conversation{ID: id, Path: filepath.Join(pd, e.Name()), Modified: info.ModTime()}
		if err := readHead(&s); err != nil || s.FirstPrompt == "" {
			continue
		}
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b Conversation) int { return b.Modified.Compare(a.Modified) })
	return out, nil
}

// storedLine is the part of a conversation file's line ListConversations reads.
type storedLine struct {
	Type      string          `json:"type"`
	IsMeta    bool            `json:"isMeta"`
	Timestamp time.Time       `json:"timestamp"`
	GitBranch string          `json:"gitBranch"`
	CWD       string          `json:"cwd"`
	Message   json.RawMessage `json:"message"`
}

// readHead fills in the first prompt, its time, branch and directory from the start of the
// file.
func readHead(s *Conversation) error {
	f, err := os.Open(s.Path)
	if err != nil {
		return err
	}
	defer f.Close()
	n := 0
	return readLines(f, maxLine, func(line []byte) bool {
		n++
		var l storedLine
		if json.Unmarshal(line, &l) != nil || l.Type != "user" || l.IsMeta {
			return n < headLines
		}
		var m message
		if json.Unmarshal(l.Message, &m) != nil {
			return n < headLines
		}
		text := promptText(m.Content)
		// Slash commands and their output are stored as user lines in tags; they are not
		// what the user asked.
		if text == "" || strings.HasPrefix(text, "<command-") || strings.HasPrefix(text, "<local-command-") {
			return n < headLines
		}
		s.FirstPrompt, s.Started, s.GitBranch, s.CWD = oneLine(text), l.Timestamp, l.GitBranch, l.CWD
		return false
	}, func(int, []byte) {})
}

// promptText is the text of a stored user message: a string, or its text blocks (a message
// of tool results has none).
func promptText(raw json.RawMessage) string {
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		json.Unmarshal(raw, &s)
		return strings.TrimSpace(s)
	}
	var blocks []block
	if json.Unmarshal(raw, &blocks) != nil {
		return ""
	}
	for _, b := range blocks {
		if b.Type == "text" && strings.TrimSpace(b.Text) != "" {
			return strings.TrimSpace(b.Text)
		}
	}
	return ""
}
