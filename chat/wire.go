package chat

import "encoding/json"

// The JSON shapes of the stream, both ways. Incoming lines are decoded once into inLine,
// whose fields are the union of every line type's; a field a line lacks stays zero.

// inLine is one line the CLI wrote.
type inLine struct {
	Type    string `json:"type"`
	Subtype string `json:"subtype"`

	// stream_event, decoded in the same pass (one decode per delta line matters: they are
	// most of the stream)
	Event streamEvent `json:"event"`
	// Set on the messages of a subagent (the Task tool), to the tool use that runs it.
	ParentToolUseID string `json:"parent_tool_use_id"`

	// assistant, user
	Message  json.RawMessage `json:"message"`
	IsReplay bool            `json:"isReplay"`
	// A user line the CLI wrote itself: after a compact_boundary, the summary the
	// conversation goes on from.
	IsSynthetic bool `json:"isSynthetic"`
	// An assistant line the CLI made up for an API error (model "<synthetic>"): 2.1.332 sets
	// is_api_error_message, and both set error (a string, as api_retry's).
	IsAPIErrorMessage bool `json:"is_api_error_message"`

	// command_lifecycle: the fate of a user message sent with a uuid
	CommandUUID string `json:"command_uuid"`
	State       string `json:"state"`

	// system/init
	SessionID      string      `json:"session_id"`
	CWD            string      `json:"cwd"`
	Tools          []string    `json:"tools"`
	MCPServers     []MCPServer `json:"mcp_servers"`
	Model          string      `json:"model"`
	PermissionMode string      `json:"permissionMode"`
	SlashCommands  []string    `json:"slash_commands"`
	Version        string      `json:"claude_code_version"`

	// system/status: a string or null
	Status *string `json:"status"`

	// system/compact_boundary
	CompactMetadata struct {
		Trigger    string `json:"trigger"`
		PreTokens  int    `json:"pre_tokens"`
		PostTokens int    `json:"post_tokens"`
	} `json:"compact_metadata"`

	// system/api_retry: a failed API request about to be retried
	Attempt      int     `json:"attempt"`
	MaxRetries   int     `json:"max_retries"`
	RetryDelayMS float64 `json:"retry_delay_ms"`
	ErrorStatus  int     `json:"error_status"`
	Error        string  `json:"error"`

	// system/task_started, task_progress, task_notification (agents.go)
	TaskID         string `json:"task_id"`
	ToolUseID      string `json:"tool_use_id"`
	TaskType       string `json:"task_type"`
	SubagentType   string `json:"subagent_type"`
	Description    string `json:"description"`
	IsBackgrounded bool   `json:"is_backgrounded"`
	LastToolName   string `json:"last_tool_name"`
	// task_updated: what changed (background.go)
	Patch struct {
		IsBackgrounded bool `json:"is_backgrounded"`
	} `json:"patch"`
	Summary string `json:"summary"`
	// user lines: what the tool returned, structured (the task tools' ids and states)
	ToolUseResult json.RawMessage `json:"tool_use_result"`

	// system/informational (notices.go): the CLI's own words for the user, with their
	// level ("warning", …) and a tag naming the case ("auto_mode_no_server_check")
	Content json.RawMessage `json:"content"`
	Level   string          `json:"level"`
	Tag     string          `json:"tag"`
	// system/permission_denied: a tool the mode or a rule refused without asking; its
	// "message" (what the model is told) is a string there, in Message
	ToolName           string `json:"tool_name"`
	DecisionReason     string `json:"decision_reason"`
	DecisionReasonType string `json:"decision_reason_type"`
	DecisionReasonCode string `json:"decision_reason_code"`
	// system/session_title_changed (title.go)
	Title string `json:"title"`

	// result
	IsError           bool      `json:"is_error"`
	DurationMS        float64   `json:"duration_ms"`
	DurationAPIMS     float64   `json:"duration_api_ms"`
	NumTurns          int       `json:"num_turns"`
	Result            string    `json:"result"`
	Usage             lineUsage `json:"usage"`
	TotalCostUSD      float64   `json:"total_cost_usd"`
	Errors            []string  `json:"errors"`
	APIErrorStatus    int       `json:"api_error_status"` // null unless the turn ended on an API error
	APIErrorType      string    `json:"api_error_type"`   // 2.1.332 only
	TerminalReason    string    `json:"terminal_reason"`  // "completed", "api_error", "aborted_streaming", …
	PermissionDenials []struct {
		ToolName string `json:"tool_name"`
	} `json:"permission_denials"`

	// control_request, control_response, control_cancel_request
	RequestID string          `json:"request_id"`
	Request   json.RawMessage `json:"request"`
	Response  json.RawMessage `json:"response"`
}

