package hooks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// Where an edit stands among the edits of the model's message: a message may hold several
// tool uses, which the CLI runs (and asks about, and so has reviewed) one after the other, so
// that when the first review opens the others are not asked yet. Only the CLI's transcript
// says how many there are: each content block of an assistant message is one JSON line there,
// with the message's id, written as it streams in (2.1.332; seen before the first tool's
// PreToolUse).

// reviewedTools are the file tools the CLI reviews in the editor (its openDiff).
var reviewedTools = map[string]bool{"Edit": true, "MultiEdit": true, "Write": true}

// Reviewed reports whether the CLI reviews a use of tool in the editor.
func Reviewed(tool string) bool { return reviewedTools[tool] }

// maxTranscriptTail bounds what EditPlace reads of a transcript, from its end: a message's
// lines are its newest, and a Write of a large file is one long line.
const maxTranscriptTail = 8 << 20

// ErrNotInTranscript is EditPlace not finding the tool use in the transcript's tail.
var ErrNotInTranscript = errors.New("hooks: the tool use is not in the transcript")

// transcriptLine is what EditPlace reads of one transcript line.
type transcriptLine struct {
	Type    string `json:"type"`
	Message struct {
		ID      string `json:"id"`
		Content []struct {
			Type string `json:"type"`
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"content"`
	} `json:"message"`
}

// EditPlace returns where the tool use toolUseID stands among the reviewed edits of its
// assistant message, as the transcript at path has them: its place (1-based) and how many
// there are (so far: a message still streaming may have more). path must be a regular file
// (never read through a link).
func EditPlace(path, toolUseID string) (place, of int, err error) {
	if toolUseID == "" {
		return 0, 0, ErrNotInTranscript
	}
	tail, err := readTail(path, maxTranscriptTail)
	if err != nil {
		return 0, 0, err
	}
	lines := bytes.Split(tail, []byte("\n"))
	var message string // the id of the message with the tool use
	for i := len(lines) - 1; i >= 0 && message == ""; i-- {
		if !bytes.Contains(lines[i], []byte(toolUseID)) {
			continue
		}
		if l, ok := assistantLine(lines[i]); ok {
			for _, c := range l.Message.Content {
				if c.Type == "tool_use" && c.ID == toolUseID {
					message = l.Message.ID
				}
			}
		}
	}
	if message == "" {
		return 0, 0, ErrNotInTranscript
	}
	for _, raw := range lines {
		if !bytes.Contains(raw, []byte(message)) {
			continue
		}
		l, ok := assistantLine(raw)
		if !ok || l.Message.ID != message {
			continue
		}
		for _, c := range l.Message.Content {
			if c.Type != "tool_use" || !reviewedTools[c.Name] {
				continue
			}
			of++
			if c.ID == toolUseID {
				place = of
			}
		}
	}
	if place == 0 { // the tool use is not a reviewed edit
		return 0, 0, ErrNotInTranscript
	}
	return place, of, nil
}

// assistantLine decodes one transcript line of an assistant message.
func assistantLine(raw []byte) (transcriptLine, bool) {
	var l transcriptLine
	if json.Unmarshal(raw, &l) != nil || l.Type != "assistant" || l.Message.ID == "" {
		return l, false
	}
	return l, true
}

// readTail reads at most max bytes from the end of the regular file path, from the start of
// a line.
func readTail(path string, max int64) ([]byte, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return nil, fmt.Errorf("hooks: transcript: %w", err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("hooks: transcript %s is not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("hooks: transcript: %w", err)
	}
	defer f.Close()
	if st2, err := f.Stat(); err != nil || !os.SameFile(st, st2) {
		return nil, fmt.Errorf("hooks: transcript %s changed while opened", path)
	}
	start := st.Size() - max
	if start < 0 {
		start = 0
	}
	buf := make([]byte, st.Size()-start)
	n, err := f.ReadAt(buf, start)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("hooks: transcript: %w", err)
	}
	buf = buf[:n]
	if start > 0 { // the first line is cut: it starts before the tail
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			buf = buf[i+1:]
		} else {
			buf = nil
		}
	}
	return buf, nil
}
