package acp

import (
	"context"
	"encoding/json"
)

// Client is our side of the protocol: what the agent calls. Every Client receives the
// session updates; it serves the agent's requests by implementing the optional interfaces
// below (PermissionHandler, FileReader, FileWriter, Terminals). Conn.Initialize advertises
// exactly the fs and terminal capabilities the Client implements, and a request for
// anything it does not implement is answered -32601.
type Client interface {
	// SessionUpdate is called on the connection's reader goroutine, in the order the
	// agent sent the updates, before the answer to any request that followed them is
	// handed over. It must return quickly (queue the update) and must not call the Conn
	// and wait: the reader would wait for itself.
	SessionUpdate(SessionNotification)
}

// PermissionHandler answers session/request_permission: the agent asks before it runs a
// tool. Pick the answer by the options' Kind, never by their position (see
// PermissionRequest.Option). ctx ends when the turn is cancelled (Conn.Cancel), the agent
// withdraws the request or the connection ends; the agent is then told "cancelled",
// whatever the handler returns.
type PermissionHandler interface {
	RequestPermission(ctx context.Context, req *PermissionRequest) (PermissionOutcome, error)
}

// FileReader serves fs/read_text_file: the file as the editor has it (unsaved changes
// included), from Line (1-based) for Limit lines when they are set.
type FileReader interface {
	ReadTextFile(ctx context.Context, req *ReadTextFileRequest) (string, error)
}

// FileWriter serves fs/write_text_file: the agent writes a whole file through the client.
type FileWriter interface {
	WriteTextFile(ctx context.Context, req *WriteTextFileRequest) error
}

// Terminals serves terminal/*: commands the agent runs through the client.
type Terminals interface {
	CreateTerminal(ctx context.Context, req *CreateTerminalRequest) (terminalID string, err error)
	TerminalOutput(ctx context.Context, req *TerminalRequest) (*TerminalOutput, error)
	WaitForTerminalExit(ctx context.Context, req *TerminalRequest) (*TerminalExitStatus, error)
	KillTerminal(ctx context.Context, req *TerminalRequest) error
	ReleaseTerminal(ctx context.Context, req *TerminalRequest) error
}

// NotificationHandler, when the Client implements it, gets the notifications other than
// session/update and $/cancel_request (an agent's extensions, such as claude-agent-acp's
// _auth/status_update), on the reader goroutine like SessionUpdate. Without it they are
// dropped.
type NotificationHandler interface {
	Notification(method string, params json.RawMessage)
}

// Permission option kinds.
const (
	AllowOnce    = "allow_once"
	AllowAlways  = "allow_always"
	RejectOnce   = "reject_once"
	RejectAlways = "reject_always"
)

// PermissionRequest is the agent asking whether a tool call may run. ToolCall carries what
// the agent knows of it (title, kind, the diff it would apply, …).
type PermissionRequest struct {
	SessionID string             `json:"sessionId"`
	ToolCall  ToolCallUpdate     `json:"toolCall"`
	Options   []PermissionOption `json:"options"`
}

// PermissionOption is one answer the agent offers; Kind is one of AllowOnce, AllowAlways,
// RejectOnce, RejectAlways.
type PermissionOption struct {
	OptionID string `json:"optionId"`
	Name     string `json:"name"`
	Kind     string `json:"kind"`
}

// Option is the first offered option of one of the kinds, in the order of kinds given:
// Option(RejectOnce, RejectAlways) is the mildest refusal on offer.
func (r *PermissionRequest) Option(kinds ...string) (PermissionOption, bool) {
	for _, k := range kinds {
		for _, o := range r.Options {
			if o.Kind == k {
				return o, true
			}
		}
	}
	return PermissionOption{}, false
}

// PermissionOutcome is the answer to a permission request: an offered option, or
// Cancelled (the turn is being cancelled; also what a request without a refusing option is
// answered when the user refuses).
type PermissionOutcome struct {
	Cancelled bool
	OptionID  string
}

// Select answers with an offered option.
func Select(o PermissionOption) PermissionOutcome { return PermissionOutcome{OptionID: o.OptionID} }

// Cancelled answers that the turn is being cancelled.
var Cancelled = PermissionOutcome{Cancelled: true}

func (o PermissionOutcome) MarshalJSON() ([]byte, error) {
	type outcome struct {
		Outcome  string `json:"outcome"`
		OptionID string `json:"optionId,omitempty"`
	}
	v := outcome{Outcome: "selected", OptionID: o.OptionID}
	if o.Cancelled {
		v = outcome{Outcome: "cancelled"}
	}
	return json.Marshal(struct {
		Outcome outcome `json:"outcome"`
	}{v})
}

// ReadTextFileRequest asks for a text file (Path absolute): Limit lines from Line when set.
type ReadTextFileRequest struct {
	SessionID string `json:"sessionId"`
	Path      string `json:"path"`
	Line      *int   `json:"line,omitempty"`
	Limit     *int   `json:"limit,omitempty"`
}

// WriteTextFileRequest writes Content to the text file at Path (absolute).
type WriteTextFileRequest struct {
	SessionID string `json:"sessionId"`
	Path      string `json:"path"`
	Content   string `json:"content"`
}

// CreateTerminalRequest runs Command with Args (not through a shell) in Cwd with Env
// added, keeping at most OutputByteLimit bytes of output (the newest) when set.
type CreateTerminalRequest struct {
	SessionID       string      `json:"sessionId"`
	Command         string      `json:"command"`
	Args            []string    `json:"args,omitempty"`
	Env             []NameValue `json:"env,omitempty"`
	Cwd             string      `json:"cwd,omitempty"`
	OutputByteLimit *int64      `json:"outputByteLimit,omitempty"`
}

// TerminalRequest names a terminal of a session (terminal/output, wait_for_exit, kill,
// release).
type TerminalRequest struct {
	SessionID  string `json:"sessionId"`
	TerminalID string `json:"terminalId"`
}

// TerminalOutput is a terminal's output so far; ExitStatus is set once it has exited.
type TerminalOutput struct {
	Output     string              `json:"output"`
	Truncated  bool                `json:"truncated"`
	ExitStatus *TerminalExitStatus `json:"exitStatus,omitempty"`
}

// TerminalExitStatus is how a terminal's command ended: its exit code, or the signal that
// killed it.
type TerminalExitStatus struct {
	ExitCode *int   `json:"exitCode"`
	Signal   string `json:"signal,omitempty"`
}