// lineUsage is a line's usage: a result's tokens, or a task's totals (task_progress,
// task_notification).
type lineUsage struct {
	Usage
	TotalTokens int     `json:"total_tokens"`
	ToolUses    int     `json:"tool_uses"`
	DurationMS  float64 `json:"duration_ms"`
}

// streamEvent is the API streaming event inside a stream_event line.
type streamEvent struct {
	Type    string `json:"type"`
	Index   int    `json:"index"`
	Message struct {
		ID string `json:"id"`
	} `json:"message"`
	ContentBlock struct {
		Type string `json:"type"`
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"content_block"`
	Delta struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		Thinking    string `json:"thinking"`
		PartialJSON string `json:"partial_json"`
	} `json:"delta"`
}

// message is the message of an assistant or user line. Content is a string or a list of
// blocks.
type message struct {
	ID      string          `json:"id"`
	Model   string          `json:"model"`
	Content json.RawMessage `json:"content"`
}

// block is one content block of a message.
type block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"` // tool_result: a string or blocks
	IsError   bool            `json:"is_error"`
}

// canUseTool is the request of a can_use_tool control_request.
type canUseTool struct {
	Subtype     string            `json:"subtype"`
	ToolName    string            `json:"tool_name"`
	DisplayName string            `json:"display_name"`
	Description string            `json:"description"`
	Input       json.RawMessage   `json:"input"`
	Suggestions []json.RawMessage `json:"permission_suggestions"`
	ToolUseID   string            `json:"tool_use_id"`
}

// controlResponse is the response object of a control_response line, both ways.
type controlResponse struct {
	Subtype   string          `json:"subtype"` // "success" or "error"
	RequestID string          `json:"request_id"`
	Response  json.RawMessage `json:"response,omitempty"`
	Error     string          `json:"error,omitempty"`
}

// Outgoing lines.

type userLine struct {
	Type            string      `json:"type"` // "user"
	UUID            string      `json:"uuid,omitempty"`
	SessionID       string      `json:"session_id"`
	Message         userMessage `json:"message"`
	ParentToolUseID *string     `json:"parent_tool_use_id"` // always null
}

type userMessage struct {
	Role    string     `json:"role"` // "user"
	Content []outBlock `json:"content"`
}

// outBlock is a text or image block of a user turn.
type outBlock struct {
	Type   string       `json:"type"`
	Text   string       `json:"text,omitempty"`
	Source *imageSource `json:"source,omitempty"`
}

// imageSource is the API's base64 form; encoding/json base64-encodes Data.
type imageSource struct {
	Type      string `json:"type"` // "base64"
	MediaType string `json:"media_type"`
	Data      []byte `json:"data"`
}

type controlRequestLine struct {
	Type      string `json:"type"` // "control_request"
	RequestID string `json:"request_id"`
	Request   any    `json:"request"`
}

type controlResponseLine struct {
	Type     string          `json:"type"` // "control_response"
	Response controlResponse `json:"response"`
}

type permissionAllow struct {
	Behavior           string            `json:"behavior"` // "allow"
	UpdatedInput       json.RawMessage   `json:"updatedInput"`
	UpdatedPermissions []json.RawMessage `json:"updatedPermissions,omitempty"`
}

type permissionDeny struct {
	Behavior string `json:"behavior"` // "deny"
	Message  string `json:"message"`
	// Interrupt ends the turn with the denial, as the terminal's "No" does (doc.go).
	Interrupt bool `json:"interrupt,omitempty"`
}
