package chat

import (
	"encoding/json"
	"testing"
)

func TestWithAnswers(t *testing.T) {
	const input = `{"questions":[{"question":"Which colour?","header":"Colour","multiSelect":false,"options":[{"label":"Red","description":""},{"label":"Blue","description":""}]},` +
		`{"question":"Which fruits?","header":"Fruit","multiSelect":true,"options":[{"label":"Apple","description":""},{"label":"Fig","description":""}]}]}`
	tests := []struct {
		name    string
		answers map[string]string
		ok      bool
	}{
		{"every question answered is sent with the input", map[string]string{"Which colour?": "Red", "Which fruits?": "Apple, Fig"}, true},
		{"an answer of the user's own is sent as typed", map[string]string{"Which colour?": "green", "Which fruits?": "Fig"}, true},
		{"a question left unanswered is refused", map[string]string{"Which colour?": "Red"}, false},
		{"an answer to a question not asked is refused", map[string]string{"Which colour?": "Red", "Which fruits?": "Fig", "Why?": "because"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := withAnswers(json.RawMessage(input), tt.answers)
			if !tt.ok {
				if err == nil {
					t.Errorf("withAnswers(%v) = %s, want an error", tt.answers, got)
				}
				return
			}
			var out struct {
				Questions []Question        `json:"questions"`
				Answers   map[string]string `json:"answers"`
			}
			if err != nil || json.Unmarshal(got, &out) != nil || len(out.Questions) != 2 || len(out.Answers) != len(tt.answers) {
				t.Fatalf("withAnswers(%v) = %s, %v; want the questions and the answers", tt.answers, got, err)
			}
			for q, a := range tt.answers {
				if out.Answers[q] != a {
					t.Errorf("answer to %q = %q, want %q", q, out.Answers[q], a)
				}
			}
		})
	}
}
