package acp

import "encoding/json"

// MCPServer is an MCP server the agent should connect to for a session. Type is "http" or
// "sse" (URL, Headers; only where the agent's mcpCapabilities say so) or empty for stdio
// (Command, Args, Env), which every agent accepts.
type MCPServer struct {
	Type    string      `json:"type,omitempty"`
	Name    string      `json:"name"`
	URL     string      `json:"url,omitempty"`
	Headers []NameValue `json:"headers,omitempty"`
	Command string      `json:"command,omitempty"`
	Args    []string    `json:"args,omitempty"`
	Env     []NameValue `json:"env,omitempty"`
}

// NameValue is an HTTP header or an environment variable.
type NameValue struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// MarshalJSON writes the members each kind requires: headers for http and sse, args and
// env for stdio, as empty arrays when there are none.
func (s MCPServer) MarshalJSON() ([]byte, error) {
	nonNil := func(v []NameValue) []NameValue {
		if v == nil {
			return []NameValue{}
		}
		return v
	}
	if s.Type == "http" || s.Type == "sse" {
		return json.Marshal(struct {
			Type    string      `json:"type"`
			Name    string      `json:"name"`
			URL     string      `json:"url"`
			Headers []NameValue `json:"headers"`
		}{s.Type, s.Name, s.URL, nonNil(s.Headers)})
	}
	args := s.Args
	if args == nil {
		args = []string{}
	}
	return json.Marshal(struct {
		Name    string      `json:"name"`
		Command string      `json:"command"`
		Args    []string    `json:"args"`
		Env     []NameValue `json:"env"`
	}{s.Name, s.Command, args, nonNil(s.Env)})
}

// NewSessionRequest starts a conversation in Cwd (absolute).
type NewSessionRequest struct {
	Cwd        string      `json:"cwd"`
	MCPServers []MCPServer `json:"mcpServers"`
	// Meta is the request's _meta: what an agent may read beyond the protocol (one
	// that knows nothing of it ignores it).
	Meta json.RawMessage `json:"_meta,omitempty"`
}

// SessionSetup is what session/new, session/load and session/resume answer beside the
// session: its modes and config options, when the agent has them.
type SessionSetup struct {
	Modes         *SessionModeState `json:"modes,omitempty"`
	ConfigOptions []ConfigOption    `json:"configOptions,omitempty"`
	Meta          json.RawMessage   `json:"_meta,omitempty"`
}

// NewSessionResult is the agent's answer to session/new.
type NewSessionResult struct {
	SessionID string `json:"sessionId"`
	SessionSetup
}

// SessionModeState is the session's mode and the ones it can switch to.
type SessionModeState struct {
	CurrentModeID  string        `json:"currentModeId"`
	AvailableModes []SessionMode `json:"availableModes"`
}

// SessionMode is one mode (claude-agent-acp's are its permission modes).
type SessionMode struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// ConfigOption is one session setting (model, effort, …). Type "select" has Options and a
// string CurrentValue; "boolean" a boolean one. A select's options may come in groups
// under headers: each is then a ConfigValue with Group, Name and Options set.
type ConfigOption struct {
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Description  string          `json:"description,omitempty"`
	Category     string          `json:"category,omitempty"`
	Type         string          `json:"type"`
	CurrentValue json.RawMessage `json:"currentValue"`
	Options      []ConfigValue   `json:"options,omitempty"`
}

// Current is a select option's current value ("" for another type).
func (o ConfigOption) Current() string {
	var s string
	if json.Unmarshal(o.CurrentValue, &s) != nil {
		return ""
	}
	return s
}

// ConfigValue is one value a select option can take, or a group of them (Group set).
type ConfigValue struct {
	Value       string        `json:"value,omitempty"`
	Name        string        `json:"name"`
	Description string        `json:"description,omitempty"`
	Group       string        `json:"group,omitempty"`
	Options     []ConfigValue `json:"options,omitempty"`
}

// LoadSessionRequest reopens a stored conversation; the agent replays it as session/update
// notifications before it answers.
type LoadSessionRequest struct {
	SessionID  string          `json:"sessionId"`
	Cwd        string          `json:"cwd"`
	MCPServers []MCPServer     `json:"mcpServers"`
	Meta       json.RawMessage `json:"_meta,omitempty"` // as NewSessionRequest's
}

// ResumeSessionRequest reopens a stored conversation without replaying it.
type ResumeSessionRequest struct {
	SessionID  string          `json:"sessionId"`
	Cwd        string          `json:"cwd"`
	MCPServers []MCPServer     `json:"mcpServers"`
	Meta       json.RawMessage `json:"_meta,omitempty"` // as NewSessionRequest's
}

// ListSessionsRequest asks for the stored conversations, of Cwd when set, a page at a time.
type ListSessionsRequest struct {
	Cwd    string `json:"cwd,omitempty"`
	Cursor string `json:"cursor,omitempty"`
}

// ListSessionsResult is one page of stored conversations.
type ListSessionsResult struct {
	Sessions   []SessionInfo `json:"sessions"`
	NextCursor string        `json:"nextCursor,omitempty"`
}

// SessionInfo describes a stored conversation. UpdatedAt is an ISO 8601 time, as sent.
type SessionInfo struct {
	SessionID string `json:"sessionId"`
	Cwd       string `json:"cwd"`
	Title     string `json:"title,omitempty"`
	UpdatedAt string `json:"updatedAt,omitempty"`
}

type sessionParams struct {
	SessionID string `json:"sessionId"`
}

type promptParams struct {
	SessionID string         `json:"sessionId"`
	Prompt    []ContentBlock `json:"prompt"`
}

// Stop reasons a prompt turn ends with.
const (
	StopEndTurn         = "end_turn"
	StopMaxTokens       = "max_tokens"
	StopMaxTurnRequests = "max_turn_requests"
	StopRefusal         = "refusal"
	StopCancelled       = "cancelled"
)

// PromptResult is how a turn ended. Usage is not in the v1 schema; claude-agent-acp sends
// it (token counts of the turn), kept raw.
type PromptResult struct {
	StopReason string          `json:"stopReason"`
	Usage      json.RawMessage `json:"usage,omitempty"`
	Meta       json.RawMessage `json:"_meta,omitempty"`
}

type setModeParams struct {
	SessionID string `json:"sessionId"`
	ModeID    string `json:"modeId"`
}

type setConfigParams struct {
	SessionID string `json:"sessionId"`
	ConfigID  string `json:"configId"`
	Type      string `json:"type,omitempty"` // "boolean" for a boolean value
	Value     any    `json:"value"`
}

// SetConfigOptionResult is every config option after the change (another may have changed
// with it: a model change changes the effort levels).
type SetConfigOptionResult struct {
	ConfigOptions []ConfigOption `json:"configOptions"`
}
