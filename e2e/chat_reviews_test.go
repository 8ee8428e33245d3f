package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

// The chat's reviews of a message with several edits say where each stands, "2 of 3", as the
// terminal's do (issue 36): the chat follows the message's tool uses (chatctl/editbatch.go).
func TestTheChatsReviewsOfThreeEditsSayWhichOfThreeEachIs(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	t.Cleanup(s.logTranscript)
	var paths []string
	var reads, edits []fakeapi.ToolUse
	for _, name := range []string{"a", "b", "c"} {
		path := s.writeFile(name+".txt", fmt.Sprintf("%[1]s1\n%[1]s2\n%[1]s3\n", name))
		paths = append(paths, path)
		reads = append(reads, fakeapi.ToolUse{Name: "Read", Input: map[string]any{"file_path": path}})
		edits = append(edits, fakeapi.ToolUse{Name: "Edit", Input: map[string]any{
			"file_path": path, "old_string": name + "2", "new_string": strings.ToUpper(name) + "2"}})
	}
	s.api.Push(fakeapi.Turn{Tools: reads}, fakeapi.Turn{Tools: edits}, fakeapi.Say("All three are louder."))
	s.openChat()
	s.nv.Keys("iMake the second line of each file louder<Esc><CR>")
	for i, path := range paths {
		s.nextDiffOpened(path)
		s.nv.Cmd("Claude review focus")
		// The CLI may ask about the message's first edit before it has sent the message's
		// later tool uses (it streams them block by block): then the first review shows no
		// count. The later ones always have it.
		s.checkReviewCount(i, path, "the later edits were not sent yet")
		s.nv.Cmd("Claude review accept")
		s.nextDiffClosed("accepted")
	}
	s.waitChat("All three are louder.")
	s.assertSecondLinesLouder(paths)
}
