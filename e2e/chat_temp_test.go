package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/chat"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The CLI leaves empty scratch directories for each conversation under $TMPDIR/claude-<uid>
// (issue 22 item 8); the plugin removes those of its chats when the chat's CLI ends and when
// the host exits.

// cliTemp is the CLI's scratch directory of this test's workspace, and what is in it. Only
// the workspace's: the CLI also makes passing ones of its own there (fswatch-probe-*, with a
// file inside; one was left by a CLI that exited with the host).
func (s *session) cliTemp() (string, []string) {
	var tmp string
	for _, kv := range s.env.Vars() {
		if v, ok := strings.CutPrefix(kv, "TMPDIR="); ok {
			tmp = v
		}
	}
	root := filepath.Join(tmp, fmt.Sprintf("claude-%d", os.Getuid()), filepath.Base(chat.ProjectDir("", s.env.Project)))
	var found []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && p != root {
			found = append(found, strings.TrimPrefix(p, root+"/"))
		}
		return nil
	})
	return root, found
}

func TestTheCLIsEmptyScratchDirectoriesGoWhenTheChatEndsAndWhenTheHostExits(t *testing.T) {
	t.Parallel()
	// A Bash command is what makes the CLI create them ("echo" runs without asking).
	echo := fakeapi.Use("Bash", map[string]any{"command": "echo hi", "description": "Say hi"})
	s := newSession(t, echo, fakeapi.Say("First."), echo, fakeapi.Say("Second."))
	t.Cleanup(s.logTranscript)
	s.openChat()
	s.chatSend("hello")
	s.waitChat("First.")
	// The turn's end (its footer line), not only its text: a stop before it interrupts the
	// turn and the CLI exits 1 (seen under load).
	nvimtest.Wait(t, "the turn's end", turnTimeout, func() bool { return strings.Contains(s.chatTranscript(), "\n─── ") })
	root, during := s.cliTemp()
	if len(during) == 0 {
		t.Fatalf("the CLI made nothing under %s: nothing to check", root)
	}
	t.Logf("while the chat runs: %q", during)
	s.nv.Cmd("ClaudeChatStop")
	s.waitChat("_Claude exited (code 0)._")
	nvimtest.Wait(t, "the scratch directories to go after :Claude chat end", turnTimeout, func() bool {
		_, left := s.cliTemp()
		return len(left) == 0
	})

	s.chatSend("again")
	s.waitChat("Second.")
	if _, again := s.cliTemp(); len(again) == 0 {
		t.Fatalf("the second CLI made nothing under %s", root)
	}
	s.restartNvim() // the host exits with Neovim, its CLI with it
	if _, left := s.cliTemp(); len(left) != 0 {
		t.Errorf("after the host exited, %q is left under %s", left, root)
	}
}
