package acp

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// SessionNotification is one session/update: what changed in a session.
type SessionNotification struct {
	SessionID string
	Update    Update
}

// Update is one of the session/update kinds: *MessageChunk (user_message_chunk,
// agent_message_chunk, agent_thought_chunk), *ToolCall, *ToolCallUpdate, *Plan,
// *AvailableCommandsUpdate, *CurrentModeUpdate, *ConfigOptionUpdate, *SessionInfoUpdate,
// *UsageUpdate, or *UnknownUpdate for any other kind (or a known one that did not decode).
type Update interface {
	// Kind is the update's sessionUpdate discriminator, e.g. "agent_message_chunk".
	Kind() string
}

// The session/update kinds decoded into their own types.
const (
	KindUserMessageChunk  = "user_message_chunk"
	KindAgentMessageChunk = "agent_message_chunk"
	KindAgentThoughtChunk = "agent_thought_chunk"
	KindToolCall          = "tool_call"
	KindToolCallUpdate    = "tool_call_update"
	KindPlan              = "plan"
	KindAvailableCommands = "available_commands_update"
	KindCurrentMode       = "current_mode_update"
	KindConfigOption      = "config_option_update"
	KindSessionInfo       = "session_info_update"
	KindUsage             = "usage_update"
)

// MessageChunk is a piece of a message streamed into the transcript: the user's (a
// replayed conversation), the agent's answer or its thinking, as Kind says. Chunks of one
// message share a MessageID when the agent sends one.
type MessageChunk struct {
	SessionUpdate string          `json:"sessionUpdate"`
	Content       ContentBlock    `json:"content"`
	MessageID     string          `json:"messageId,omitempty"`
	Meta          json.RawMessage `json:"_meta,omitempty"`
}

func (u *MessageChunk) Kind() string { return u.SessionUpdate }

// ToolCall announces a tool call. Kind is the tool's kind (read, edit, delete, move,
// search, execute, think, fetch, switch_mode, other), Status pending, in_progress,
// completed or failed.
type ToolCall struct {
	ToolCallID string            `json:"toolCallId"`
	Title      string            `json:"title"`
	ToolKind   string            `json:"kind,omitempty"`
	Status     string            `json:"status,omitempty"`
	Content    []ToolCallContent `json:"content,omitempty"`
	Locations  []Location        `json:"locations,omitempty"`
	RawInput   json.RawMessage   `json:"rawInput,omitempty"`
	RawOutput  json.RawMessage   `json:"rawOutput,omitempty"`
	Meta       json.RawMessage   `json:"_meta,omitempty"`
}

func (*ToolCall) Kind() string { return KindToolCall }

// ToolCallUpdate changes a tool call: only what it carries changes (nil: unchanged).
// Content and Locations replace the call's whole list when present.
type ToolCallUpdate struct {
	ToolCallID string            `json:"toolCallId"`
	Title      *string           `json:"title,omitempty"`
	ToolKind   *string           `json:"kind,omitempty"`
	Status     *string           `json:"status,omitempty"`
	Content    []ToolCallContent `json:"content,omitempty"`
	Locations  []Location        `json:"locations,omitempty"`
	RawInput   json.RawMessage   `json:"rawInput,omitempty"`
	RawOutput  json.RawMessage   `json:"rawOutput,omitempty"`
	Meta       json.RawMessage   `json:"_meta,omitempty"`
}

func (*ToolCallUpdate) Kind() string { return KindToolCallUpdate }

// ToolCallContent is what a tool call shows: Type "content" (Content), "diff" (Path,
// OldText, nil for a new file, and NewText) or "terminal" (TerminalID, a terminal the
// client created with terminal/create).
type ToolCallContent struct {
	Type       string        `json:"type"`
	Content    *ContentBlock `json:"content,omitempty"`
	Path       string        `json:"path,omitempty"`
	OldText    *string       `json:"oldText,omitempty"`
	NewText    string        `json:"newText,omitempty"`
	TerminalID string        `json:"terminalId,omitempty"`
}

// Location is a file (and line, 1-based when set) a tool call works on.
type Location struct {
	Path string `json:"path"`
	Line *int   `json:"line,omitempty"`
}

