package chatctl

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/claude-nvim/claude.nvim/chat"
)

// Background work (issue 39 item 7): the running command or subagent sent to the background
// (:Claude chat background, <C-b> in the input: the CLI's Ctrl+B), and a background command's
// output for the task list (lua/claude/chat/background.lua).

// Backgrounder sends the agent's running tasks to the background and reads a background
// command's output: the Claude CLI (chat.Process).
type Backgrounder interface {
	Background(ctx context.Context, toolUseID string) (bool, error)
	TaskOutput(ctx context.Context, taskID string) (chat.TaskOutput, error)
}

// BackgroundArgs are ClaudeHostChatBackground's: the chat, and the tool call whose task to
// send ("" for every task in the foreground).
type BackgroundArgs struct {
	Dir       string `msgpack:",array"`
	ToolUseID string
}

// Background serves ClaudeHostChatBackground (async). The CLI's task lines say what went;
// a failure is shown in the transcript.
func (c *Controller) Background(args BackgroundArgs) {
	c.withRunning(args.Dir, "background", func(ctx context.Context, proc Backend) error {
		b, err := capable[Backgrounder](proc, "background")
		if err != nil {
			return err
		}
		found, err := b.Background(ctx, args.ToolUseID)
		if err == nil && !found {
			err = errors.New("that task no longer runs in the foreground")
		}
		return err
	})
}

// TaskOutputArgs are ClaudeHostChatTaskOutput's: the chat and the CLI's task id.
type TaskOutputArgs struct {
	Dir    string `msgpack:",array"`
	TaskID string
}

// TaskOutput serves ClaudeHostChatTaskOutput (async): the end of a background command's
// output as a "task_output" item (TaskID; Body its lines; Summary how much there is; Text
// what failed).
func (c *Controller) TaskOutput(args TaskOutputArgs) {
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), contextTimeout)
		defer cancel()
		it := Item{Kind: "task_output", TaskID: args.TaskID}
		proc := c.running(args.Dir)
		if proc == nil {
			it.Text = "no chat CLI runs"
			c.show(ctx, args.Dir, it)
			return
		}
		b, err := capable[Backgrounder](proc, "task output")
		if err != nil {
			it.Text = err.Error()
			c.show(ctx, args.Dir, it)
			return
		}
		out, err := b.TaskOutput(ctx, args.TaskID)
		switch {
		case errors.Is(err, chat.ErrControl) && strings.Contains(err.Error(), "Unsupported control request subtype"):
			it.Text = "this Claude Code cannot read a task's output (get_task_output came with 2.1.332)"
		case err != nil:
			it.Text = err.Error()
		default:
			it.Body = lastLines(out.Output)
			it.Summary = fmt.Sprintf("%d bytes written", out.Total)
			if out.Truncated {
				it.Summary += ", the last 8 KiB shown"
			}
		}
		c.show(ctx, args.Dir, it)
	}()
}

// outputLines is how many lines of a task's output the list shows: its end.
const outputLines = 200

// lastLines is the end of output as lines, each cut to a line the editor can take.
func lastLines(output string) []string {
	lines := strings.Split(strings.TrimRight(output, "\n"), "\n")
	if len(lines) > outputLines {
		lines = lines[len(lines)-outputLines:]
	}
	for i, l := range lines {
		lines[i] = cut(l)
	}
	return lines
}
