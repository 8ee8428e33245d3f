package plugintest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// Words retired by :Claude {sub} (issue 43): the old command names (only
// :help claude-commands-old and README's one sentence about them may say
// them; :ClaudeChat stays a command) and "pending diffs" (a proposed edit
// is under review).
var retired = []*regexp.Regexp{
	regexp.MustCompile(`(?::|<Cmd>)Claude(?:Open|Toggle|Focus|Close|Sessions|Send|SendText|Ask|Add|Dictate|Start|Stop|Status|Remote|Diff[A-Z]\w*|Changes|Log|Model|Chat[A-Z]\w*)\b`),
	regexp.MustCompile(`(?i)\bpending diffs?\b`),
}

// A user-facing string uses no retired word: the Lua (messages, :checkhealth, the
// statusline), the Go host's messages, :help and README.
func TestNoUserFacingStringUsesARetiredWord(t *testing.T) {
	check := func(path string, n int, line string) {
		for _, re := range retired {
			if m := re.FindString(line); m != "" {
				t.Errorf("%s:%d says %q, a retired word: %s", path, n, m, strings.TrimSpace(line))
			}
		}
	}
	for _, dir := range []string{"lua", "plugin"} {
		sourceLines(t, dir, ".lua", func(path string, n int, line string) {
			// The aliases' definitions name the old commands, as strings without a colon.
			check(path, n, line)
		})
	}
	// The Go messages: string literals only (comments may tell history).
	for _, dir := range []string{"host", "chatctl", "changes", "ledger", "acpchat", "chat", "mcp", "nvimapi", "relay", "workspace", "hooks"} {
		if _, err := os.Stat(filepath.Join(nvimtest.RepoRoot(), dir)); err != nil {
			continue
		}
		sourceLines(t, dir, ".go", func(path string, n int, line string) {
			if code, _, _ := strings.Cut(line, "//"); strings.Contains(code, `"`) {
				check(path, n, code)
			}
		})
	}
	for _, doc := range []struct{ file, keepFrom, keepTo string }{
		{"doc/claude.txt", "*claude-commands-old*", "\n====="},
		{"README.md", "The names from before", "still work"},
	} {
		text := readRepoFile(t, doc.file)
		if i := strings.Index(text, doc.keepFrom); i >= 0 {
			if j := strings.Index(text[i:], doc.keepTo); j >= 0 {
				text = text[:i] + strings.Repeat("\n", strings.Count(text[i:i+j], "\n")) + text[i+j:]
			}
		} else {
			t.Errorf("%s no longer has %q; the test lost the part that may name the old commands", doc.file, doc.keepFrom)
		}
		for i, line := range strings.Split(text, "\n") {
			check(doc.file, i+1, line)
		}
	}
}
