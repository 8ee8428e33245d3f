package chatctl

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/claude-nvim/claude.nvim/chat"
)

// The agent's work beside the conversation (issue 25, items 1 and 2): the task list the
// model keeps, shown as one pinned view updated in place (lua/claude/chat/tasks.lua), and
// subagents, whose tool lines the transcript groups under the Agent tool line that started
// them (lua/claude/chat/agents.lua).

// TodoItem is one entry of a "tasks" item: the task list as it is now.
type TodoItem struct {
	ID         string `msgpack:"id"`
	Subject    string `msgpack:"subject"`
	ActiveForm string `msgpack:"active_form"`
	Status     string `msgpack:"status"` // pending, in_progress, completed
}

// taskTools hides the task tools' calls from the transcript: the list shows what they did,
// and a line per update would bury the conversation. Used by the run goroutine alone.
type taskTools struct{ ids map[string]bool }

// hides reports whether ev is a task tool's call or result, remembering the call's id.
func (h *taskTools) hides(ev chat.Event) bool {
	switch e := ev.(type) {
	case chat.ToolUse:
		if isTaskTool(e.Name) || loadsTaskTools(e) {
			if h.ids == nil {
				h.ids = map[string]bool{}
			}
			h.ids[e.ID] = true
			return true
		}
	case chat.ToolResult:
		if h.ids[e.ID] {
			delete(h.ids, e.ID)
			return !e.IsError // a failure is shown: the list did not change
		}
	}
	return false
}

func isTaskTool(name string) bool {
	switch name {
	case chat.ToolTaskCreate, chat.ToolTaskUpdate, chat.ToolTaskList, chat.ToolTodoWrite, "TaskGet":
		return true
	}
	return false
}

// loadsTaskTools reports whether e is a ToolSearch that only loads task tools (2.1.332 defers
// them: "select:TaskCreate,TaskUpdate" comes before their first use).
func loadsTaskTools(e chat.ToolUse) bool {
	if e.Name != "ToolSearch" {
		return false
	}
	var in struct {
		Query string `json:"query"`
	}
	if json.Unmarshal(e.Input, &in) != nil {
		return false
	}
	names, ok := strings.CutPrefix(in.Query, "select:")
	if !ok || names == "" {
		return false
	}
	for _, n := range strings.Split(names, ",") {
		if !isTaskTool(strings.TrimSpace(n)) {
			return false
		}
	}
	return true
}

// tasksItem is the transcript's "tasks" item: the whole list, small, replacing the one shown.
func tasksItem(e chat.TaskList) Item {
	items := make([]TodoItem, len(e.Items))
	for i, t := range e.Items {
		items[i] = TodoItem{ID: t.ID, Subject: t.Subject, ActiveForm: t.ActiveForm, Status: t.Status}
	}
	return Item{Kind: "tasks", Tasks: items}
}

// agentItem is the transcript's "agent" item: a task's state, for the line of the tool use
// that started it (ID).
func agentItem(e chat.Task) Item {
	return Item{
		Kind: "agent", ID: e.ToolUseID, TaskID: e.TaskID, Text: e.State, Name: e.Agent, Subtype: e.Type,
		Description: e.Description, Summary: e.Activity, LastTool: e.LastTool, Background: e.Background,
		ToolUses: e.ToolUses, DurationMS: e.Duration.Milliseconds(), Report: e.Summary,
	}
}

// StopTaskArgs are ClaudeHostChatStopTask's: the chat's directory and the CLI's task id.
type StopTaskArgs struct {
	Dir    string `msgpack:",array"`
	TaskID string
}

// StopTask serves ClaudeHostChatStopTask (async): stop a running subagent or background
// task. The CLI's task_notification ("stopped") then updates its line.
func (c *Controller) StopTask(args StopTaskArgs) {
	c.withRunning(args.Dir, "stop task", func(ctx context.Context, proc Backend) error {
		t, err := capable[TaskStopper](proc, "stop task")
		if err != nil {
			return err
		}
		return t.StopTask(ctx, args.TaskID)
	})
}

// besideTheConversation reports whether ev is shown apart from the conversation's own text
// (a subagent's tool lines go under its Agent line, the task list in its own view): the
// text block streaming meanwhile goes on unbroken.
func besideTheConversation(ev chat.Event) bool {
	switch e := ev.(type) {
	case chat.Task, chat.TaskList:
		return true
	case chat.ToolUse:
		return e.Parent != ""
	case chat.ToolResult:
		return e.Parent != ""
	}
	return false
}
