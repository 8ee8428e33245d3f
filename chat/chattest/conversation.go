// Package chattest writes stored conversations as the Claude Code CLI keeps them
// (<config dir>/projects/<dir>/<id>.jsonl, chat/doc.go), so that tests and benchmarks can
// resume a long chat without first living through its turns: the chat's history view, the
// CLI's --resume and claude-agent-acp's session/load all read the same file.
package chattest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/claude-nvim/claude.nvim/chat"
)

// Shape is what a generated conversation holds. Messages counts the user and assistant
// lines of the main thread (a prompt, an answer, a tool use, a tool result: one each).
type Shape struct {
	Messages int
	// ToolEvery, above 0, makes every ToolEvery-th exchange a Read of a file (the tool use,
	// its numbered-lines result, then the answer) instead of a plain answer.
	ToolEvery int
	// Version is the CLI version written on each line ("2.1.332" when empty).
	Version string
}

// Stored is a conversation Write stored.
type Stored struct {
	ID, Path string
	// LastAnswer is text found in the conversation's last answer and nowhere else: a view
	// that shows it has shown the conversation to its end.
	LastAnswer string
}

// Write stores a conversation of shape s for the workspace dir under configDir (the CLI's
// CLAUDE_CONFIG_DIR).
func Write(configDir, dir string, s Shape) (Stored, error) {
	id := uuid.NewString()
	path := filepath.Join(chat.ProjectDir(configDir, dir), id+".jsonl")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return Stored{}, fmt.Errorf("chattest: %w", err)
	}
	data, last := Lines(id, dir, s)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return Stored{}, fmt.Errorf("chattest: %w", err)
	}
	return Stored{ID: id, Path: path, LastAnswer: last}, nil
}

// Lines is the file's content: one JSON line per message, each naming its parent (the CLI
// resumes the chain from the last line's leaf), then the last-prompt line the CLI ends a
// session file with; and the text that marks the last answer (Stored.LastAnswer).
func Lines(id, dir string, s Shape) ([]byte, string) {
	w := writer{id: id, dir: dir, version: s.Version, at: time.Date(2026, 1, 2, 9, 0, 0, 0, time.UTC)}
	if w.version == "" {
		w.version = "2.1.332"
	}
	prompt, last := "", ""
	for exchange := 1; w.n < s.Messages; exchange++ {
		prompt = fmt.Sprintf("Question %d: what does the function on line %d do, and why?", exchange, exchange*7)
		w.user(prompt)
		if s.ToolEvery > 0 && exchange%s.ToolEvery == 0 && s.Messages-w.n >= 3 {
			tool := fmt.Sprintf("toolu_chattest_%06d", exchange)
			w.assistant([]any{map[string]any{"type": "tool_use", "id": tool, "name": "Read",
				"input": map[string]any{"file_path": filepath.Join(dir, fmt.Sprintf("file%d.go", exchange))}}}, "tool_use")
			w.user([]any{map[string]any{"type": "tool_result", "tool_use_id": tool, "content": numbered(40)}})
		}
		if w.n < s.Messages {
			w.assistant([]any{map[string]any{"type": "text", "text": answer(exchange)}}, "end_turn")
			last = answerMark(exchange)
		}
	}
	line, _ := json.Marshal(map[string]any{"type": "last-prompt", "lastPrompt": prompt, "leafUuid": w.parent, "sessionId": id})
	return append(w.out, append(line, '\n')...), last
}

// writer appends the conversation's lines, chaining each to the one before.
type writer struct {
	id, dir, version string
	at               time.Time
	parent           string // the last line's uuid
	n                int    // messages written
	out              []byte
}

func (w *writer) line(typ string, message map[string]any) {
	u := uuid.NewString()
	var parent any
	if w.parent != "" {
		parent = w.parent
	}
	w.at = w.at.Add(2 * time.Second)
	rec := map[string]any{
		"parentUuid": parent, "isSidechain": false, "userType": "external", "cwd": w.dir,
		"sessionId": w.id, "version": w.version, "gitBranch": "HEAD", "type": typ,
		"message": message, "uuid": u, "timestamp": w.at.Format("2006-01-02T15:04:05.000Z"),
	}
	data, _ := json.Marshal(rec)
	w.out = append(append(w.out, data...), '\n')
	w.parent = u
	w.n++
}

func (w *writer) user(content any) {
	w.line("user", map[string]any{"role": "user", "content": content})
}

func (w *writer) assistant(content []any, stop string) {
	w.line("assistant", map[string]any{
		"id": fmt.Sprintf("msg_chattest_%06d", w.n), "type": "message", "role": "assistant",
		"model": "claude-opus-5-5", "content": content, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 10, "output_tokens": 120, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0},
	})
}

// answer is an assistant's markdown answer of about 600 bytes: prose, a list and code.
func answer(n int) string {
	return fmt.Sprintf("It parses the request and hands each part to its handler %s.\n\n"+
		"- The header is read first, so a bad one fails before the body is read.\n"+
		"- The body is decoded once and kept, as two handlers need it.\n"+
		"- Errors name the field that was wrong, not only the request.\n\n"+
		"```go\nfunc handle(r *Request) error {\n\tif err := r.Header.Check(); err != nil {\n\t\treturn fmt.Errorf(\"header: %%w\", err)\n\t}\n\treturn r.Body.Each(dispatch)\n}\n```\n\n"+
		"So the function is a small dispatcher; the work happens in the handlers it calls.", answerMark(n))
}

// answerMark is the text that tells answer n from every other.
func answerMark(n int) string { return fmt.Sprintf("(answer %d)", n) }

// numbered is a Read result of n lines, numbered as the CLI numbers them.
func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%6d\tfunc step%d(x int) int { return x + %d }\n", i, i, i)
	}
	return b.String()
}
