package chatctl

import (
	"context"

	"github.com/claude-nvim/claude.nvim/chat"
	"github.com/claude-nvim/claude.nvim/mcp"
)

// View is what the controller needs of the editor: the chat's transcript (lua/claude/chat.lua
// renders Items), :Claude model's picker, and the diff view an edit is reviewed in.
// nvimapi.Editor implements it.
type View interface {
	// ChatEvents hands one batch of dir's chat items to the transcript, in one round trip.
	ChatEvents(ctx context.Context, dir string, items []Item) error
	// ChatModels hands the CLI's model list to the picker; running says whether dir's chat
	// runs, errText why there is no list.
	ChatModels(ctx context.Context, dir string, models []Model, running bool, errText string) error
	// ChatTrusted tells dir's chat how recording the user's trust in its folder went: errText
	// is "" when it is recorded (the chat then starts its CLI), else why not.
	ChatTrusted(ctx context.Context, dir string, errText string) error
	// ChatHistory hands the history browser (:ClaudeChat resume) a list of dir's stored
	// conversations or a preview of one.
	ChatHistory(ctx context.Context, dir string, r HistoryReply) error
	// OpenDiff shows a proposed change until the user accepts or rejects it, or ctx ends.
	OpenDiff(ctx context.Context, req mcp.DiffRequest) (mcp.DiffResult, error)
}

// Item is one thing the chat transcript shows (lua/claude/chat.lua renders it). Kind
// says which fields are set: "init", "status", "text", "thinking", "block_end", "tool",
// "result", "user", "permission", "answered" (how a reviewed edit was answered), "cancelled",
// "end", "exited", "error", "unsent" (a turn that could not be sent, back to the input),
// "model" (the model the user switched to), "commands" (the CLI's slash commands), "prompt"
// (an earlier prompt of a resumed conversation), "message" (the CLI's queue: Text says what
// became of the message Lua sent as ID), "trust" (the question whether to trust the folder
// Text, recorded in the config file Summary), "tasks" (the task list, whole), "agent" (a
// subagent's state, for its Agent tool line), "context" (the winbar's context window fill and
// effort, after each turn), "compact" (a compaction of the conversation), "effort" (the
// effort the user switched to), "rewind" and "rewound" (rewind.go).
type Item struct {
	Kind string `msgpack:"kind"`

	Text    string `msgpack:"text,omitempty"`    // text, thinking, user, error; end: what failed; message: its state
	Name    string `msgpack:"name,omitempty"`    // tool, permission: the tool's name
	Summary string `msgpack:"summary,omitempty"` // tool, permission: one line (path, command, …)
	ID      string `msgpack:"id,omitempty"`      // tool, result: the tool use; permission, answered, cancelled: the request's ticket
	IsError bool   `msgpack:"is_error,omitempty"`
	Lines   int    `msgpack:"lines,omitempty"` // result: how many lines the whole content has
	// Body is what a tool's summary line unfolds to: its input (tool) or its result's lines
	// after the first (result), capped by the host.
	Body []string `msgpack:"body,omitempty"`
	// result: what the tool changed on disk, for the editor to reload: the one file an
	// Edit, MultiEdit, Write or NotebookEdit wrote, or (CheckFiles) any file, after Bash or
	// another tool that may write.
	Wrote      string `msgpack:"wrote,omitempty"`
	CheckFiles bool   `msgpack:"check_files,omitempty"`
	// unsent: a turn that could not be sent, back to the input: Text, the images to attach
	// again, and why (Errors).
	Images []string `msgpack:"images,omitempty"`

	// permission
	Description string `msgpack:"description,omitempty"`
	Input       any    `msgpack:"input,omitempty"`
	Suggestions []any  `msgpack:"suggestions,omitempty"`
	Review      bool   `msgpack:"review,omitempty"` // an edit shown as a diff: the host answers it
	// Questions are AskUserQuestion's (answered with AnswerArgs.Answers); Plan is the plan
	// ExitPlanMode asks to approve (AnswerArgs.Approve) and PlanFile where the CLI keeps it.
	Questions []chat.Question `msgpack:"questions,omitempty"`
	Plan      string          `msgpack:"plan,omitempty"`
	PlanFile  string          `msgpack:"plan_file,omitempty"`

	// commands: the CLI's slash commands, for completion in the input
	Commands []Command `msgpack:"commands,omitempty"`

	// init, status, model. SessionID is the conversation's id (the CLI's word for it).
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

	// tool, result: the Agent tool use of the subagent that made the call ("" for the
	// conversation's own); agents.go
	Parent string `msgpack:"parent,omitempty"`
	// tasks: the whole task list (agents.go)
	Tasks []TodoItem `msgpack:"tasks,omitempty"`
	// agent: a subagent's (or background task's) state, for the tool line ID started it:
	// Text is running/completed/stopped/failed, Name the agent type, Summary what it does
	// now, Report its summary once done, DurationMS how long it ran.
	TaskID     string `msgpack:"task_id,omitempty"`
	LastTool   string `msgpack:"last_tool,omitempty"`
	Background bool   `msgpack:"background,omitempty"`
	ToolUses   int    `msgpack:"tool_uses,omitempty"`
	Report     string `msgpack:"report,omitempty"`
	// context: how full the context window is (Tokens of MaxTokens, Percent as the CLI
	// rounds it) and the effort the CLI applies (also effort's); compact: a compaction,
	// Subtype its trigger ("manual", "auto"), Tokens before and PostTokens after it.
	Tokens     int    `msgpack:"tokens,omitempty"`
	MaxTokens  int    `msgpack:"max_tokens,omitempty"`
	Percent    int    `msgpack:"percent,omitempty"`
	Effort     string `msgpack:"effort,omitempty"`
	PostTokens int    `msgpack:"post_tokens,omitempty"`

	// rules (rules.go): the live permission rules
	Rules []RuleItem `msgpack:"rules,omitempty"`
	// usage (usage.go): the CLI's usage; context also carries its cost and tokens (CostUSD,
	// TokensIn, TokensOut) and the plan window nearest its end (Summary)
	Usage *UsageItem `msgpack:"usage,omitempty"`
	// mcp (mcpstatus.go): the CLI's MCP servers
	Servers []MCPItem `msgpack:"servers,omitempty"`

	// exited
	Code    int    `msgpack:"code,omitempty"`
	Signal  string `msgpack:"signal,omitempty"`
	MidTurn bool   `msgpack:"mid_turn,omitempty"`

	// rewind (the dry run of a rewind of the code to the prompt Lua calls ID), rewound (what
	// a rewind did, Summary: code, conversation or both): the files and the lines the
	// rewind adds and removes. rewound's Text is the prompt's text when the conversation
	// was cut.
	Files      []string `msgpack:"files,omitempty"`
	Insertions int      `msgpack:"insertions,omitempty"`
	Deletions  int      `msgpack:"deletions,omitempty"`
}

// Command is one of the CLI's slash commands (Name without the "/").
type Command struct {
	Name        string `msgpack:"name"`
	Description string `msgpack:"description"`
	Hint        string `msgpack:"hint"` // how its arguments go, e.g. "[pr-number]"
}

// Model is one entry of the CLI's model list, for :Claude model's picker.
type Model struct {
	Value       string `msgpack:"value"` // what --model and set_model take
	Name        string `msgpack:"name"`
	Description string `msgpack:"description"`
}
