package chat

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

// collect parses lines and returns the events and the errors of the skipped lines.
func collect(t *testing.T, lines ...string) ([]Event, []error) {
	t.Helper()
	var evs []Event
	var errs []error
	p := newParser(func(e Event) { evs = append(evs, e) })
	for _, l := range lines {
		if err := p.parse([]byte(l)); err != nil {
			errs = append(errs, err)
		}
	}
	return evs, errs
}

func se(event string) string {
	return `{"type":"stream_event","event":` + event + `,"session_id":"s","parent_tool_use_id":null}`
}

func TestParse(t *testing.T) {
	initLine := `{"type":"system","subtype":"init","cwd":"/w","session_id":"s1","tools":["Read"],"mcp_servers":[{"name":"ide","status":"connected"}],"model":"m","permissionMode":"default","slash_commands":["init"],"claude_code_version":"2.1.197"}`
	initEvent := Init{SessionID: "s1", Model: "m", PermissionMode: "default", CWD: "/w", Tools: []string{"Read"}, MCPServers: []MCPServer{{"ide", "connected"}}, SlashCommands: []string{"init"}, Version: "2.1.197"}
	tests := []struct {
		name  string
		lines []string
		want  []Event
	}{
		{
			name:  "init and status become Init and Status",
			lines: []string{initLine, `{"type":"system","subtype":"status","status":"requesting"}`, `{"type":"system","subtype":"status","status":null,"permissionMode":"plan"}`},
			want: []Event{
				initEvent,
				Status{Status: "requesting"}, Status{PermissionMode: "plan"},
			},
		},
		{
			name: "an API retry becomes a Status saying why and when",
			lines: []string{
				`{"type":"system","subtype":"api_retry","attempt":1,"max_retries":10,"retry_delay_ms":514,"error_status":529,"error":"overloaded","session_id":"s1"}`,
				`{"type":"system","subtype":"api_retry","attempt":2,"max_retries":10,"retry_delay_ms":1187.25}`,
			},
			want: []Event{
				Status{Status: "retrying: API error 529 (overloaded), attempt 1 of 10 in 0.5 s"},
				Status{Status: "retrying: API error, attempt 2 of 10 in 1.2 s"},
			},
		},
		{
			name: "a compaction becomes Compacted, and the summary the CLI writes after it is not a user's text",
			lines: []string{
				`{"type":"system","subtype":"compact_boundary","session_id":"s1","compact_metadata":{"trigger":"manual","pre_tokens":500005,"post_tokens":578,"duration_ms":29}}`,
				`{"type":"user","message":{"role":"user","content":"This session is being continued from a previous conversation …"},"isReplay":false,"isSynthetic":true}`,
				`{"type":"user","message":{"role":"user","content":"<local-command-stdout>Compacted </local-command-stdout>"},"isReplay":true}`,
				`{"type":"user","message":{"role":"user","content":"later synthetic text"},"isSynthetic":true}`,
			},
			want: []Event{
				Compacted{Trigger: "manual", PreTokens: 500005, PostTokens: 578},
				UserText{Text: "<local-command-stdout>Compacted </local-command-stdout>", Replay: true},
				UserText{Text: "later synthetic text"},
			},
		},
		{
			name: "streamed text is not repeated by the complete assistant line",
			lines: []string{
				se(`{"type":"message_start","message":{"id":"m1"}}`),
				se(`{"type":"content_block_start","index":0,"content_block":{"type":"thinking"}}`),
				se(`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"hm"}}`),
				`{"type":"assistant","message":{"id":"m1","content":[{"type":"thinking","thinking":"hm"}]}}`,
				se(`{"type":"content_block_stop","index":0}`),
				se(`{"type":"content_block_start","index":1,"content_block":{"type":"text"}}`),
				se(`{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Hel"}}`),
				se(`{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"lo"}}`),
				`{"type":"assistant","message":{"id":"m1","content":[{"type":"text","text":"Hello"}]}}`,
				se(`{"type":"content_block_stop","index":1}`),
			},
			want: []Event{ThinkingDelta{"hm"}, BlockEnd{}, TextDelta{"Hel"}, TextDelta{"lo"}, BlockEnd{}},
		},
		{
			name:  "an assistant line without deltas is shown whole",
			lines: []string{`{"type":"assistant","message":{"id":"m2","content":[{"type":"text","text":"Hi"}]}}`},
			want:  []Event{TextDelta{"Hi"}, BlockEnd{}},
		},
		{
			name: "a tool use streams its input and ends complete, with a summary",
			lines: []string{
				initLine,
				se(`{"type":"message_start","message":{"id":"m3"}}`),
				se(`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t1","name":"Read"}}`),
				se(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"file_path\":"}}`),
				`{"type":"assistant","message":{"id":"m3","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/w/a/b.go"}}]}}`,
				`{"type":"user","message":{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","content":"1\tpackage b"}]}}`,
				`{"type":"user","message":{"role":"user","content":[{"tool_use_id":"t2","type":"tool_result","is_error":true,"content":[{"type":"text","text":"no"},{"type":"image"}]}]}}`,
			},
			want: []Event{
				initEvent,
				ToolInputDelta{ID: "t1", JSON: `{"file_path":`},
				ToolUse{ID: "t1", Name: "Read", Summary: "a/b.go", Input: json.RawMessage(`{"file_path":"/w/a/b.go"}`)},
				ToolResult{ID: "t1", Content: "1\tpackage b"},
				ToolResult{ID: "t2", Content: "no\n[image]", IsError: true},
			},
		},
		{
			name: "a permission request, its withdrawal and the CLI's own user text",
			lines: []string{
				`{"type":"control_request","request_id":"r1","request":{"subtype":"can_use_tool","tool_name":"Edit","display_name":"Edit","input":{"file_path":"/w/f"},"description":"f","permission_suggestions":[{"type":"setMode","mode":"acceptEdits","destination":"session"}],"tool_use_id":"t9"}}`,
				`{"type":"control_cancel_request","request_id":"r1"}`,
				`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"[Request interrupted by user]"}]}}`,
				`{"type":"user","message":{"role":"user","content":"<local-command-stdout>Set model to x</local-command-stdout>"},"isReplay":true}`,
			},
			want: []Event{
				PermissionRequest{RequestID: "r1", ToolName: "Edit", DisplayName: "Edit", Description: "f", ToolUseID: "t9",
					Input: json.RawMessage(`{"file_path":"/w/f"}`), Suggestions: []json.RawMessage{json.RawMessage(`{"type":"setMode","mode":"acceptEdits","destination":"session"}`)}},
				PermissionCancelled{RequestID: "r1"},
				UserText{Text: "[Request interrupted by user]"},
				UserText{Text: "<local-command-stdout>Set model to x</local-command-stdout>", Replay: true},
			},
		},
		{
			name:  "a result becomes TurnEnd",
			lines: []string{`{"type":"result","subtype":"error_during_execution","is_error":true,"duration_ms":70.5,"duration_api_ms":22,"num_turns":2,"session_id":"s1","total_cost_usd":0.5,"usage":{"input_tokens":10,"output_tokens":5,"cache_read_input_tokens":1,"cache_creation_input_tokens":2},"permission_denials":[{"tool_name":"Edit"}]}`},
			want: []Event{TurnEnd{Subtype: "error_during_execution", IsError: true, Duration: 70500 * time.Microsecond, APIDuration: 22 * time.Millisecond,
				NumTurns: 2, SessionID: "s1", CostUSD: 0.5, Tokens: Usage{10, 5, 1, 2}, Denied: []string{"Edit"}}},
		},
		{
			name: "a subagent's partial output is left out, its tool calls are kept with their Agent tool use",
			lines: []string{
				`{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"sub"}},"parent_tool_use_id":"t0"}`,
				`{"type":"assistant","message":{"id":"m9","content":[{"type":"text","text":"sub"}]},"parent_tool_use_id":"t0"}`,
				`{"type":"assistant","message":{"id":"m9","content":[{"type":"tool_use","id":"t5","name":"Bash","input":{"command":"ls -l\nrm x"}}]},"parent_tool_use_id":"t0"}`,
			},
			want: []Event{ToolUse{ID: "t5", Name: "Bash", Summary: "ls -l…", Input: json.RawMessage(`{"command":"ls -l\nrm x"}`), Parent: "t0"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, errs := collect(t, tt.lines...)
			if len(errs) > 0 {
				t.Errorf("errors: %v", errs)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("events =\n%#v\nwant\n%#v", got, tt.want)
			}
		})
	}
}

