package e2e

import (
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

// :Claude ask types "@file#Lx-y question" into Claude's input and submits it: the model gets
// the question and the lines.
func TestClaudeAskSubmitsTheLinesWithTheQuestion(t *testing.T) {
	for _, tt := range []struct {
		name    string
		running bool
	}{
		{"to a running Claude", true},
		{"starting Claude first", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newSession(t, fakeapi.Say("Lines two and three count up."))
			path := s.writeFile("greet.txt", original)
			s.edit(path)
			if tt.running {
				s.open()
			}
			s.nv.Cmd("2,3ClaudeAsk what do these do?")
			if !tt.running {
				s.readPIDs(":Claude ask")
			}
			got := s.mainRequest(1).LastUserText()
			if !strings.Contains(got, "@greet.txt#L2-3 what do these do?") {
				t.Errorf("the model request lacks the question; its new user text:\n%s", tail(got))
			}
			assertMentionedLines(t, got, path)
			s.waitText("Lines two and three count up.", turnTimeout)
		})
	}
}
