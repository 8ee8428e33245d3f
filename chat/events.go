package chat

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// Event is one thing a renderer shows. Process.Next hands them out in batches, in stream
// order; consecutive deltas of the same kind arrive merged into one (see batch.go).
type Event interface{ event() }

// Init starts every turn (the CLI repeats it before each one, with the current model and
// mode). The first one carries the conversation's id (the CLI's session id), which a later
// Resume needs.
type Init struct {
	SessionID      string
	Model          string
	PermissionMode string
	CWD            string
	Tools          []string
	MCPServers     []MCPServer
	SlashCommands  []string
	Version        string // the CLI's version
}

// MCPServer is one MCP server the CLI knows about and its state ("connected", "failed", …).
type MCPServer struct {
	Name   string `json:"name"`
	Status string `json:"status"`
}

// Status is the CLI's system/status line: Status is "requesting" while it waits for the
// model and "" otherwise; PermissionMode is set when the mode changed (set_permission_mode,
// or a permission answer that switched it). A system/api_retry line (the API failed and the
// CLI tries again, up to ten times with growing pauses) becomes a Status whose Status starts
// with RetryingPrefix and says why and when: the user sees why nothing comes.
type Status struct {
	Status         string
	PermissionMode string
}

// RetryingPrefix starts the Status of an API request the CLI retries.
const RetryingPrefix = "retrying: "

// TextDelta is streamed assistant text. Deltas of the same block are merged in a batch.
type TextDelta struct{ Text string }

// ThinkingDelta is streamed thinking text (a renderer folds it).
type ThinkingDelta struct{ Text string }

// BlockEnd says the assistant's current text or thinking block is complete: the next delta
// starts a new paragraph.
type BlockEnd struct{}

// ToolInputDelta is a piece of a tool call's input JSON as the model writes it; ToolUse follows
// with the whole input. Pieces for the same ID are merged in a batch.
type ToolInputDelta struct {
	ID   string
	JSON string
}

// ToolUse is a complete tool call. Summary is one line for the transcript: the path for file
// tools (relative to the process's directory when inside it), the command for Bash, the
// pattern for Glob/Grep, the URL for WebFetch, ….
type ToolUse struct {
	ID      string
	Name    string
	Summary string
	Input   json.RawMessage
	// Parent is the tool use of the subagent that made this call (its Agent tool use);
	// "" for the conversation's own.
	Parent string
}

// ToolResult is a tool's output. Content is its text (image blocks appear as "[image]").
type ToolResult struct {
	ID      string
	Content string
	IsError bool
	Parent  string // as ToolUse's
}

// UserText is text the CLI put on the user's side of the conversation itself: "[Request
// interrupted by user]", a slash command's output ("<local-command-stdout>…"). Replay is set
// for the echoes of local commands.
type UserText struct {
	Text   string
	Replay bool
	// UUID is the stored line's uuid, set by History alone: the id a checkpoint request
	// takes for that prompt (Process.RewindFiles, RewindConversation).
	UUID string
}

// PermissionRequest is the CLI asking whether a tool may run. Answer it with Process.Allow or
// Process.Deny and its Ticket; it may also be withdrawn (PermissionCancelled).
type PermissionRequest struct {
	RequestID string // the CLI's id; a CLI may use one again once it was answered
	// Ticket names this request alone among all the process stored (RequestID and a count),
	// so an answer meant for an earlier request under the same RequestID reaches nothing.
	Ticket      string
	ToolName    string
	DisplayName string
	Description string // what the CLI shows, e.g. the file name for Edit
	ToolUseID   string
	Input       json.RawMessage
	// Suggestions are the CLI's offers for Allow's updatedPermissions, as it sent them, e.g.
	// {"type":"setMode","mode":"acceptEdits","destination":"session"}.
	Suggestions []json.RawMessage
}

// PermissionRefused is a permission request the process denied itself, without asking:
// another request with its RequestID is pending, and an answer names only the id. It is
// not to be answered; the editor only shows it.
type PermissionRefused struct {
	RequestID string
	ToolName  string
	Reason    string // why, for the user
}

// LineSkipped is a line of the CLI's output too big to take (over a limit that keeps the
// host's memory bounded). A permission request in it was denied: the CLI does not wait.
type LineSkipped struct {
	Bytes, Limit int
	Denied       string // the request_id of the permission request denied, if it was one
}