func TestMalformedAndUnknownLinesAreSkipped(t *testing.T) {
	got, errs := collect(t,
		`{"type":"assistant","message":{"id":"m","content":[{"type":"text","text":"a"}]}}`,
		`{"type":"assistant","message":`, // cut off
		`not json at all`,
		`{"type":"future_line_type","x":1}`,
		`{"type":"stream_event","event":"not an object"}`,
		``,
		`{"type":"system","subtype":"thinking_tokens","estimated_tokens":2}`, // known, not shown
		`{"type":"assistant","message":{"id":"m","content":[{"type":"text","text":"b"}]}}`,
	)
	want := []Event{TextDelta{"a"}, BlockEnd{}, TextDelta{"b"}, BlockEnd{}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("events = %#v, want %#v", got, want)
	}
	if len(errs) != 4 {
		t.Errorf("got %d errors, want 4 (cut, not JSON, unknown type, bad event): %v", len(errs), errs)
	}
	if !errors.Is(errs[2], errUnknownLine) {
		t.Errorf("error for an unknown type = %v, want errUnknownLine", errs[2])
	}
}

func TestReadLinesTakesLongLinesAndDropsOversizedOnes(t *testing.T) {
	big := strings.Repeat("x", 10<<20) // a 10 MiB tool result
	input := "a\n" + big + "\n" + strings.Repeat("y", 300) + "\nlast-without-newline"
	var got []string
	var dropped []int
	err := readLines(strings.NewReader(input), 200, func(b []byte) bool {
		got = append(got, string(b))
		return true
	}, func(n int, _ []byte) { dropped = append(dropped, n) })
	if err == nil {
		t.Fatal("readLines returned nil, want io.EOF at the end")
	}
	if want := []string{"a", "last-without-newline"}; !reflect.DeepEqual(got, want) {
		t.Errorf("with a 200-byte limit lines = %.40q, want %q", got, want)
	}
	if want := []int{10<<20 + 1, 301}; !reflect.DeepEqual(dropped, want) {
		t.Errorf("dropped = %v, want %v", dropped, want)
	}

	got = nil
	readLines(strings.NewReader(input), maxLine, func(b []byte) bool {
		got = append(got, string(b))
		return true
	}, func(n int, _ []byte) { t.Errorf("dropped a line of %d bytes under the default limit", n) })
	if len(got) != 4 || got[1] != big {
		t.Errorf("default limit: got %d lines, the second %d bytes; want 4 lines, the second %d bytes", len(got), len(got[1]), len(big))
	}
}

