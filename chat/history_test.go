package chat

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestHistoryReadsAStoredConversationForTheTranscript(t *testing.T) {
	lines := []string{
		`{"type":"summary","summary":"Greeting"}`,
		`{"type":"user","isMeta":true,"message":{"role":"user","content":"<local-command-caveat>ignore</local-command-caveat>"}}`,
		`{"type":"user","message":{"role":"user","content":"<command-name>/model</command-name>"}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"text","text":"What does greet.txt say?"}]}}`,
		`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"thinking","thinking":"Read it first."}]}}`,
		`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/p/greet.txt"}}]}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"1\thello"}]}}`,
		`{"type":"assistant","isSidechain":true,"message":{"id":"m9","role":"assistant","content":[{"type":"text","text":"a subagent"}]}}`,
		`{"type":"assistant","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"It says hello."}]}}`,
		`not json`,
		`{"type":"last-prompt","lastPrompt":"What does greet.txt say?"}`,
	}
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		max  int
		want string
	}{
		{"all of it", 0, "user:What does greet.txt say? | thinking:Read it first. | end | tool:Read | result:1\thello | text:It says hello. | end"},
		{"the last events only", 2, "text:It says hello. | end"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evs, err := History(path, tc.max)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range evs {
				switch e := e.(type) {
				case UserText:
					got = append(got, "user:"+e.Text)
				case ThinkingDelta:
					got = append(got, "thinking:"+e.Text)
				case TextDelta:
					got = append(got, "text:"+e.Text)
				case BlockEnd:
					got = append(got, "end")
				case ToolUse:
					got = append(got, "tool:"+e.Name)
				case ToolResult:
					got = append(got, "result:"+e.Content)
				default:
					got = append(got, "?")
				}
			}
			if g := strings.Join(got, " | "); g != tc.want {
				t.Errorf("History(max %d) =\n%s\nwant\n%s", tc.max, g, tc.want)
			}
		})
	}
}

// A resumed conversation's prompts are rewound by the uuids their lines were stored under:
// each UserText carries its own line's, and none another's.
func TestHistoryGivesEachPromptTheUUIDOfItsStoredLine(t *testing.T) {
	lines := []string{
		`{"type":"user","uuid":"u-cmd","message":{"role":"user","content":"<command-name>/model</command-name>"}}`,
		`{"type":"user","uuid":"u-first","message":{"role":"user","content":"First: edit a.txt"}}`,
		`{"type":"assistant","uuid":"a-1","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Edit","input":{}}]}}`,
		`{"type":"user","uuid":"u-result","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}}`,
		`{"type":"assistant","uuid":"a-2","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"Done."}]}}`,
		`{"type":"user","uuid":"u-second","message":{"role":"user","content":[{"type":"text","text":"Second: again"}]}}`,
		`{"type":"user","message":{"role":"user","content":"Third: a line without a uuid"}}`,
	}
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	evs, err := History(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range evs {
		if u, ok := e.(UserText); ok {
			got = append(got, u.Text+"="+u.UUID)
		}
	}
	want := "First: edit a.txt=u-first | Second: again=u-second | Third: a line without a uuid="
	if g := strings.Join(got, " | "); g != want {
		t.Errorf("History's prompts =\n%s\nwant\n%s", g, want)
	}
}
