package doc

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The chat is a first-class way in (issue 39, item 8): README's first screen (what comes
// before its contents) shows it beside the terminal, and neither the README, the help, the
// health check nor a Lua message calls it a preview.
func TestTheChatIsAFirstClassWayInAndNoPreview(t *testing.T) {
	root := nvimtest.RepoRoot()
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	first, _, ok := strings.Cut(string(readme), "\n## Contents")
	if !ok {
		t.Fatal("README.md has no ## Contents")
	}
	for _, want := range []string{"`:Claude open`", "`:ClaudeChat`", "> What does greet.txt say?"} {
		if !strings.Contains(first, want) {
			t.Errorf("README's first screen lacks %s: the chat is to be shown beside the terminal", want)
		}
	}
	// "preview" of the chat itself; a conversation's preview in the history list is another thing.
	chatPreview := regexp.MustCompile(`(?i)chat[^\n]{0,20}\(preview|\bchat-preview\b|:ClaudeChat[^\n]{0,30}\bpreview\b|^\s*Preview\.|native chat \(:ClaudeChat, preview\)`)
	files := []string{"README.md", "doc/claude.txt", "lua/claude/health.lua"}
	lua, _ := filepath.Glob(filepath.Join(root, "lua", "claude", "chat", "*.lua"))
	for _, f := range lua {
		rel, _ := filepath.Rel(root, f)
		files = append(files, rel)
	}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if chatPreview.MatchString(line) {
				t.Errorf("%s:%d still calls the chat a preview: %q", f, i+1, strings.TrimSpace(line))
			}
		}
	}
}
