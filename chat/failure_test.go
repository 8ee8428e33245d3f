package chat

import (
	"reflect"
	"testing"
)

// The lines below are the real CLIs' (2.1.332 unless said), trimmed to the fields read.

func TestAFailedTurnSaysWhatFailed(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  string // TurnEnd.ErrorText
	}{
		{
			name: "a 500 after the retries gives the status and the CLI's message, not the subtype",
			lines: []string{
				`{"type":"assistant","message":{"id":"6821f76e","model":"<synthetic>","role":"assistant","content":[{"type":"text","text":"API Error: 500 Internal server error. Try again."}]},"parent_tool_use_id":null,"error":"server_error","is_api_error_message":true,"api_error_status":500,"api_error_type":"api_error"}`,
				`{"type":"result","subtype":"success","is_error":true,"api_error_status":500,"api_error_type":"api_error","terminal_reason":"api_error","result":"API Error: 500 Internal server error. Try again.","num_turns":1}`,
			},
			want: "API error 500 (api_error): Internal server error. Try again.",
		},
		{
			name: "a 400 of 2.1.197 (no is_api_error_message, no api_error_type) gives the status and message",
			lines: []string{
				`{"type":"assistant","message":{"id":"43a2bf76","model":"<synthetic>","role":"assistant","content":[{"type":"text","text":"API Error: 400 messages.0.content: bad"}]},"parent_tool_use_id":null,"error":"invalid_request"}`,
				`{"type":"result","subtype":"success","is_error":true,"api_error_status":400,"terminal_reason":"completed","result":"API Error: 400 messages.0.content: bad"}`,
			},
			want: "API error 400: messages.0.content: bad",
		},
		{
			name: "a 401 keeps the CLI's own words after the status",
			lines: []string{
				`{"type":"result","subtype":"success","is_error":true,"api_error_status":401,"api_error_type":"authentication_error","terminal_reason":"api_error","result":"Invalid API key · Fix external API key"}`,
			},
			want: "API error 401 (authentication_error): Invalid API key · Fix external API key",
		},
		{
			name: "a 429 after its retry-after",
			lines: []string{
				`{"type":"result","subtype":"success","is_error":true,"api_error_status":429,"api_error_type":"rate_limit_error","terminal_reason":"api_error","result":"API Error: Request rejected (429) · Number of request tokens has exceeded your per-minute rate limit"}`,
			},
			want: "API error 429 (rate_limit_error): Request rejected (429) · Number of request tokens has exceeded your per-minute rate limit",
		},
		{
			name: "an interrupt's diagnostics line is no error for the user",
			lines: []string{
				`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"[Request interrupted by user]"}]},"parent_tool_use_id":null}`,
				`{"type":"result","subtype":"error_during_execution","is_error":true,"terminal_reason":"aborted_streaming","errors":["[ede_diagnostic] result_type=user last_content_type=n/a stop_reason=null"]}`,
			},
			want: "",
		},
		{
			name: "an error result without a message names its subtype",
			lines: []string{
				`{"type":"result","subtype":"error_max_turns","is_error":true,"terminal_reason":"max_turns","errors":["[ede_diagnostic] result_type=assistant last_content_type=tool_use stop_reason=tool_use"]}`,
			},
			want: "the turn failed (error_max_turns)",
		},
		{
			name: "an error result's own errors are kept, its diagnostics dropped",
			lines: []string{
				`{"type":"result","subtype":"error_during_execution","is_error":true,"errors":["[session_crash] x","Tool failed badly"]}`,
			},
			want: "Tool failed badly",
		},
		{
			name:  "a successful turn has no error text",
			lines: []string{`{"type":"result","subtype":"success","is_error":false,"api_error_status":null,"result":"Hi."}`},
			want:  "",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			evs, errs := collect(t, tt.lines...)
			if len(errs) > 0 {
				t.Fatalf("skipped lines: %v", errs)
			}
			var end *TurnEnd
			for _, e := range evs {
				switch e := e.(type) {
				case TurnEnd:
					end = &e
				case TextDelta:
					t.Errorf("the CLI's error message became the model's text %q", e.Text)
				}
			}
			if end == nil {
				t.Fatalf("no TurnEnd among %#v", evs)
			}
			if got := end.ErrorText(); got != tt.want {
				t.Errorf("ErrorText() = %q, want %q", got, tt.want)
			}
			for _, e := range end.Errors {
				if isDiagnostic(e) {
					t.Errorf("Errors keeps the diagnostics line %q", e)
				}
			}
		})
	}
}

func TestTheInterruptDiagnosticsLineGoesToDiagnostics(t *testing.T) {
	const diag = "[ede_diagnostic] result_type=user last_content_type=n/a stop_reason=null"
	evs, _ := collect(t, `{"type":"result","subtype":"error_during_execution","is_error":true,"terminal_reason":"aborted_streaming","errors":["`+diag+`"]}`)
	end := evs[0].(TurnEnd)
	if !end.Interrupted || len(end.Errors) != 0 || !reflect.DeepEqual(end.Diagnostics, []string{diag}) {
		t.Errorf("got Interrupted %v, Errors %q, Diagnostics %q; want true, none, [%q]", end.Interrupted, end.Errors, end.Diagnostics, diag)
	}
}

func TestCommandLifecycleLinesBecomeMessageStates(t *testing.T) {
	const id = "22222222-2222-4222-8222-222222222222"
	evs, errs := collect(t,
		`{"type":"command_lifecycle","command_uuid":"`+id+`","state":"queued","uuid":"u1","session_id":"s"}`,
		`{"type":"command_lifecycle","command_uuid":"`+id+`","state":"started","uuid":"u2","session_id":"s"}`,
		`{"type":"command_lifecycle","command_uuid":"`+id+`","state":"completed","uuid":"u3","session_id":"s"}`,
	)
	want := []Event{MessageState{id, "queued"}, MessageState{id, "started"}, MessageState{id, "completed"}}
	if len(errs) > 0 || !reflect.DeepEqual(evs, want) {
		t.Errorf("got %#v (skipped: %v), want %#v", evs, errs, want)
	}
}