// Plan is the agent's whole plan; each update replaces the previous one.
type Plan struct {
	Entries []PlanEntry     `json:"entries"`
	Meta    json.RawMessage `json:"_meta,omitempty"`
}

func (*Plan) Kind() string { return KindPlan }

// PlanEntry is one task: Priority high, medium or low; Status pending, in_progress or
// completed.
type PlanEntry struct {
	Content  string `json:"content"`
	Priority string `json:"priority"`
	Status   string `json:"status"`
}

// AvailableCommandsUpdate is the agent's slash commands, the whole list.
type AvailableCommandsUpdate struct {
	AvailableCommands []AvailableCommand `json:"availableCommands"`
}

func (*AvailableCommandsUpdate) Kind() string { return KindAvailableCommands }

// AvailableCommand is one slash command (Name without the slash). Input, when set, has a
// hint for its argument.
type AvailableCommand struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Input       *struct {
		Hint string `json:"hint"`
	} `json:"input,omitempty"`
}

// CurrentModeUpdate says the session's mode changed (the agent's own doing, or ours).
type CurrentModeUpdate struct {
	CurrentModeID string `json:"currentModeId"`
}

func (*CurrentModeUpdate) Kind() string { return KindCurrentMode }

// ConfigOptionUpdate is every config option after a change.
type ConfigOptionUpdate struct {
	ConfigOptions []ConfigOption `json:"configOptions"`
}

func (*ConfigOptionUpdate) Kind() string { return KindConfigOption }

// SessionInfoUpdate changes the session's title or time of last change (nil: unchanged).
type SessionInfoUpdate struct {
	Title     *string `json:"title,omitempty"`
	UpdatedAt *string `json:"updatedAt,omitempty"`
}

func (*SessionInfoUpdate) Kind() string { return KindSessionInfo }

// UsageUpdate is the context window's fill (Used of Size tokens) and, when known, the
// session's cost so far.
type UsageUpdate struct {
	Used int64 `json:"used"`
	Size int64 `json:"size"`
	Cost *struct {
		Amount   float64 `json:"amount"`
		Currency string  `json:"currency"`
	} `json:"cost,omitempty"`
	Meta json.RawMessage `json:"_meta,omitempty"`
}

func (*UsageUpdate) Kind() string { return KindUsage }

// UnknownUpdate is an update of a kind this package does not decode (a newer protocol's,
// or an extension's), or one of a known kind whose fields did not decode (Err says why).
// Raw is the update object as sent.
type UnknownUpdate struct {
	SessionUpdate string
	Raw           json.RawMessage
	Err           error
}

func (u *UnknownUpdate) Kind() string { return u.SessionUpdate }

// decodeUpdate decodes one update object. It never fails: what it cannot decode comes back
// as an *UnknownUpdate holding (a copy of) the raw object. raw may alias the line.
func decodeUpdate(raw json.RawMessage) Update {
	var head struct {
		SessionUpdate string `json:"sessionUpdate"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return &UnknownUpdate{Raw: bytes.Clone(raw), Err: fmt.Errorf("session/update: %w", err)}
	}
	var u Update
	switch head.SessionUpdate {
	case KindUserMessageChunk, KindAgentMessageChunk, KindAgentThoughtChunk:
		u = &MessageChunk{}
	case KindToolCall:
		u = &ToolCall{}
	case KindToolCallUpdate:
		u = &ToolCallUpdate{}
	case KindPlan:
		u = &Plan{}
	case KindAvailableCommands:
		u = &AvailableCommandsUpdate{}
	case KindCurrentMode:
		u = &CurrentModeUpdate{}
	case KindConfigOption:
		u = &ConfigOptionUpdate{}
	case KindSessionInfo:
		u = &SessionInfoUpdate{}
	case KindUsage:
		u = &UsageUpdate{}
	default:
		return &UnknownUpdate{SessionUpdate: head.SessionUpdate, Raw: bytes.Clone(raw)}
	}
	if err := json.Unmarshal(raw, u); err != nil {
		return &UnknownUpdate{SessionUpdate: head.SessionUpdate, Raw: bytes.Clone(raw),
			Err: fmt.Errorf("session/update %s: %w", head.SessionUpdate, err)}
	}
	return u
}
