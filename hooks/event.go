package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// Event is what a hook receives, the fields the plugin reads.
type Event struct {
	// Origin is the plugin's session the CLI runs in (OriginEnv): "terminal:N" for the
	// terminal session numbered N, "chat:DIR" for the chat of directory DIR; empty when the
	// CLI did not say (started outside the plugin with our settings).
	Origin string `json:"-"`

	Name           string          `json:"hook_event_name"`
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	PromptID       string          `json:"prompt_id"`
	PermissionMode string          `json:"permission_mode"`
	Prompt         string          `json:"prompt"`     // UserPromptSubmit
	ToolName       string          `json:"tool_name"`  // PreToolUse, PermissionRequest, PostToolUse
	ToolInput      json.RawMessage `json:"tool_input"` // the same
	ToolUseID      string          `json:"tool_use_id"`
	Notification   string          `json:"notification_type"` // Notification
	Message        string          `json:"message"`           // Notification
	Source         string          `json:"source"`            // SessionStart
	Reason         string          `json:"reason"`            // SessionEnd
}

// The events the plugin asks for.
const (
	SessionStart      = "SessionStart"
	UserPromptSubmit  = "UserPromptSubmit"
	PreToolUse        = "PreToolUse"
	PermissionRequest = "PermissionRequest"
	PostToolUse       = "PostToolUse"
	Notification      = "Notification"
	Stop              = "Stop"
	SessionEnd        = "SessionEnd"
)

// ParseInput decodes a hook's input (what a command hook reads on stdin, what a
// hook_callback carries) from a CLI of the plugin's session origin.
func ParseInput(origin string, input []byte) (Event, error) {
	e := Event{Origin: origin}
	if err := json.Unmarshal(input, &e); err != nil {
		return Event{}, fmt.Errorf("hooks: event: %w", err)
	}
	if e.Name == "" {
		return Event{}, fmt.Errorf("hooks: event without hook_event_name")
	}
	return e, nil
}

// Output is the hook output object (as a callback answers) that says what a command hook
// printing stdout says: for UserPromptSubmit and SessionStart, text the CLI adds to the
// model's context; nothing for the other events, whose plain output the CLI only shows in
// its transcript mode.
func Output(event string, stdout []byte) json.RawMessage {
	if len(bytes.TrimSpace(stdout)) == 0 || (event != UserPromptSubmit && event != SessionStart) {
		return nil
	}
	out, _ := json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName": event, "additionalContext": string(stdout),
	}})
	return out
}

// parseEvent decodes what Forward sends: the origin's line, then the hook's stdin. An event
// without a name is refused. An event cut at maxEvent (cut) is not JSON any more: its
// members that came whole before the cut are read, which holds what the plugin reads of a
// huge PostToolUse (the CLI writes hook_event_name, tool_name and tool_input before
// tool_response).
func parseEvent(data []byte, cut bool) (Event, error) {
	origin, data, ok := bytes.Cut(data, []byte("\n"))
	if !ok {
		return Event{}, fmt.Errorf("hooks: event without an origin line")
	}
	if cut {
		data = wholeMembers(data)
	}
	return ParseInput(string(origin), data)
}

// wholeMembers is the object made of the members of data's object that end before data
// does; data is a JSON object cut short.
func wholeMembers(data []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	out := []byte{'{'}
	for dec.More() {
		tok, err := dec.Token()
		name, isName := tok.(string)
		if err != nil || !isName {
			break
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			break
		}
		if !wanted[name] {
			continue // what the plugin does not read is not kept
		}
		key, _ := json.Marshal(name)
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(append(append(out, key...), ':'), value...)
	}
	return append(out, '}')
}

// wanted are the members Event reads.
var wanted = func() map[string]bool {
	m := map[string]bool{}
	t := reflect.TypeFor[Event]()
	for i := range t.NumField() {
		if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" && name != "-" {
			m[name] = true
		}
	}
	return m
}()

// size is about what e holds, in bytes: what the receiver's budget keeps for it while it
// is handled.
func (e Event) size() int {
	return len(e.Origin) + len(e.Name) + len(e.SessionID) + len(e.TranscriptPath) + len(e.Cwd) +
		len(e.PromptID) + len(e.PermissionMode) + len(e.Prompt) + len(e.ToolName) + len(e.ToolInput) +
		len(e.ToolUseID) + len(e.Notification) + len(e.Message) + len(e.Source) + len(e.Reason)
}

// FilePath is the file a file tool names in its input (Edit, Write, MultiEdit: file_path;
// NotebookEdit: notebook_path); empty for other tools.
func (e Event) FilePath() string {
	var in struct {
		FilePath     string `json:"file_path"`
		NotebookPath string `json:"notebook_path"`
	}
	if len(e.ToolInput) == 0 || json.Unmarshal(e.ToolInput, &in) != nil {
		return ""
	}
	if in.FilePath != "" {
		return in.FilePath
	}
	return in.NotebookPath
}
