package hooks

import (
	"bytes"
	"encoding/json"
	"fmt"
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
// without a name is refused.
func parseEvent(data []byte) (Event, error) {
	origin, data, ok := bytes.Cut(data, []byte("\n"))
	if !ok {
		return Event{}, fmt.Errorf("hooks: event without an origin line")
	}
	return ParseInput(string(origin), data)
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
