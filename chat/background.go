package chat

import (
	"context"
	"encoding/json"
	"fmt"
)

// Background work (issue 39 item 7; both CLIs where not said, doc.go): a running Bash
// command or subagent sent to the background as Ctrl+B does in the terminal, and a
// background command's output.

// Background sends the running foreground tasks to the background (background_tasks, the
// control request equal to Ctrl+B): each blocking tool call returns at once with a "running
// in the background" result and the turn goes on; the task keeps running and a Task event
// with Background set, then its end, follow. With toolUseID only the task that tool call
// started goes, and found says whether it was there (2.1.332; else found is true).
func (s *Process) Background(ctx context.Context, toolUseID string) (found bool, err error) {
	fields := map[string]any{}
	if toolUseID != "" {
		fields["tool_use_id"] = toolUseID
	}
	raw, err := s.ctl.request(ctx, "background_tasks", fields)
	if err != nil {
		return false, err
	}
	var r struct {
		Backgrounded *bool `json:"backgrounded"`
	}
	if json.Unmarshal(raw, &r) == nil && r.Backgrounded != nil {
		return *r.Backgrounded, nil
	}
	return true, nil
}

// TaskOutput is the end of a background command's output.
type TaskOutput struct {
	Output    string // the last 8 KiB at most, as the command wrote it (escapes included)
	Total     int    // bytes written in all
	Truncated bool   // Output is only the end
}

// TaskOutput reads the end of a background shell task's output (get_task_output, 2.1.332;
// 2.1.197 does not know the request: ErrControl), running or ended.
func (s *Process) TaskOutput(ctx context.Context, taskID string) (TaskOutput, error) {
	raw, err := s.ctl.request(ctx, "get_task_output", map[string]any{"task_id": taskID})
	if err != nil {
		return TaskOutput{}, err
	}
	var r struct {
		Output     string `json:"output"`
		TotalBytes int    `json:"total_bytes"`
		Truncated  bool   `json:"truncated"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return TaskOutput{}, fmt.Errorf("get_task_output: decode response: %w", err)
	}
	return TaskOutput{Output: r.Output, Total: r.TotalBytes, Truncated: r.Truncated}, nil
}
