package nvimapi

import "context"

// ChatItem is one thing the chat transcript shows (lua/claude/chat.lua renders it). Kind
// says which fields are set: "init", "status", "text", "thinking", "block_end", "tool",
// "result", "user", "permission", "answered" (how a reviewed edit was answered), "cancelled", "end", "exited",
// "error".
type ChatItem struct {
	Kind string `msgpack:"kind"`

	Text    string `msgpack:"text,omitempty"`    // text, thinking, user, error; end: the result
	Name    string `msgpack:"name,omitempty"`    // tool, permission: the tool's name
	Summary string `msgpack:"summary,omitempty"` // tool, permission: one line (path, command, …)
	ID      string `msgpack:"id,omitempty"`      // tool, result: the tool use; permission, cancelled: the request
	IsError bool   `msgpack:"is_error,omitempty"`
	Lines   int    `msgpack:"lines,omitempty"` // result: how many lines the whole content has

	// permission
	Description string `msgpack:"description,omitempty"`
	Input       any    `msgpack:"input,omitempty"`
	Suggestions []any  `msgpack:"suggestions,omitempty"`
	Review      bool   `msgpack:"review,omitempty"` // an edit shown as a diff: the host answers it

	// init, status
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

// ChatEvents hands one batch of a chat's events to the Lua renderer: one round trip per
// batch, whatever its size. dir names the chat (its workspace).
func (e *Editor) ChatEvents(ctx context.Context, dir string, items []ChatItem) error {
	if err := e.lua(ctx, nil, `require('claude.chat')._events(...)`, dir, items); err != nil {
		return luaError(err)
	}
	return nil
}
