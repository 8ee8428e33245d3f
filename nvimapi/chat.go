package nvimapi

import "context"

// ChatItem is one thing the chat transcript shows (lua/claude/chat.lua renders it). Kind
// says which fields are set: "init", "status", "text", "thinking", "block_end", "tool",
// "result", "user", "permission", "answered" (how a reviewed edit was answered), "cancelled", "end", "exited",
// "error", "model" (the model the user switched to), "commands" (the CLI's slash commands),
// "prompt" (an earlier prompt of a resumed conversation).
type ChatItem struct {
	Kind string `msgpack:"kind"`

	Text    string `msgpack:"text,omitempty"`    // text, thinking, user, error; end: the result
	Name    string `msgpack:"name,omitempty"`    // tool, permission: the tool's name
	Summary string `msgpack:"summary,omitempty"` // tool, permission: one line (path, command, …)
	ID      string `msgpack:"id,omitempty"`      // tool, result: the tool use; permission, cancelled: the request
	IsError bool   `msgpack:"is_error,omitempty"`
	Lines   int    `msgpack:"lines,omitempty"` // result: how many lines the whole content has
	// Body is what a tool's summary line unfolds to: its input (tool) or its result's lines
	// after the first (result), capped by the host.
	Body []string `msgpack:"body,omitempty"`

	// permission
	Description string `msgpack:"description,omitempty"`
	Input       any    `msgpack:"input,omitempty"`
	Suggestions []any  `msgpack:"suggestions,omitempty"`
	Review      bool   `msgpack:"review,omitempty"` // an edit shown as a diff: the host answers it

	// commands: the CLI's slash commands, for completion in the input
	Commands []ChatCommand `msgpack:"commands,omitempty"`

	// init, status, model
	SessionID string `msgpack:"session_id,omitempty"`
	Model     string `msgpack:"model,omitempty"`
	Mode      string `msgpack:"mode,omitempty"`

	// end
	Subtype    string   `msgpack:"subtype,omitempty"`
	Errors     []string `msgpack:"errors,omitempty"`
	DurationMS int64    `msgpack:"duration_ms,omitempty"`
	TokensIn   int      `msgpack:"tokens_in,omitempty"`
	TokensOut  int      `msgpack:"tokens_out,omitempty"`
	CostUSD    float64  `msgpack:"cost_usd,omitempty"`

	// exited
	Code    int    `msgpack:"code,omitempty"`
	Signal  string `msgpack:"signal,omitempty"`
	MidTurn bool   `msgpack:"mid_turn,omitempty"`
}

// ChatCommand is one of the CLI's slash commands (Name without the "/").
type ChatCommand struct {
	Name        string `msgpack:"name"`
	Description string `msgpack:"description"`
	Hint        string `msgpack:"hint"` // how its arguments go, e.g. "[pr-number]"
}

// ChatEvents hands one batch of a chat's events to the Lua renderer: one round trip per
// batch, whatever its size. dir names the chat (its workspace).
func (e *Editor) ChatEvents(ctx context.Context, dir string, items []ChatItem) error {
	if err := e.lua(ctx, nil, `require('claude.handlers').show_chat_events(...)`, dir, items); err != nil {
		return luaError(err)
	}
	return nil
}

// ChatModel is one entry of the CLI's model list, for :ClaudeModel's picker.
type ChatModel struct {
	Value       string `msgpack:"value"` // what --model and set_model take
	Name        string `msgpack:"name"`
	Description string `msgpack:"description"`
}

// ChatModels hands the CLI's model list to :ClaudeModel's picker (lua/claude/model.lua).
// running says whether dir's chat runs (the choice then applies to it at once); errText is
// why there is no list, if there is none.
func (e *Editor) ChatModels(ctx context.Context, dir string, models []ChatModel, running bool, errText string) error {
	if models == nil {
		models = []ChatModel{}
	}
	if err := e.lua(ctx, nil, `require('claude.handlers').show_models(...)`, dir, models, running, errText); err != nil {
		return luaError(err)
	}
	return nil
}
