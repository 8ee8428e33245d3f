package chat

import (
	"context"
	"time"
)

// Task is the state of a task the CLI runs beside the conversation: a subagent (the Agent
// tool, named "Task" in system/init's tools) or a background command, from the CLI's system
// lines task_started, task_progress and task_notification (doc.go). The lines of a
// subagent's own messages carry its ToolUseID as their Parent.
type Task struct {
	TaskID    string // the CLI's id: StopTask takes it
	ToolUseID string // the tool use that started it
	// State is "running" until task_notification says "completed", "stopped" (StopTask)
	// or "failed".
	State       string
	Type        string // task_type: "local_agent", "local_bash", …
	Agent       string // subagent_type: "general-purpose", "Explore", …
	Description string // the task's short description (the Agent tool's "description")
	Background  bool   // it runs while the conversation goes on (2.1.332's default for Agent)
	Activity    string // what it does now: "Running say hi" (task_progress)
	LastTool    string // the tool it used last (task_progress)
	ToolUses    int
	Tokens      int
	Duration    time.Duration
	// Summary is the notification's: the subagent's report when it completed, its
	// description when it was stopped.
	Summary string
}

func (Task) event() {}

// Task states as task_notification names them, and ours before it.
const (
	TaskRunning   = "running"
	TaskCompleted = "completed"
	TaskStopped   = "stopped"
	TaskFailed    = "failed"
)

// task turns a task_* system line into a Task event. Of task_updated only a patch that
// sends the task to the background is used (background.go); for its end the notification
// that follows says the same, with the summary.
func (p *parser) task(l *inLine) {
	t := Task{
		TaskID: l.TaskID, ToolUseID: l.ToolUseID, Type: l.TaskType, Agent: l.SubagentType,
		Description: l.Description, Background: l.IsBackgrounded,
		ToolUses: l.Usage.ToolUses, Tokens: l.Usage.TotalTokens,
		Duration: time.Duration(l.Usage.DurationMS * float64(time.Millisecond)),
	}
	switch l.Subtype {
	case "task_started":
		t.State = TaskRunning
	case "task_progress":
		t.State, t.Activity, t.LastTool, t.Description = TaskRunning, l.Description, l.LastToolName, ""
	case "task_updated":
		if !l.Patch.IsBackgrounded {
			return
		}
		t.State, t.Background = TaskRunning, true
	case "task_notification":
		t.State, t.Summary, t.Description = TaskCompleted, l.Summary, ""
		if l.Status != nil && *l.Status != "" {
			t.State = *l.Status
		}
	default:
		return
	}
	p.emit(t)
}

// StopTask stops a running task (a subagent, a background command) by its Task.TaskID: the
// CLI answers at once and a Task event with State "stopped" follows; a stopped subagent's
// report is not given to the model (both CLIs, foreground and background subagents).
func (s *Process) StopTask(ctx context.Context, taskID string) error {
	_, err := s.ctl.request(ctx, "stop_task", map[string]any{"task_id": taskID})
	return err
}
