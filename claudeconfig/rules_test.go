package claudeconfig

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestWithoutRuleTakesOutOneEntryAndLeavesEveryOtherByte(t *testing.T) {
	const file = "{\n  \"permissions\": {\n    \"allow\": [\n      \"Bash(npm run *)\",\n      \"Read(./docs/**)\",\n      \"Bash(npm run *)\"\n    ],\n    \"deny\": [\"Bash(rm -rf:*)\"]\n  },\n  \"model\": 1.50\n}\n"
	tests := []struct {
		name, behavior, rule, want string
	}{
		{"the first of a list", "allow", "Bash(npm run *)", "{\n  \"permissions\": {\n    \"allow\": [\n      \"Read(./docs/**)\",\n      \"Bash(npm run *)\"\n    ],\n    \"deny\": [\"Bash(rm -rf:*)\"]\n  },\n  \"model\": 1.50\n}\n"},
		{"the last of a list", "allow", "Read(./docs/**)", "{\n  \"permissions\": {\n    \"allow\": [\n      \"Bash(npm run *)\",\n      \"Bash(npm run *)\"\n    ],\n    \"deny\": [\"Bash(rm -rf:*)\"]\n  },\n  \"model\": 1.50\n}\n"},
		{"the only one", "deny", "Bash(rm -rf:*)", "{\n  \"permissions\": {\n    \"allow\": [\n      \"Bash(npm run *)\",\n      \"Read(./docs/**)\",\n      \"Bash(npm run *)\"\n    ],\n    \"deny\": []\n  },\n  \"model\": 1.50\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := withoutRule([]byte(file), tt.behavior, tt.rule)
			if err != nil || string(got) != tt.want {
				t.Errorf("withoutRule(%s, %s) = %q, %v\nwant %q", tt.behavior, tt.rule, got, err, tt.want)
			}
		})
	}
	for _, bad := range []struct{ file, behavior, rule string }{
		{file, "ask", "Bash(npm run *)"},
		{file, "allow", "Bash(npm run:*)"},
		{`{"permissions": "allow"}`, "allow", "x"},
		{`{"permissions": {"allow": [`, "allow", "x"},
	} {
		if got, err := withoutRule([]byte(bad.file), bad.behavior, bad.rule); err == nil {
			t.Errorf("withoutRule(%q, %s, %s) = %q, want an error", bad.file, bad.behavior, bad.rule, got)
		}
	}
}

func TestRemoveRuleRefusesAWorkspaceFileThatIsALink(t *testing.T) {
	root := t.TempDir()
	outside := filepath.Join(root, "outside.json")
	if err := os.WriteFile(outside, []byte(`{"permissions":{"allow":["Bash"]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(root, "ws", ".claude")
	os.MkdirAll(ws, 0o700)
	link := filepath.Join(ws, "settings.local.json")
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	if err := RemoveRule(link, filepath.Join(root, "ws"), "allow", "Bash"); !errors.Is(err, ErrLink) {
		t.Errorf("RemoveRule through a link = %v, want ErrLink", err)
	}
	if b, _ := os.ReadFile(outside); string(b) != `{"permissions":{"allow":["Bash"]}}` {
		t.Errorf("the file the link leads to became %q", b)
	}
}
