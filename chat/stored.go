package chat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// What the history browser (:ClaudeChat resume) reads and changes of a stored conversation
// beyond its head (conversations.go): its title, how many messages it has, whether a search
// finds it, and the two changes it makes, a rename and a delete.

// Digest is what a whole pass over a conversation's file finds.
type Digest struct {
	// Title is the name the user gave it (the CLI's /rename, or Rename): the last
	// "custom-title" line wins, as in the CLI. "" when it has none.
	Title string
	// Messages counts the user's prompts and the assistant's messages (one per API message,
	// whatever its number of blocks), subagents' left out.
	Messages int
	// Found says whether the query (case-insensitive) occurs in a prompt, an answer's
	// text, a tool call's input or result, or the title; true for an empty query.
	Found bool
}

// digestLine is the part of a conversation file's line Scan reads.
type digestLine struct {
	Type        string          `json:"type"`
	IsMeta      bool            `json:"isMeta"`
	IsSidechain bool            `json:"isSidechain"`
	CustomTitle *string         `json:"customTitle"`
	Message     json.RawMessage `json:"message"`
}

// Scan reads the conversation file path once for its Digest, looking for query.
func Scan(path, query string) (Digest, error) {
	f, err := os.Open(path)
	if err != nil {
		return Digest{}, fmt.Errorf("scan conversation: %w", err)
	}
	defer f.Close()
	needle := bytes.ToLower([]byte(query))
	d := Digest{Found: len(needle) == 0}
	seen := map[string]bool{} // assistant message ids: one line per content block
	err = readLines(f, maxLine, func(line []byte) bool {
		var l digestLine
		if json.Unmarshal(line, &l) != nil || l.IsMeta || l.IsSidechain {
			return true
		}
		switch l.Type {
		case "custom-title":
			if l.CustomTitle != nil {
				d.Title = *l.CustomTitle
			}
		case "user":
			var m message
			if json.Unmarshal(l.Message, &m) == nil {
				if t := promptText(m.Content); t != "" && !strings.HasPrefix(t, "<") {
					d.Messages++
				}
			}
		case "assistant":
			var m message
			if json.Unmarshal(l.Message, &m) == nil && !seen[m.ID] {
				seen[m.ID] = true
				d.Messages++
			}
		default:
			return true // the CLI's bookkeeping (api-request, attachment, …): not the conversation
		}
		// Searching the raw line finds the text of every block; JSON escapes aside (a quote,
		// a newline), that is the conversation's own text.
		if !d.Found && bytes.Contains(bytes.ToLower(line), needle) {
			d.Found = true
		}
		return true
	}, func(int, []byte) {})
	if err != nil && !errors.Is(err, io.EOF) {
		return Digest{}, fmt.Errorf("scan conversation %s: %w", path, err)
	}
	if !d.Found && d.Title != "" && strings.Contains(strings.ToLower(d.Title), string(needle)) {
		d.Found = true
	}
	return d, nil
}

// ErrNoConversation is a rename or delete of a conversation the workspace does not have.
var ErrNoConversation = errors.New("no such stored conversation")

// conversationID is what the CLI names a conversation's file (a UUID); anything else is
// refused before a path is made of it.
var conversationID = regexp.MustCompile(`^[0-9A-Za-z][0-9A-Za-z-]{0,127}$`)

// ConversationPath is the file of the conversation id of the workspace dir, after checking
// that id is a plain name and the file exists.
func ConversationPath(configDir, dir, id string) (string, error) {
	if !conversationID.MatchString(id) {
		return "", fmt.Errorf("conversation %q: %w", id, ErrNoConversation)
	}
	path := filepath.Join(ProjectDir(configDir, dir), id+".jsonl")
	if info, err := os.Lstat(path); err != nil || !info.Mode().IsRegular() {
		return "", fmt.Errorf("conversation %s: %w", id, ErrNoConversation)
	}
	return path, nil
}

// CheckTitle is title as a conversation's title (trimmed), or why it cannot be one: a title
// is one line, not empty.
func CheckTitle(title string) (string, error) {
	title = strings.TrimSpace(title)
	if title == "" || strings.ContainsAny(title, "\r\n") {
		return "", errors.New("rename conversation: the title must be one line of text")
	}
	return title, nil
}

// Rename gives the conversation id of the workspace dir the title, as the CLI's /rename
// does: a "custom-title" line appended to its file (the last one wins; the CLI's --resume
// picker shows it and a resumed CLI keeps it). A title is one line, not empty.
func Rename(configDir, dir, id, title string) error {
	title, err := CheckTitle(title)
	if err != nil {
		return err
	}
	path, err := ConversationPath(configDir, dir, id)
	if err != nil {
		return fmt.Errorf("rename conversation: %w", err)
	}
	line, err := json.Marshal(struct {
		Type        string `json:"type"`
		CustomTitle string `json:"customTitle"`
		SessionID   string `json:"sessionId"`
	}{"custom-title", title, id})
	if err != nil {
		return fmt.Errorf("rename conversation: %w", err)
	}
	// O_APPEND: a CLI that runs this conversation appends too, and each write lands whole
	// after the other's.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return fmt.Errorf("rename conversation: %w", err)
	}
	if err := ensureLineStart(f, path); err != nil {
		f.Close()
		return fmt.Errorf("rename conversation: %w", err)
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("rename conversation: %w", err)
	}
	return f.Close()
}

// ensureLineStart writes a newline to f (opened for appending) when path does not end with
// one, so that a title line never joins a cut last line.
func ensureLineStart(f *os.File, path string) error {
	r, err := os.Open(path)
	if err != nil {
		return err
	}
	defer r.Close()
	info, err := r.Stat()
	if err != nil || info.Size() == 0 {
		return err
	}
	last := make([]byte, 1)
	if _, err := r.ReadAt(last, info.Size()-1); err != nil {
		return err
	}
	if last[0] != '\n' {
		_, err = f.Write([]byte{'\n'})
	}
	return err
}

// Delete removes the conversation id of the workspace dir: its file, and the directory of
// the same name the CLI keeps beside it for the conversation's subagents and large tool
// results, if there is one.
func Delete(configDir, dir, id string) error {
	path, err := ConversationPath(configDir, dir, id)
	if err != nil {
		return fmt.Errorf("delete conversation: %w", err)
	}
	if err := os.Remove(path); err != nil {
		return fmt.Errorf("delete conversation: %w", err)
	}
	side := strings.TrimSuffix(path, ".jsonl")
	if info, err := os.Lstat(side); err == nil && info.IsDir() {
		if err := os.RemoveAll(side); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("delete conversation %s: its directory: %w", id, err)
		}
	}
	return nil
}
