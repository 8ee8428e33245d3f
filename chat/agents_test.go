package chat

import (
	"reflect"
	"testing"
	"time"
)

// Lines as 2.1.332 wrote them (abridged: uuids, session ids, usage of messages dropped).

func taskUse(id, name, input string) string {
	return `{"type":"assistant","message":{"id":"m_` + id + `","content":[{"type":"tool_use","id":"` + id + `","name":"` + name + `","input":` + input + `}]},"parent_tool_use_id":null}`
}

func taskResult(id, text, structured string) string {
	return `{"type":"user","message":{"role":"user","content":[{"tool_use_id":"` + id + `","type":"tool_result","content":"` + text + `"}]},"parent_tool_use_id":null,"tool_use_result":` + structured + `}`
}

func taskLists(evs []Event) [][]TodoItem {
	var out [][]TodoItem
	for _, e := range evs {
		if l, ok := e.(TaskList); ok {
			out = append(out, l.Items)
		}
	}
	return out
}

func TestTheTaskListIsRebuiltFromTheTaskToolsAndTheirResults(t *testing.T) {
	evs, errs := collect(t,
		taskUse("t1", "TaskCreate", `{"subject":"Write tests","description":"d","activeForm":"Writing tests"}`),
		taskUse("t2", "TaskCreate", `{"subject":"Fix bug","description":"d"}`),
		taskResult("t1", "Task #1 created successfully: Write tests", `{"task":{"id":"1","subject":"Write tests","description":"d"}}`),
		taskResult("t2", "Task #2 created successfully: Fix bug", `null`), // the id from the text
		taskUse("t3", "TaskUpdate", `{"taskId":"1","status":"in_progress"}`),
		taskResult("t3", "Updated task #1 status", `{"success":true,"taskId":"1","updatedFields":["status"]}`),
		taskUse("t4", "TaskUpdate", `{"taskId":"1","status":"completed"}`),
		`{"type":"user","message":{"role":"user","content":[{"tool_use_id":"t4","type":"tool_result","content":"no","is_error":true}]},"parent_tool_use_id":null}`,
		taskUse("t5", "TaskList", `{}`),
		taskResult("t5", "#1 [completed] Write tests", `{"tasks":[{"id":"1","subject":"Write tests","status":"completed"},{"id":"2","subject":"Fix bug","status":"pending"}]}`),
		taskUse("t6", "TaskUpdate", `{"taskId":"2","status":"deleted"}`),
		taskResult("t6", "Updated task #2 deleted", `{}`),
	)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := [][]TodoItem{
		{{ID: "1", Subject: "Write tests", ActiveForm: "Writing tests", Status: "pending"}},
		{{ID: "1", Subject: "Write tests", ActiveForm: "Writing tests", Status: "pending"}, {ID: "2", Subject: "Fix bug", Status: "pending"}},
		{{ID: "1", Subject: "Write tests", ActiveForm: "Writing tests", Status: "in_progress"}, {ID: "2", Subject: "Fix bug", Status: "pending"}},
		// the failed update changes nothing; TaskList's answer is the CLI's own list
		{{ID: "1", Subject: "Write tests", ActiveForm: "Writing tests", Status: "completed"}, {ID: "2", Subject: "Fix bug", Status: "pending"}},
		{{ID: "1", Subject: "Write tests", ActiveForm: "Writing tests", Status: "completed"}},
	}
	if got := taskLists(evs); !reflect.DeepEqual(got, want) {
		t.Errorf("task lists:\n got %+v\nwant %+v", got, want)
	}
}

func TestTodoWriteReplacesTheWholeList(t *testing.T) {
	evs, _ := collect(t,
		taskUse("w1", "TodoWrite", `{"todos":[{"content":"A","status":"completed","activeForm":"Doing A"},{"content":"B","status":"in_progress","activeForm":"Doing B"}]}`),
		taskResult("w1", "Todos have been modified successfully", `{}`),
	)
	want := [][]TodoItem{{{ID: "1", Subject: "A", ActiveForm: "Doing A", Status: "completed"}, {ID: "2", Subject: "B", ActiveForm: "Doing B", Status: "in_progress"}}}
	if got := taskLists(evs); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestASubagentsLinesCarryItsAgentToolUseAndItsTaskLinesBecomeTasks(t *testing.T) {
	evs, errs := collect(t,
		taskUse("toolu_1", "Agent", `{"description":"Look around","prompt":"P","subagent_type":"general-purpose"}`),
		`{"type":"system","subtype":"task_started","task_id":"a3f","run_id":"r","tool_use_id":"toolu_1","description":"Look around","subagent_type":"general-purpose","is_backgrounded":true,"spawn_depth":1,"task_type":"local_agent","prompt":"P"}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"P"}]},"parent_tool_use_id":"toolu_1","agent_id":"a3f"}`,
		`{"type":"system","subtype":"task_progress","task_id":"a3f","tool_use_id":"toolu_1","description":"Running say hi","subagent_type":"general-purpose","usage":{"total_tokens":21,"tool_uses":1,"duration_ms":89},"last_tool_name":"Bash"}`,
		`{"type":"assistant","message":{"id":"m2","content":[{"id":"toolu_2","input":{"command":"echo hi"},"name":"Bash","type":"tool_use"}]},"parent_tool_use_id":"toolu_1","agent_id":"a3f"}`,
		`{"type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_2","type":"tool_result","content":"hi","is_error":false}]},"parent_tool_use_id":"toolu_1","agent_id":"a3f"}`,
		`{"type":"assistant","message":{"id":"m3","content":[{"text":"sub found hello","type":"text"}]},"parent_tool_use_id":"toolu_1","agent_id":"a3f"}`,
		`{"type":"system","subtype":"task_updated","task_id":"a3f","patch":{"status":"completed","end_time":1}}`,
		`{"type":"system","subtype":"task_notification","task_id":"a3f","tool_use_id":"toolu_1","status":"completed","output_file":"/t","summary":"sub found hello","usage":{"total_tokens":15,"tool_uses":1,"duration_ms":2100}}`,
	)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := []Event{
		ToolUse{ID: "toolu_1", Name: "Agent", Summary: "Look around", Input: []byte(`{"description":"Look around","prompt":"P","subagent_type":"general-purpose"}`)},
		Task{TaskID: "a3f", ToolUseID: "toolu_1", State: "running", Type: "local_agent", Agent: "general-purpose", Description: "Look around", Background: true},
		Task{TaskID: "a3f", ToolUseID: "toolu_1", State: "running", Agent: "general-purpose", Activity: "Running say hi", LastTool: "Bash", ToolUses: 1, Tokens: 21, Duration: 89 * time.Millisecond},
		ToolUse{ID: "toolu_2", Name: "Bash", Summary: "echo hi", Input: []byte(`{"command":"echo hi"}`), Parent: "toolu_1"},
		ToolResult{ID: "toolu_2", Content: "hi", Parent: "toolu_1"},
		Task{TaskID: "a3f", ToolUseID: "toolu_1", State: "completed", Summary: "sub found hello", ToolUses: 1, Tokens: 15, Duration: 2100 * time.Millisecond},
	}
	if !reflect.DeepEqual(evs, want) {
		t.Errorf("events:\n got %#v\nwant %#v", evs, want)
	}
}
