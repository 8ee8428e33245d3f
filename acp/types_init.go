package acp

import "encoding/json"

// ProtocolVersion is the ACP version this client speaks: 1, the stable one.
const ProtocolVersion = 1

// Implementation names a client or an agent (clientInfo, agentInfo).
type Implementation struct {
	Name    string `json:"name"`
	Title   string `json:"title,omitempty"`
	Version string `json:"version"`
}

// ClientCapabilities is what we tell the agent we serve. Conn.Initialize fills it from the
// interfaces the Client implements, so that it never promises what nobody answers.
type ClientCapabilities struct {
	FS       FileSystemCapabilities `json:"fs"`
	Terminal bool                   `json:"terminal"`
}

// FileSystemCapabilities says which fs/* requests the client serves.
type FileSystemCapabilities struct {
	ReadTextFile  bool `json:"readTextFile"`
	WriteTextFile bool `json:"writeTextFile"`
}

type initializeParams struct {
	ProtocolVersion    int                `json:"protocolVersion"`
	ClientCapabilities ClientCapabilities `json:"clientCapabilities"`
	ClientInfo         *Implementation    `json:"clientInfo,omitempty"`
}

// InitializeResult is the agent's answer to initialize.
type InitializeResult struct {
	ProtocolVersion   int               `json:"protocolVersion"`
	AgentCapabilities AgentCapabilities `json:"agentCapabilities"`
	AuthMethods       []AuthMethod      `json:"authMethods"`
	AgentInfo         *Implementation   `json:"agentInfo,omitempty"`
	Meta              json.RawMessage   `json:"_meta,omitempty"`
}

// AgentCapabilities is what the agent can do beyond the baseline (session/new,
// session/prompt, session/cancel).
type AgentCapabilities struct {
	LoadSession         bool                `json:"loadSession"`
	PromptCapabilities  PromptCapabilities  `json:"promptCapabilities"`
	MCPCapabilities     MCPCapabilities     `json:"mcpCapabilities"`
	SessionCapabilities SessionCapabilities `json:"sessionCapabilities"`
	Meta                json.RawMessage     `json:"_meta,omitempty"`
}

// PromptCapabilities says which content blocks a prompt may hold beyond text and
// resource_link.
type PromptCapabilities struct {
	Image           bool `json:"image"`
	Audio           bool `json:"audio"`
	EmbeddedContext bool `json:"embeddedContext"`
}

// MCPCapabilities says which MCP transports session/new accepts beyond stdio.
type MCPCapabilities struct {
	HTTP bool `json:"http"`
	SSE  bool `json:"sse"`
}

// SessionCapabilities lists the optional session/* methods: each is an object when
// supported and absent (or null) when not.
type SessionCapabilities struct {
	List                  json.RawMessage `json:"list,omitempty"`
	Resume                json.RawMessage `json:"resume,omitempty"`
	Close                 json.RawMessage `json:"close,omitempty"`
	Delete                json.RawMessage `json:"delete,omitempty"`
	AdditionalDirectories json.RawMessage `json:"additionalDirectories,omitempty"`
}

// CanList, CanResume and CanClose say whether the agent offers session/list,
// session/resume and session/close.
func (c SessionCapabilities) CanList() bool   { return offered(c.List) }
func (c SessionCapabilities) CanResume() bool { return offered(c.Resume) }
func (c SessionCapabilities) CanClose() bool  { return offered(c.Close) }

func offered(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }

// AuthMethod is a way to authenticate the agent offers; Type is empty for the agent's own
// ("agent") kind, "terminal" for one run in a terminal.
type AuthMethod struct {
	ID          string          `json:"id"`
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Type        string          `json:"type,omitempty"`
	Raw         json.RawMessage `json:"-"`
}

// UnmarshalJSON keeps the method raw: the terminal kind carries args and env we do not
// model.
func (a *AuthMethod) UnmarshalJSON(data []byte) error {
	type plain AuthMethod
	var p plain
	if err := json.Unmarshal(data, &p); err != nil {
		return err
	}
	*a = AuthMethod(p)
	a.Raw = append(json.RawMessage(nil), data...)
	return nil
}
