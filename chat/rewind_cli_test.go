package chat

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

// rewindRun runs two turns that edit f.txt in acceptEdits mode, with file checkpointing as
// checkpoints says ("" leaves it off), and returns the file's path.
func rewindRun(t *testing.T, checkpoints string) (*cliRun, string) {
	r := newCLIRun(t)
	path := filepath.Join(r.env.Project, "f.txt")
	if err := os.WriteFile(path, []byte("one\ntwo\nthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.api.Push(fakeapi.Read(path), fakeapi.Edit(path, "two", "TWO"), fakeapi.Say("first done"),
		fakeapi.Edit(path, "three", "THREE\nfour"), fakeapi.Say("second done"), fakeapi.Say("third"))
	if checkpoints != "" {
		r.env.Set(FileCheckpointing, checkpoints)
	}
	s := r.start(Options{PermissionMode: "acceptEdits"})
	for _, id := range []string{firstID, secondID} {
		if err := s.SendAs(r.ctx, id, "prompt "+id); err != nil {
			t.Fatal(err)
		}
		r.turnEnd()
	}
	return r, path
}

const (
	firstID  = "11111111-1111-4111-8111-111111111111"
	secondID = "22222222-2222-4222-8222-222222222222"
)

func TestCLIRewindsTheFilesToAMessageAfterADryRun(t *testing.T) {
	r, path := rewindRun(t, "true")
	dry, err := r.s.RewindFiles(r.ctx, firstID, true)
	if err != nil || len(dry.Files) != 1 || dry.Files[0] != path || dry.Insertions != 2 || dry.Deletions != 3 {
		t.Errorf("dry run to the first message = %+v, %v; want [%s], +2 -3", dry, err, path)
	}
	if b, _ := os.ReadFile(path); string(b) != "one\nTWO\nTHREE\nfour\n" {
		t.Errorf("after the dry run f.txt holds %q, want it untouched", b)
	}
	if _, err := r.s.RewindFiles(r.ctx, "33333333-3333-4333-8333-333333333333", true); !errors.Is(err, ErrCannotRewind) {
		t.Errorf("a dry run to a message the CLI does not know = %v, want ErrCannotRewind", err)
	}
	if _, err := r.s.RewindFiles(r.ctx, secondID, false); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "one\nTWO\nthree\n" {
		t.Errorf("after the rewind to the second message f.txt holds %q, want it as before it", b)
	}
	text, err := r.s.RewindConversation(r.ctx, secondID, secondID)
	if err != nil || text != "prompt "+secondID {
		t.Errorf("RewindConversation = %q, %v; want the message's text back", text, err)
	}
	r.send("third prompt")
	r.turnEnd()
	main := r.api.Main()
	if body := string(main[len(main)-1].Body); strings.Contains(body, "prompt "+secondID) || !strings.Contains(body, "prompt "+firstID) {
		t.Errorf("the request after the rewind should hold the first message and not the second")
	}
}

func TestCLIWithoutFileCheckpointingRefusesToRewindTheFiles(t *testing.T) {
	r, _ := rewindRun(t, "")
	if _, err := r.s.RewindFiles(r.ctx, firstID, true); !errors.Is(err, ErrCannotRewind) || !strings.Contains(err.Error(), "not enabled") {
		t.Errorf("a dry run without %s = %v, want ErrCannotRewind, not enabled", FileCheckpointing, err)
	}
}
