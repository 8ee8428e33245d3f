package chat

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// storedTools is a conversation as 2.1.332 stores it (lines trimmed to the fields read): a
// Bash command allowed once, another denied with the user's reason, subagent and bookkeeping
// lines between.
const storedTools = `{"type":"queue-operation","operation":"enqueue","sessionId":"s1"}
{"type":"user","message":{"role":"user","content":[{"type":"text","text":"Create a.txt"}]},"gitBranch":"main"}
{"type":"attachment","attachment":{"type":"date","date":"2026-11-26"}}
{"type":"api-request","params":{"model":"m","note":"a MANGO in the CLI's bookkeeping is not the conversation"}}
{"type":"assistant","message":{"id":"msg1","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"touch a.txt"}}]}}
{"type":"user","message":{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","content":"(Bash completed with no output)","is_error":false}]},"permissionDecision":{"decision":"accept","source":"user_temporary","grantScope":"once"}}
{"type":"assistant","message":{"id":"msg2","content":[{"type":"text","text":"Made it."}]}}
{"type":"assistant","isSidechain":true,"message":{"id":"sub1","content":[{"type":"text","text":"a subagent's Papaya"}]}}
{"type":"user","message":{"role":"user","content":[{"type":"text","text":"Create b.txt"}]}}
{"type":"assistant","message":{"id":"msg3","content":[{"type":"thinking","thinking":"hm"}]}}
{"type":"assistant","message":{"id":"msg3","content":[{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"touch b.txt"}}]}}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"not b, please","is_error":true,"tool_use_id":"t2"}]},"holdsPersonsWords":true,"permissionDecision":{"decision":"reject","source":"user_reject"}}
{"type":"assistant","message":{"id":"msg4","content":[{"type":"text","text":"Did not."}]}}
{"type":"last-prompt","lastPrompt":"Create b.txt","sessionId":"s1"}
`

func writeStored(t *testing.T, config, dir, id, body string) string {
	t.Helper()
	pd := ProjectDir(config, dir)
	if err := os.MkdirAll(pd, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(pd, id+".jsonl")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestScanCountsMessagesAndSearchesTheConversationsText(t *testing.T) {
	path := writeStored(t, t.TempDir(), "/p", "s1", storedTools)
	for _, tc := range []struct {
		query string
		found bool
	}{
		{"", true},
		{"made IT", true},       // an answer, any case
		{"create b.TXT", true},  // a prompt
		{"touch b.txt", true},   // a tool call's input
		{"not b, please", true}, // a denial's reason (the tool result)
		{"mango", false},        // only in the CLI's bookkeeping
		{"papaya", false},       // only in a subagent's line
		{"kiwi", false},
	} {
		t.Run(tc.query, func(t *testing.T) {
			d, err := Scan(path, tc.query)
			if err != nil {
				t.Fatal(err)
			}
			if d.Found != tc.found {
				t.Errorf("Scan(%q).Found = %v, want %v", tc.query, d.Found, tc.found)
			}
			if d.Messages != 6 || d.Title != "" {
				t.Errorf("Scan(%q) = %+v, want 6 messages (2 prompts, 4 API messages: msg3's two lines are one) and no title", tc.query, d)
			}
		})
	}
}

func TestRenameAppendsTheCLIsTitleLineAndTheLastOneWins(t *testing.T) {
	config := t.TempDir()
	// A file whose last line was cut (a CLI killed mid-write): the title starts a line.
	path := writeStored(t, config, "/p", "s1", strings.TrimSuffix(storedTools, "\n"))
	for _, title := range []string{"first name", "  Files made and refused  "} {
		if err := Rename(config, "/p", "s1", title); err != nil {
			t.Fatalf("Rename(%q): %v", title, err)
		}
	}
	d, err := Scan(path, "files MADE")
	if err != nil {
		t.Fatal(err)
	}
	if d.Title != "Files made and refused" || !d.Found {
		t.Errorf("after two renames Scan = %+v, want the last title, found by a search", d)
	}
	raw, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	if got, want := lines[len(lines)-1], `{"type":"custom-title","customTitle":"Files made and refused","sessionId":"s1"}`; got != want {
		t.Errorf("the last line is %s, want %s", got, want)
	}
	if got := lines[len(lines)-3]; !strings.HasPrefix(got, `{"type":"last-prompt"`) {
		t.Errorf("the cut last line was joined by the title: %s", got)
	}
	for _, bad := range []string{"", "  ", "two\nlines"} {
		if err := Rename(config, "/p", "s1", bad); err == nil {
			t.Errorf("Rename(%q) succeeded, want an error", bad)
		}
	}
}

func TestRenameAndDeleteRefuseWhatIsNotAStoredConversation(t *testing.T) {
	config := t.TempDir()
	writeStored(t, config, "/p", "s1", storedTools)
	outside := filepath.Join(config, "projects", "secret.jsonl")
	os.WriteFile(outside, []byte("{}\n"), 0o600)
	for _, id := range []string{"../secret", "missing", "", "s1/../s1", "-p"} {
		if err := Rename(config, "/p", id, "t"); !errors.Is(err, ErrNoConversation) {
			t.Errorf("Rename(%q) = %v, want ErrNoConversation", id, err)
		}
		if err := Delete(config, "/p", id); !errors.Is(err, ErrNoConversation) {
			t.Errorf("Delete(%q) = %v, want ErrNoConversation", id, err)
		}
	}
	if _, err := os.Stat(outside); err != nil {
		t.Errorf("a file outside the workspace's conversations went: %v", err)
	}
}

func TestDeleteRemovesTheFileAndTheDirectoryBesideIt(t *testing.T) {
	config := t.TempDir()
	path := writeStored(t, config, "/p", "s1", storedTools)
	keep := writeStored(t, config, "/p", "s2", storedTools)
	side := strings.TrimSuffix(path, ".jsonl")
	os.MkdirAll(filepath.Join(side, "subagents"), 0o700)
	os.WriteFile(filepath.Join(side, "subagents", "agent-1.jsonl"), []byte("{}\n"), 0o600)
	if err := Delete(config, "/p", "s1"); err != nil {
		t.Fatal(err)
	}
	for _, gone := range []string{path, side} {
		if _, err := os.Stat(gone); err == nil {
			t.Errorf("after Delete, %s is still there", gone)
		}
	}
	if _, err := os.Stat(keep); err != nil {
		t.Errorf("Delete of s1 removed s2: %v", err)
	}
}

func TestHistoryShowsTheUsersPermissionAnswersBeforeTheResults(t *testing.T) {
	path := writeStored(t, t.TempDir(), "/p", "s1", storedTools)
	evs, err := History(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, ev := range evs {
		switch e := ev.(type) {
		case PermissionAnswer:
			got = append(got, "answer "+e.ToolUseID+" "+map[bool]string{true: "allowed", false: "denied"}[e.Allowed]+" "+e.Scope+e.Reason)
		case ToolResult:
			got = append(got, "result "+e.ID)
		}
	}
	want := []string{"answer t1 allowed once", "result t1", "answer t2 denied not b, please", "result t2"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("History's answers and results = %q, want %q", got, want)
	}
}
