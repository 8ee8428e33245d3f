package chat

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestListConversations(t *testing.T) {
	config := t.TempDir()
	const dir = "/home/u/my_proj.v2"
	pd := ProjectDir(config, dir)
	if want := filepath.Join(config, "projects", "-home-u-my-proj-v2"); pd != want {
		t.Fatalf("ProjectDir = %s, want %s", pd, want)
	}
	if got, err := ListConversations(config, dir); err != nil || len(got) != 0 {
		t.Fatalf("without a projects dir: %v, %v; want nothing and no error", got, err)
	}
	if err := os.MkdirAll(filepath.Join(pd, "old", "subagents"), 0o700); err != nil {
		t.Fatal(err)
	}
	write := func(name, body string, mod time.Time) {
		t.Helper()
		p := filepath.Join(pd, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, mod, mod)
	}
	now := time.Now().Truncate(time.Second)
	write("old.jsonl", `{"type":"queue-operation","operation":"enqueue"}
{"type":"user","isMeta":true,"message":{"role":"user","content":"<local-command-caveat>x</local-command-caveat>"}}
{"type":"user","message":{"role":"user","content":"<command-name>/model</command-name>"}}
not json
{"type":"user","message":{"role":"user","content":[{"type":"text","text":"fix the build\nplease"}]},"timestamp":"2026-11-22T21:56:50.297Z","cwd":"/home/u/my_proj.v2","gitBranch":"main"}
`, now.Add(-time.Hour))
	write("new.jsonl", `{"type":"user","message":{"role":"user","content":"add a test"},"timestamp":"2026-11-23T08:00:00Z","gitBranch":"feature"}
`, now)
	write("empty.jsonl", `{"type":"queue-operation","operation":"enqueue"}
`, now.Add(time.Hour))
	write("notes.txt", "not a session", now)

	got, err := ListConversations(config, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("ListConversations = %+v, want new and old (not the one without a prompt)", got)
	}
	if got[0].ID != "new" || got[0].FirstPrompt != "add a test" || got[0].GitBranch != "feature" || !got[0].Modified.Equal(now) {
		t.Errorf("first = %+v, want the newest, new", got[0])
	}
	wantStart, _ := time.Parse(time.RFC3339, "2026-11-22T21:56:50.297Z")
	if o := got[1]; o.ID != "old" || o.FirstPrompt != "fix the build…" || o.GitBranch != "main" || o.CWD != dir || !o.Started.Equal(wantStart) {
		t.Errorf("second = %+v, want old with its first real prompt", o)
	}
}

func TestConfigDir(t *testing.T) {
	if got := ConfigDir([]string{"HOME=/h", "CLAUDE_CONFIG_DIR=/c"}); got != "/c" {
		t.Errorf("with CLAUDE_CONFIG_DIR: %s", got)
	}
	if got := ConfigDir([]string{"HOME=/h", "CLAUDE_CONFIG_DIR="}); got != "/h/.claude" {
		t.Errorf("without: %s", got)
	}
}
