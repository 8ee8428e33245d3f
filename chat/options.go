package chat

import (
	"log/slog"
	"time"
)

// DefaultCloseGrace is how long Close waits for the CLI to exit after its stdin closes before
// killing it. An idle CLI exits at once; the grace is for one busy finishing its writes.
const DefaultCloseGrace = 5 * time.Second

// Options say how to start the CLI. Only Dir is required.
type Options struct {
	// Bin is the claude executable; empty looks up "claude" on PATH.
	Bin string
	// Dir is the workspace: the CLI's working directory, which also selects where its
	// conversations are stored.
	Dir string
	// Env is the CLI's whole environment (KEY=VALUE); nil inherits ours.
	Env []string

	Model string
	// PermissionMode is one of PermissionModes; empty leaves the CLI's default.
	PermissionMode string
	// Resume continues the stored conversation with this id; Continue the newest one in Dir.
	Resume   string
	Continue bool
	// Fork, with Resume, stores the conversation under a new id (--fork-session): the resumed
	// one is left as it was. ResumeAt, with Resume, keeps the conversation only up to that
	// entry (--resume-session-at; EntryBefore finds the one before a message).
	Fork     bool
	ResumeAt string
	// MCPConfig are --mcp-config values: JSON files or JSON strings.
	MCPConfig []string
	// Args are appended to the command line as they are.
	Args []string
	// Remote, when set, runs the CLI on another side through its transport
	// (remote.go); Bin is then unused, and Dir is this side's workspace.
	Remote *Remote

	// Logger gets the CLI's stderr (at Warn, a line each) and the lines we skip; nil discards.
	Logger *slog.Logger
	// BatchWindow is the shortest time between two batches from Next; 0 means
	// DefaultBatchWindow, a negative value hands out every event at once.
	BatchWindow time.Duration
	// CloseGrace overrides DefaultCloseGrace when above 0.
	CloseGrace time.Duration

	// Hooks are registered with Initialize; the CLI calls HookHandler for each (hooks.go).
	Hooks       []Hook
	HookHandler HookHandler

	// WorkspaceTrust, when set, is the folder (Dir's git root, else Dir) the user said they
	// trust, asked by the editor before this start. Initialize tells the CLI (its
	// workspaceTrust, 2.1.332), which then records the trust where it looks, as its own
	// dialog does; InitializeResult.WorkspaceTrustRecorded says whether it did. Only set it
	// after the user said yes to that folder.
	WorkspaceTrust string
}

// PermissionModes are the modes the CLI accepts (its --permission-mode choices). The CLI's
// set_permission_mode answers success even for a mode it does not know, so we check.
var PermissionModes = []string{"default", "acceptEdits", "plan", "auto", "dontAsk", "bypassPermissions"}

// args builds the CLI's command line after the executable.
func (o *Options) args() []string {
	a := []string{
		"-p",
		"--input-format", "stream-json",
		"--output-format", "stream-json",
		"--verbose", // print mode refuses stream-json output without it
		"--permission-prompt-tool", "stdio",
		"--include-partial-messages",
	}
	if o.Model != "" {
		a = append(a, "--model", o.Model)
	}
	if o.PermissionMode != "" {
		a = append(a, "--permission-mode", o.PermissionMode)
	}
	if o.Resume != "" {
		a = append(a, "--resume", o.Resume)
		if o.Fork {
			a = append(a, "--fork-session")
		}
		if o.ResumeAt != "" {
			a = append(a, "--resume-session-at", o.ResumeAt)
		}
	} else if o.Continue {
		a = append(a, "--continue")
	}
	for _, c := range o.MCPConfig {
		a = append(a, "--mcp-config", c)
	}
	return append(a, o.Args...)
}
