package fakeapi

import (
	"encoding/json"
	"testing"
)

func TestCompactionRequestsAreToldFromTheUsersPrompts(t *testing.T) {
	const ask = "CRITICAL: Respond with TEXT ONLY. Do NOT call any tools.\n\n" + compactAsk + ", paying close attention …"
	tests := []struct {
		name     string
		messages string
		want     bool
	}{
		{"2.1.332: the last user message is the request", `[{"role":"user","content":"hi"},{"role":"assistant","content":"one"},{"role":"user","content":` + quote(ask) + `}]`, true},
		{"2.1.197: the request is the last block after the prompt", `[{"role":"user","content":[{"type":"text","text":"two"},{"type":"text","text":` + quote(ask) + `}]}]`, true},
		{"a system message after the request", `[{"role":"user","content":` + quote(ask) + `},{"role":"system","content":[]}]`, true},
		{"a prompt that quotes the request", `[{"role":"user","content":` + quote("Why does the CLI say "+ask) + `}]`, false},
		{"an answer after the request", `[{"role":"user","content":` + quote(ask) + `},{"role":"assistant","content":"x"}]`, false},
		{"no messages", `[]`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var m MessagesBody
			if err := json.Unmarshal([]byte(`{"messages":`+tt.messages+`}`), &m); err != nil {
				t.Fatal(err)
			}
			if got := isCompaction(&m); got != tt.want {
				t.Errorf("isCompaction(%s) = %v, want %v", tt.messages, got, tt.want)
			}
		})
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
