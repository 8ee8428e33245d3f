package chat

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
)

// The task list the model keeps, for the chat to show. 2.1.197 and 2.1.332 keep it with the
// task tools (TaskCreate {subject, description, activeForm} answered "Task #N created
// successfully: …", TaskUpdate {taskId, status, subject, activeForm}, TaskList); a CLI
// with CLAUDE_CODE_ENABLE_TASKS=false and older ones use TodoWrite {todos: [{content,
// status, activeForm}]}, the whole list each time. No line of the stream carries the list:
// it is rebuilt here from the tool calls and their results (doc.go), as the CLI's own
// terminal view does.

// Task tool names.
const (
	ToolTaskCreate = "TaskCreate"
	ToolTaskUpdate = "TaskUpdate"
	ToolTaskList   = "TaskList"
	ToolTodoWrite  = "TodoWrite"
)

// TodoItem is one entry of the task list. Status is "pending", "in_progress" or
// "completed".
type TodoItem struct {
	ID         string
	Subject    string
	ActiveForm string // how it reads while in progress: "Running the tests"
	Status     string
}

// TaskList is the whole task list after a change, in the order the items were created.
type TaskList struct{ Items []TodoItem }

func (TaskList) event() {}

var taskCreated = regexp.MustCompile(`^Task #(\S+) created successfully`)

// todoList rebuilds the list: a task tool's input is kept until its result says it worked.
type todoList struct {
	items   []TodoItem
	pending map[string]todoCall // tool use id → the call
}

type todoCall struct {
	name  string
	input json.RawMessage
}

// taskInput is the union of the task tools' inputs.
type taskInput struct {
	Subject    string `json:"subject"`
	ActiveForm string `json:"activeForm"`
	TaskID     string `json:"taskId"`
	Status     string `json:"status"`
	Todos      []struct {
		Content    string `json:"content"`
		Status     string `json:"status"`
		ActiveForm string `json:"activeForm"`
	} `json:"todos"`
}

// use notes a tool call; only the task tools are kept.
func (l *todoList) use(id, name string, input json.RawMessage) {
	switch name {
	case ToolTaskCreate, ToolTaskUpdate, ToolTaskList, ToolTodoWrite:
	default:
		return
	}
	if l.pending == nil {
		l.pending = map[string]todoCall{}
	}
	l.pending[id] = todoCall{name: name, input: input}
}

// result applies a task tool's result and returns the list when it changed. structured is
// the user line's tool_use_result; content the result's text, asked for only when needed.
func (l *todoList) result(id string, isError bool, structured json.RawMessage, content func() string) ([]TodoItem, bool) {
	call, ok := l.pending[id]
	if !ok {
		return nil, false
	}
	delete(l.pending, id)
	if isError {
		return nil, false
	}
	var in taskInput
	if json.Unmarshal(call.input, &in) != nil {
		return nil, false
	}
	var out struct {
		Task struct {
			ID string `json:"id"`
		} `json:"task"`
		Tasks []struct {
			ID      string `json:"id"`
			Subject string `json:"subject"`
			Status  string `json:"status"`
		} `json:"tasks"`
	}
	if len(structured) > 0 {
		_ = json.Unmarshal(structured, &out) // a shape we do not know changes nothing
	}
	before := slices.Clone(l.items)
	switch call.name {
	case ToolTaskCreate:
		taskID := out.Task.ID
		if taskID == "" {
			if m := taskCreated.FindStringSubmatch(content()); m != nil {
				taskID = m[1]
			}
		}
		if taskID == "" {
			return nil, false
		}
		l.items = append(l.items, TodoItem{ID: taskID, Subject: in.Subject, ActiveForm: in.ActiveForm, Status: "pending"})
	case ToolTaskUpdate:
		i := slices.IndexFunc(l.items, func(t TodoItem) bool { return t.ID == in.TaskID })
		if i < 0 {
			return nil, false
		}
		if in.Status == "deleted" {
			l.items = slices.Delete(l.items, i, i+1)
			break
		}
		t := &l.items[i]
		if in.Status != "" {
			t.Status = in.Status
		}
		if in.Subject != "" {
			t.Subject = in.Subject
		}
		if in.ActiveForm != "" {
			t.ActiveForm = in.ActiveForm
		}
	case ToolTaskList: // the CLI's own list: it wins over what was rebuilt
		if out.Tasks == nil {
			return nil, false
		}
		items := make([]TodoItem, 0, len(out.Tasks))
		for _, t := range out.Tasks {
			item := TodoItem{ID: t.ID, Subject: t.Subject, Status: t.Status}
			if i := slices.IndexFunc(l.items, func(o TodoItem) bool { return o.ID == t.ID }); i >= 0 {
				item.ActiveForm = l.items[i].ActiveForm
			}
			items = append(items, item)
		}
		l.items = items
	case ToolTodoWrite:
		l.items = l.items[:0:0]
		for i, t := range in.Todos {
			l.items = append(l.items, TodoItem{ID: strconv.Itoa(i + 1), Subject: t.Content, ActiveForm: t.ActiveForm, Status: t.Status})
		}
	}
	if slices.Equal(before, l.items) {
		return nil, false
	}
	return slices.Clone(l.items), true
}