// PermissionCancelled withdraws a PermissionRequest (the turn was interrupted meanwhile).
// Ticket is the withdrawn request's, "" when none was pending under RequestID.
type PermissionCancelled struct{ RequestID, Ticket string }

// Usage counts tokens.
type Usage struct {
	Input         int `json:"input_tokens"`
	Output        int `json:"output_tokens"`
	CacheRead     int `json:"cache_read_input_tokens"`
	CacheCreation int `json:"cache_creation_input_tokens"`
}

// MessageState is the fate of a message sent with Process.SendAs, by its id (2.1.332's
// command_lifecycle lines; older CLIs send none): "queued" when the CLI read it while busy,
// "started" when a turn took it in (a new turn, or the running one at its next tool
// result), then "completed" or "cancelled" (Process.Withdraw, or an interrupt that swept it).
type MessageState struct {
	ID    string
	State string
}

// TurnEnd ends a turn (the CLI's result line).
type TurnEnd struct {
	// Subtype is "success" or an error: "error_during_execution" (also what an interrupt
	// gives), "error_max_turns", …. A turn that ended on an API error is "success" with
	// IsError set: ErrorText says what went wrong.
	Subtype string
	IsError bool
	Result  string // the final text on success; the CLI's message on an API error
	// Errors are the result's errors for the user; the CLI's internal diagnostics lines
	// ("[ede_diagnostic] …", "[session_crash] …", which the CLI's own SDK drops too) are
	// moved to Diagnostics, for the log.
	Errors      []string
	Diagnostics []string
	// APIErrorStatus is the HTTP status of the API error the turn ended on (0: none), after
	// the CLI's retries (api_retry) or at once for a status it does not retry (400, 401, …);
	// APIErrorType is the API's error type (2.1.332; "" on 2.1.197).
	APIErrorStatus int
	APIErrorType   string
	// Interrupted says the turn ended because it was interrupted (terminal_reason
	// "aborted_streaming", "aborted_tools"): the transcript already says so.
	Interrupted bool
	Duration    time.Duration
	APIDuration time.Duration
	NumTurns    int
	Tokens      Usage // this turn's
	// CostUSD is the cost of everything this CLI process did so far, not of this turn.
	CostUSD   float64
	SessionID string
	// Denied lists the tools the user denied during the turn.
	Denied []string
}

// ErrorText is what the user is told about a failed turn: "" for a turn that did not fail or
// was interrupted; the API's status and message for an API error ("API error 400
// (invalid_request_error): messages.0: …"); else the errors, or the subtype.
func (t TurnEnd) ErrorText() string {
	if !t.IsError || t.Interrupted {
		return ""
	}
	if t.APIErrorStatus != 0 {
		// The CLI's text starts "API Error: 400 …"; the status is said once, ours.
		msg := strings.TrimPrefix(t.Result, "API Error: ")
		msg = strings.TrimPrefix(msg, strconv.Itoa(t.APIErrorStatus))
		msg = strings.TrimSpace(msg)
		head := "API error " + strconv.Itoa(t.APIErrorStatus)
		if t.APIErrorType != "" {
			head += " (" + t.APIErrorType + ")"
		}
		if msg == "" {
			return head
		}
		return head + ": " + msg
	}
	if len(t.Errors) > 0 {
		return strings.Join(t.Errors, "; ")
	}
	if t.Result != "" && t.Subtype == "success" {
		return t.Result
	}
	return "the turn failed (" + t.Subtype + ")"
}

// Exited is the last event: the CLI is gone. MidTurn says it went while a turn was running
// (a crash, a kill); Code is its exit code, -1 when a signal ended it (Signal names it).
type Exited struct {
	Code    int
	Signal  string
	MidTurn bool
	// Stderr is the last line the CLI wrote to stderr when it did not exit with 0: a CLI
	// that refuses its arguments says why there ("--dangerously-skip-permissions cannot be
	// used with root/sudo privileges for security reasons").
	Stderr string
}

func (Init) event()                {}
func (Status) event()              {}
func (TextDelta) event()           {}
func (ThinkingDelta) event()       {}
func (BlockEnd) event()            {}
func (ToolInputDelta) event()      {}
func (ToolUse) event()             {}
func (ToolResult) event()          {}
func (UserText) event()            {}
func (PermissionRequest) event()   {}
func (PermissionCancelled) event() {}
func (PermissionRefused) event()   {}
func (TurnEnd) event()             {}
func (MessageState) event()        {}
func (Exited) event()              {}
func (LineSkipped) event()         {}
