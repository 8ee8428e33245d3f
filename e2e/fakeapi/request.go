package fakeapi

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"
)

// Kind says how the stand-in treated a request.
type Kind int

const (
	// Other is anything but POST /v1/messages (HEAD /, count_tokens, …).
	Other Kind = iota
	// Side is a Messages request outside the conversation (session title, …): it gets a
	// canned answer and consumes no scripted turn.
	Side
	// Main is a request of the conversation the user drives: it consumes the next turn.
	Main
	// Subagent is a request of a subagent scripted with Server.Agent: it consumes that
	// subagent's next turn.
	Subagent
	// Compact is the CLI asking for a summary of the conversation (/compact, or its
	// automatic compaction): it is answered with the summary and consumes no turn.
	Compact
)

func (k Kind) String() string {
	switch k {
	case Main:
		return "main"
	case Subagent:
		return "subagent"
	case Side:
		return "side"
	case Compact:
		return "compact"
	default:
		return "other"
	}
}

// Request is one recorded HTTP request.
type Request struct {
	Seq    int // 1-based arrival order among all requests
	Time   time.Time
	Kind   Kind
	Method string
	Path   string // without the query (the CLI adds ?beta=true)
	Query  string
	Header http.Header
	Body   []byte
	// Messages is the decoded body of a POST /v1/messages, else nil.
	Messages *MessagesBody
}

// MessagesBody holds the parts of a Messages API request body the tests look at.
type MessagesBody struct {
	Model        string          `json:"model"`
	MaxTokens    int             `json:"max_tokens"`
	Stream       bool            `json:"stream"`
	System       json.RawMessage `json:"system"` // a string or a list of text blocks
	Messages     []Message       `json:"messages"`
	Tools        []Tool          `json:"tools"`
	OutputConfig *OutputConfig   `json:"output_config"`
	// Thinking is the extended-thinking setting: {"type": "adaptive"} (2.1.332's default),
	// {"type": "enabled", "budget_tokens": N} or {"type": "disabled"}; nil when not sent.
	Thinking *Thinking `json:"thinking"`
}

// Thinking is a request's thinking setting.
type Thinking struct {
	Type         string `json:"type"`
	BudgetTokens int    `json:"budget_tokens"`
}

// Tool is one tool offered to the model; its schema is not kept. A deferred tool (2.1.332
// defers MCP tools behind ToolSearch) is listed with defer_loading or only named in the
// system text: the model must call ToolSearch for it first.
type Tool struct {
	Name         string `json:"name"`
	DeferLoading bool   `json:"defer_loading"`
}

// OutputConfig carries the structured-output format of side requests (the title wants JSON)
// and, in 2.1.332's main requests, the effort level ("low" … "max").
type OutputConfig struct {
	Effort string `json:"effort"`
	Format *struct {
		Type   string          `json:"type"`
		Schema json.RawMessage `json:"schema"`
	} `json:"format"`
}

// Message is one conversation message. Role is "user", "assistant" or (a CLI beta) "system".
type Message struct {
	Role    string  `json:"role"`
	Content Content `json:"content"`
}

// Content is a message's content: the API allows a plain string or a list of blocks; a string
// is decoded as one text block.
type Content []Block

// UnmarshalJSON accepts both forms.
func (c *Content) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err == nil {
		*c = Content{{Type: "text", Text: s}}
		return nil
	}
	var blocks []Block
	if err := json.Unmarshal(data, &blocks); err != nil {
		return err
	}
	*c = blocks
	return nil
}

// Block is one content block: text, tool_use, tool_result, image, ….
type Block struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   Content         `json:"content,omitempty"` // tool_result: a string or blocks
	IsError   bool            `json:"is_error,omitempty"`
	Thinking  string          `json:"thinking,omitempty"`  // thinking blocks
	Signature string          `json:"signature,omitempty"` // thinking blocks
	Source    *ImageSource    `json:"source,omitempty"`    // image blocks
	ToolName  string          `json:"tool_name,omitempty"` // tool_reference blocks (ToolSearch's results)
}

// ImageSource is an image block's data: base64 of MediaType.
type ImageSource struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
}

// Texts returns the block's text: its own for text blocks, its content's for tool results.
func (b Block) Texts() []string {
	switch b.Type {
	case "text":
		return []string{b.Text}
	case "tool_result":
		var out []string
		for _, c := range b.Content {
			out = append(out, c.Texts()...)
		}
		return out
	}
	return nil
}

// SystemText joins the system prompt's text blocks with "\n".
func (r Request) SystemText() string {
	if r.Messages == nil || len(r.Messages.System) == 0 {
		return ""
	}
	var c Content
	if err := json.Unmarshal(r.Messages.System, &c); err != nil {
		return ""
	}
	return joinTexts(c)
}

// UserText joins, with "\n", every text the model got from the user's side in this request:
// the text of all "user" messages (prompts, <system-reminder> blocks, tool results) and of all
// "system"-role messages. The CLI (beta mid-conversation-system-2026-04-07) puts the editor
// context there, in a role "system" message right after the prompt: "The user selected the
// lines …", "The user opened the file …", @-mention file contents, new diagnostics. The CLI
// resends the whole conversation on each request, so this covers earlier turns too; see
// LastUserText for what is new.
func (r Request) UserText() string {
	if r.Messages == nil {
		return ""
	}
	var parts []string
	for _, m := range r.Messages.Messages {
		if m.Role != "assistant" {
			parts = append(parts, joinTexts(m.Content))
		}
	}
	return strings.Join(parts, "\n")
}

// LastUserText is what is new in this request: the text of the messages after the last
// assistant message (the prompt just typed or the awaited tool results, with the context the
// CLI attached to them). Same parts as UserText.
func (r Request) LastUserText() string {
	if r.Messages == nil {
		return ""
	}
	ms := r.Messages.Messages
	start := 0
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].Role == "assistant" {
			start = i + 1
			break
		}
	}
	var parts []string
	for _, m := range ms[start:] {
		parts = append(parts, joinTexts(m.Content))
	}
	return strings.Join(parts, "\n")
}

// ToolResults returns the tool_result blocks of the last user message.
func (r Request) ToolResults() []Block {
	if r.Messages == nil {
		return nil
	}
	for i := len(r.Messages.Messages) - 1; i >= 0; i-- {
		m := r.Messages.Messages[i]
		if m.Role != "user" {
			continue
		}
		var out []Block
		for _, b := range m.Content {
			if b.Type == "tool_result" {
				out = append(out, b)
			}
		}
		return out
	}
	return nil
}

// ToolNames lists the tools offered to the model.
func (r Request) ToolNames() []string {
	if r.Messages == nil {
		return nil
	}
	names := make([]string, len(r.Messages.Tools))
	for i, t := range r.Messages.Tools {
		names[i] = t.Name
	}
	return names
}

// Callable reports whether the request offers the tool name with its schema loaded: the
// model may call it at once.
func (r Request) Callable(name string) bool {
	if r.Messages == nil {
		return false
	}
	for _, t := range r.Messages.Tools {
		if t.Name == name && !t.DeferLoading {
			return true
		}
	}
	return false
}

// ResultFor returns the tool_result block answering the tool use id, if this request
// carries it.
func (r Request) ResultFor(id string) (Block, bool) {
	for _, b := range r.ToolResults() {
		if b.ToolUseID == id {
			return b, true
		}
	}
	return Block{}, false
}

func joinTexts(c Content) string {
	var parts []string
	for _, b := range c {
		parts = append(parts, b.Texts()...)
	}
	return strings.Join(parts, "\n")
}