func TestA10MiBToolResultParses(t *testing.T) {
	content := strings.Repeat("line of a big file\n", (10<<20)/19)
	b, _ := json.Marshal(content)
	line := `{"type":"user","message":{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","content":` + string(b) + `}]}}` + "\n"
	var got []Event
	p := newParser(func(e Event) { got = append(got, e) })
	err := readLines(bytes.NewReader([]byte(line)), maxLine, func(l []byte) bool {
		if err := p.parse(l); err != nil {
			t.Error(err)
		}
		return true
	}, func(n int, _ []byte) { t.Errorf("dropped %d bytes", n) })
	if err == nil {
		t.Error("want io.EOF")
	}
	if len(got) != 1 || got[0].(ToolResult).Content != content {
		t.Errorf("got %d events; want one ToolResult with the %d bytes", len(got), len(content))
	}
}

func TestSummaries(t *testing.T) {
	tests := []struct{ tool, input, want string }{
		{"Read", `{"file_path":"/w/src/a.go"}`, "src/a.go"},
		{"Read", `{"file_path":"/elsewhere/a.go"}`, "/elsewhere/a.go"},
		{"Edit", `{"file_path":"/w/f.txt","old_string":"a","new_string":"b"}`, "f.txt"},
		{"Bash", `{"command":"go test ./...","description":"run tests"}`, "go test ./..."},
		{"Grep", `{"pattern":"func main","path":"/w/cmd"}`, "func main in cmd"},
		{"WebFetch", `{"url":"https://example.com","prompt":"x"}`, "https://example.com"},
		{"mcp__ide__getDiagnostics", `{"uri":"file:///w/a.go"}`, ""},
		{"Bash", `{"command":"` + strings.Repeat("a", 200) + `"}`, strings.Repeat("a", summaryMax) + "…"},
		{"Read", `not json`, ""},
	}
	for _, tt := range tests {
		if got := summarize(tt.tool, json.RawMessage(tt.input), "/w"); got != tt.want {
			t.Errorf("summarize(%s, %s) = %q, want %q", tt.tool, tt.input, got, tt.want)
		}
	}
}
