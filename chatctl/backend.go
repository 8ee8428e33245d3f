package chatctl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/claude-nvim/claude.nvim/chat"
)

// Backend is one running chat agent as the controller drives it: the Claude CLI on
// stream-json (*chat.Process) or an ACP agent (package acpchat). It hands out what the
// agent does as chat.Events, which the controller turns into the transcript's Items, so the
// Lua side renders every agent the same way. What only some agents can do is asked of
// the optional interfaces below (Asker, TaskStopper, Rewinder, Teller); a chat whose
// agent lacks one says so in its transcript (ErrNotSupported).
type Backend interface {
	PID() int
	// Next returns the next batch of events; io.EOF once the agent is gone and its last
	// event (chat.Exited) was handed out.
	Next(ctx context.Context) ([]chat.Event, error)
	Done() <-chan struct{}
	Close(ctx context.Context) error
	// Initialize is asked once, at start: the slash commands and models.
	Initialize(ctx context.Context) (*chat.InitializeResult, error)
	SendAs(ctx context.Context, id, text string, images ...chat.Image) error
	Withdraw(ctx context.Context, id string) (bool, error)
	Interrupt(ctx context.Context) error
	Allow(ctx context.Context, ticket string, updatedInput json.RawMessage, suggestions ...int) error
	Deny(ctx context.Context, ticket, message string) error
	DenyAndStop(ctx context.Context, ticket, message string) error
	SetPermissionMode(ctx context.Context, mode string) error
	SetModel(ctx context.Context, model string) error
	SetEffort(ctx context.Context, level string) error
	Effort(ctx context.Context) (string, error)
	ContextUsage(ctx context.Context) (chat.ContextUsage, error)
}

// Asker answers the Claude CLI's questions (AskUserQuestion) and plan approvals.
type Asker interface {
	AnswerQuestions(ctx context.Context, ticket string, answers map[string]string) error
	ApprovePlan(ctx context.Context, ticket, plan, mode string) error
}

// TaskStopper stops a subagent or background task.
type TaskStopper interface {
	StopTask(ctx context.Context, taskID string) error
}

// Rewinder rewinds the agent's own file checkpoints and conversation.
type Rewinder interface {
	RewindFiles(ctx context.Context, messageID string, dryRun bool) (chat.FileRewind, error)
	RewindConversation(ctx context.Context, messageID, lastSeen string) (string, error)
}

// Teller puts a note in the conversation without a turn of its own.
type Teller interface {
	Tell(ctx context.Context, text string) error
}

// Keeper runs an allowed edit whole and then gives its file the text the user kept: an
// agent that cannot take a changed input nor be told mid-turn (ACP). The note goes to the
// agent with the next prompt.
type Keeper interface {
	AllowKeeping(ctx context.Context, ticket, path, after, final, note string) error
}

// The Claude CLI can do everything.
var (
	_ Backend     = (*chat.Process)(nil)
	_ Asker       = (*chat.Process)(nil)
	_ TaskStopper = (*chat.Process)(nil)
	_ Rewinder    = (*chat.Process)(nil)
	_ Teller      = (*chat.Process)(nil)
)

// ErrNotSupported is what the transcript says of an operation the chat's agent cannot do.
var ErrNotSupported = errors.New("this chat's agent cannot do that (its protocol has no such request)")

// capable returns b as the optional interface T, or an error naming what the agent cannot do.
func capable[T any](b Backend, what string) (T, error) {
	t, ok := b.(T)
	if !ok {
		return t, fmt.Errorf("%s: %w", what, ErrNotSupported)
	}
	return t, nil
}
