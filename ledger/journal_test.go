package ledger

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestATurnIsRecordedAndSurvivesReopening(t *testing.T) {
	isolate(t)
	ctx := context.Background()
	repo := newRepo(t)
	dir := filepath.Join(t.TempDir(), "ledger")
	s, err := Open(ctx, dir, repo)
	if err != nil {
		t.Fatal(err)
	}
	turn, err := s.Begin(ctx, Turn{Session: "s1", Source: "terminal", Prompt: "fix a.txt " + strings.Repeat("x", 2*promptLimit)})
	if err != nil {
		t.Fatal(err)
	}
	write(t, repo, "a.txt", "fixed\n")
	if _, err := s.End(ctx, turn.ID); err != nil {
		t.Fatal(err)
	}
	// A new Neovim: the same workspace opens the same store.
	again, err := Open(ctx, dir, repo)
	if err != nil {
		t.Fatal(err)
	}
	turns, err := again.Turns()
	if err != nil || len(turns) != 1 {
		t.Fatalf("turns %+v, %v", turns, err)
	}
	got := turns[0]
	if got.ID != turn.ID || got.Session != "s1" || got.Source != "terminal" || len(got.Prompt) != promptLimit || got.Ended.IsZero() {
		t.Errorf("turn read back: %+v", got)
	}
	changes := changes(t, again, got.Before, got.After)
	if c := changes["a.txt"]; c.Status != 'M' || len(changes) != 1 {
		t.Errorf("the turn's changes: %+v", changes)
	}
	if _, err := again.End(ctx, "no-such-turn"); !errors.Is(err, ErrNoTurn) {
		t.Errorf("End of an unknown turn: %v, want ErrNoTurn", err)
	}
}

func TestOutsideGitATurnFollowsTheFilesItsToolsName(t *testing.T) {
	isolate(t)
	ctx := context.Background()
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	a := write(t, dir, "a.txt", "a\n")
	write(t, dir, "b.txt", "b\n")
	s := open(t, dir)
	turn, err := s.Begin(ctx, Turn{Source: "chat"})
	if err != nil {
		t.Fatal(err)
	}
	// PreToolUse for an Edit of a.txt, then the edit; then a second Follow of a.txt after the
	// edit must not take the edited text as "before".
	if err := s.Follow(ctx, turn.ID, []string{a}); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "a.txt", "a edited\n")
	if err := s.Follow(ctx, turn.ID, []string{a}); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "b.txt", "b changed by nobody we followed\n")
	ended, err := s.End(ctx, turn.ID)
	if err != nil {
		t.Fatal(err)
	}
	got := changes(t, s, ended.Before, ended.After)
	if got["a.txt"].Status != 'M' || len(got) != 1 {
		t.Errorf("changes %+v, want a.txt only", got)
	}
	if old := version(t, s, ended.Before, "a.txt"); string(old.Content) != "a\n" {
		t.Errorf("a.txt before the turn: %q", old.Content)
	}
}

func TestForgettingKeepsTheNewestTurnsAndTheirSnapshots(t *testing.T) {
	isolate(t)
	ctx := context.Background()
	repo := newRepo(t)
	s := open(t, repo)
	var ids []string
	for i := range 4 {
		turn, err := s.Begin(ctx, Turn{Prompt: "turn", Started: time.Now().Add(time.Duration(i-10) * time.Minute)})
		if err != nil {
			t.Fatal(err)
		}
		write(t, repo, "a.txt", strings.Repeat("line\n", i+1))
		if _, err := s.End(ctx, turn.ID); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, turn.ID)
	}
	if err := s.Forget(ctx, Limits{Turns: 2, Age: time.Hour}); err != nil {
		t.Fatal(err)
	}
	turns, _ := s.Turns()
	if len(turns) != 2 || turns[0].ID != ids[2] || turns[1].ID != ids[3] {
		t.Fatalf("kept %+v, want the two newest", turns)
	}
	for _, turn := range turns {
		if _, err := s.Changes(ctx, turn.Before, turn.After); err != nil {
			t.Errorf("a kept turn's snapshots are gone: %v", err)
		}
	}
	if err := s.Forget(ctx, Limits{}); err != nil {
		t.Fatal(err)
	}
	if turns, _ := s.Turns(); len(turns) != 0 {
		t.Errorf("after clearing: %+v", turns)
	}
}

func TestADamagedJournalSaysHowToStartAgain(t *testing.T) {
	isolate(t)
	s := open(t, newRepo(t))
	if err := os.WriteFile(filepath.Join(s.git.gitDir, journalName), []byte("{half"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Turns(); err == nil || !strings.Contains(err.Error(), ":Claude changes clear") {
		t.Errorf("a damaged journal: %v", err)
	}
	if err := s.Forget(context.Background(), Limits{}); err != nil {
		t.Fatalf("clearing a damaged journal: %v", err)
	}
	if turns, err := s.Turns(); err != nil || len(turns) != 0 {
		t.Errorf("after clearing: %+v, %v", turns, err)
	}
}
