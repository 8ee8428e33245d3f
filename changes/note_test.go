package changes

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/hooks"
)

// revertSecondHunk takes a.txt's second hunk of the newest turn back through r.
func revertSecondHunk(t *testing.T, r *Recorder, dir string) {
	t.Helper()
	ctx := context.Background()
	l, err := r.List(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	d, err := r.Open(ctx, dir, l.Turns[0].ID, "a.txt")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.RevertHunk(ctx, dir, d.Turn, "a.txt", d.Hunks[1].Key); err != nil {
		t.Fatal(err)
	}
}

// notePath is where the store of dir's workspace keeps an undelivered note.
func notePath(t *testing.T, r *Recorder, dir string) string {
	t.Helper()
	h := r.Health(context.Background(), dir)
	if h.Error != "" || h.Store == "" {
		t.Fatalf("health = %+v", h)
	}
	return filepath.Join(h.Store, noteName)
}

func prompt(r *Recorder, dir, text string) string {
	return string(r.Handle(context.Background(), event(hooks.UserPromptSubmit, dir, map[string]any{"prompt": text})).Stdout)
}

func TestARevertNoteOutlivesTheRecorderAndIsDeliveredOnce(t *testing.T) {
	dir := repo(t)
	ledgerDir := filepath.Join(t.TempDir(), "ledger")
	first := recorder(t, Options{Dir: ledgerDir})
	claudeTurn(t, first, dir, "edit")
	revertSecondHunk(t, first, dir)
	path := notePath(t, first, dir)
	info, err := os.Stat(path)
	if err != nil {
		t.Fatalf("no note kept on disk after the revert: %v", err)
	}
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Errorf("the note file's mode = %o, want 600", perm)
	}

	// Neovim restarts before the next prompt: a new Recorder on the same directory.
	second := recorder(t, Options{Dir: ledgerDir})
	if note := prompt(second, dir, "next"); !strings.Contains(note, "a.txt line 7") {
		t.Errorf("the next prompt after a restart got the note %q, want it to name a.txt line 7", note)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("the note file is still there once delivered (stat: %v)", err)
	}
	if again := prompt(second, dir, "again"); again != "" {
		t.Errorf("a second prompt got the note again: %q", again)
	}
	if third := prompt(recorder(t, Options{Dir: ledgerDir}), dir, "after another restart"); third != "" {
		t.Errorf("a prompt after another restart got the delivered note again: %q", third)
	}
}

func TestClearingTheChangesDropsAKeptRevertNote(t *testing.T) {
	dir := repo(t)
	ledgerDir := filepath.Join(t.TempDir(), "ledger")
	first := recorder(t, Options{Dir: ledgerDir})
	claudeTurn(t, first, dir, "edit")
	revertSecondHunk(t, first, dir)
	if _, err := first.Clear(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(notePath(t, first, dir)); !os.IsNotExist(err) {
		t.Errorf("the note file is still there after :ClaudeChanges clear (stat: %v)", err)
	}
	if note := prompt(recorder(t, Options{Dir: ledgerDir}), dir, "next"); note != "" {
		t.Errorf("after clear and a restart the next prompt got a note: %q", note)
	}
}
