package changes

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/hooks"
	"github.com/claude-nvim/claude.nvim/ledger"
)

// repo is a user's repository with three committed files, git isolated from the machine's
// config.
func repo(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	git(t, dir, "init", "-q")
	write(t, dir, "a.txt", "a1\na2\na3\na4\na5\na6\na7\na8\n")
	write(t, dir, "b.txt", "b1\nb2\n")
	write(t, dir, "c.txt", "c1\n")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "base")
	return dir
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=U", "-c", "user.email=u@example.com"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func recorder(t *testing.T, opts Options) *Recorder {
	t.Helper()
	r := New(nil)
	if opts.Dir == "" {
		opts.Dir = filepath.Join(t.TempDir(), "ledger")
	}
	if err := r.Configure(opts); err != nil {
		t.Fatal(err)
	}
	return r
}

func event(name, cwd string, fields map[string]any) hooks.Event {
	e := hooks.Event{Name: name, SessionID: "s1", Cwd: cwd}
	if p, ok := fields["prompt"].(string); ok {
		e.Prompt = p
	}
	if tool, ok := fields["tool"].(string); ok {
		e.ToolName = tool
		e.ToolInput, _ = json.Marshal(fields["input"])
	}
	return e
}

// claudeTurn plays a turn's hooks: Claude edits a.txt (two hunks) and b.txt with file
// tools, and a shell command rewrites c.txt.
func claudeTurn(t *testing.T, r *Recorder, dir, prompt string) hooks.Reply {
	t.Helper()
	ctx := context.Background()
	reply := r.Handle(ctx, event(hooks.UserPromptSubmit, dir, map[string]any{"prompt": prompt}))
	r.Handle(ctx, event(hooks.PreToolUse, dir, map[string]any{"tool": "Edit", "input": map[string]string{"file_path": filepath.Join(dir, "a.txt")}}))
	write(t, dir, "a.txt", "a1\nA2\na3\na4\na5\na6\nA7\na8\n")
	r.Handle(ctx, event(hooks.PreToolUse, dir, map[string]any{"tool": "Edit", "input": map[string]string{"file_path": filepath.Join(dir, "b.txt")}}))
	write(t, dir, "b.txt", "b1\nb2\nb3\n")
	r.Handle(ctx, event(hooks.PreToolUse, dir, map[string]any{"tool": "Bash", "input": map[string]string{"command": "sed -i s/c1/C1/ c.txt"}}))
	write(t, dir, "c.txt", "C1\n")
	r.Handle(ctx, event(hooks.Stop, dir, nil))
	return reply
}

func fileOf(t *testing.T, l Listing, path string) File {
	t.Helper()
	for _, f := range l.Turns[0].Files {
		if f.Path == path {
			return f
		}
	}
	t.Fatalf("the newest turn lists no %s: %+v", path, l.Turns[0].Files)
	return File{}
}

func TestATurnsFileToolAndShellChangesAreAllListed(t *testing.T) {
	dir := repo(t)
	r := recorder(t, Options{})
	claudeTurn(t, r, dir, "fix the letters\nplease")
	l, err := r.List(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Turns) != 1 || l.Turns[0].Prompt != "fix the letters\nplease" || l.Turns[0].Running {
		t.Fatalf("turns = %+v, want one ended turn with the prompt", l.Turns)
	}
	for path, want := range map[string]File{
		"a.txt": {Path: "a.txt", Status: "M", Added: 2, Deleted: 2},
		"b.txt": {Path: "b.txt", Status: "M", Added: 1},
		"c.txt": {Path: "c.txt", Status: "M", Added: 1, Deleted: 1},
	} {
		if got := fileOf(t, l, path); got != want {
			t.Errorf("%s: got %+v, want %+v", path, got, want)
		}
	}
}

func TestRevertingAHunkKeepsTheUsersLaterEditAndTheNextPromptHearsOfIt(t *testing.T) {
	dir := repo(t)
	r := recorder(t, Options{})
	claudeTurn(t, r, dir, "edit")
	// The user edits a.txt after Claude, away from Claude's hunks.
	write(t, dir, "a.txt", "a1\nA2\na3\na4 mine\na5\na6\nA7\na8\n")
	ctx := context.Background()
	l, _ := r.List(ctx, dir)
	d, err := r.Open(ctx, dir, l.Turns[0].ID, "a.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Hunks) != 2 || strings.Join(d.Before, "|") != "a1|a2|a3|a4|a5|a6|a7|a8" {
		t.Fatalf("diff = %+v, want the before text and two hunks", d)
	}
	got, err := r.RevertHunk(ctx, dir, d.Turn, "a.txt", d.Hunks[1].Key)
	if err != nil {
		t.Fatal(err)
	}
	if want := "a1\nA2\na3\na4 mine\na5\na6\na7\na8\n"; readFile(t, dir, "a.txt") != want {
		t.Errorf("a.txt = %q, want %q (hunk 2 taken back, the user's line kept)", readFile(t, dir, "a.txt"), want)
	}
	if len(got.Paths) != 1 || got.Paths[0] != filepath.Join(dir, "a.txt") {
		t.Errorf("reverted paths = %v, want a.txt's", got.Paths)
	}
	note := string(claudeTurn(t, r, dir, "next").Stdout)
	if !strings.Contains(note, `"a.txt" line 7`) {
		t.Errorf("the next prompt's note = %q, want it to name \"a.txt\" line 7", note)
	}
	if again := r.Handle(ctx, event(hooks.UserPromptSubmit, dir, map[string]any{"prompt": "and again"})); len(again.Stdout) != 0 {
		t.Errorf("a second prompt got the note again: %q", again.Stdout)
	}
}

func TestRevertingAHunkTheUserChangedSinceRefusesAndWritesNothing(t *testing.T) {
	dir := repo(t)
	r := recorder(t, Options{})
	claudeTurn(t, r, dir, "edit")
	mine := "a1\nA2 mine\na3\na4\na5\na6\nA7\na8\n"
	write(t, dir, "a.txt", mine)
	ctx := context.Background()
	l, _ := r.List(ctx, dir)
	d, _ := r.Open(ctx, dir, l.Turns[0].ID, "a.txt")
	if _, err := r.RevertHunk(ctx, dir, d.Turn, "a.txt", d.Hunks[0].Key); !errors.Is(err, ledger.ErrConflict) {
		t.Fatalf("revert over the user's edit: err = %v, want ErrConflict", err)
	}
	if got := readFile(t, dir, "a.txt"); got != mine {
		t.Errorf("a.txt = %q after a refused revert, want the user's %q", got, mine)
	}
}

func TestRevertingAFileAndATurn(t *testing.T) {
	dir := repo(t)
	r := recorder(t, Options{})
	claudeTurn(t, r, dir, "edit")
	ctx := context.Background()
	l, _ := r.List(ctx, dir)
	if _, err := r.RevertFile(ctx, dir, l.Turns[0].ID, "b.txt"); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, dir, "b.txt"); got != "b1\nb2\n" {
		t.Errorf("b.txt = %q after reverting it, want the old text", got)
	}
	if _, err := r.RevertTurn(ctx, dir, l.Turns[0].ID); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"a.txt": "a1\na2\na3\na4\na5\na6\na7\na8\n", "c.txt": "c1\n", "b.txt": "b1\nb2\n"} {
		if got := readFile(t, dir, name); got != want {
			t.Errorf("%s = %q after reverting the turn, want %q", name, got, want)
		}
	}
}

func TestATurnRevertRefusedForOneFileWritesNone(t *testing.T) {
	dir := repo(t)
	r := recorder(t, Options{})
	claudeTurn(t, r, dir, "edit")
	write(t, dir, "c.txt", "C1 mine\n")
	ctx := context.Background()
	l, _ := r.List(ctx, dir)
	_, err := r.RevertTurn(ctx, dir, l.Turns[0].ID)
	if !errors.Is(err, ledger.ErrConflict) && (err == nil || !strings.Contains(err.Error(), "c.txt")) {
		t.Fatalf("err = %v, want a refusal naming c.txt", err)
	}
	if got := readFile(t, dir, "b.txt"); got != "b1\nb2\nb3\n" {
		t.Errorf("b.txt = %q: a refused turn revert wrote it", got)
	}
}

func TestTheRevertNoteCanBeTurnedOff(t *testing.T) {
	dir := repo(t)
	r := recorder(t, Options{NoRevertNote: true})
	claudeTurn(t, r, dir, "edit")
	ctx := context.Background()
	l, _ := r.List(ctx, dir)
	if _, err := r.RevertFile(ctx, dir, l.Turns[0].ID, "b.txt"); err != nil {
		t.Fatal(err)
	}
	if note := claudeTurn(t, r, dir, "next").Stdout; len(note) != 0 {
		t.Errorf("note = %q with revert_note off", note)
	}
}

func TestOutsideGitTheFilesToolsNameAreRecorded(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	write(t, dir, "a.txt", "a1\na2\na3\na4\na5\na6\na7\na8\n")
	write(t, dir, "b.txt", "b1\nb2\n")
	write(t, dir, "c.txt", "c1\n")
	r := recorder(t, Options{})
	claudeTurn(t, r, dir, "edit")
	l, err := r.List(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	if l.Repository || len(l.Turns) != 1 || len(l.Turns[0].Files) != 2 {
		t.Fatalf("listing = %+v, want a.txt and b.txt (a shell's change cannot be followed outside git)", l)
	}
	fileOf(t, l, "a.txt")
	fileOf(t, l, "b.txt")
}

func TestBinaryDeletedAndRenamedFilesRevertWholeOrSayWhy(t *testing.T) {
	dir := repo(t)
	write(t, dir, "bin.dat", "\x00\x01old")
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-qm", "bin")
	r := recorder(t, Options{})
	ctx := context.Background()
	r.Handle(ctx, event(hooks.UserPromptSubmit, dir, map[string]any{"prompt": "shuffle"}))
	write(t, dir, "bin.dat", "\x00\x01new")
	os.Remove(filepath.Join(dir, "c.txt"))
	os.Rename(filepath.Join(dir, "a.txt"), filepath.Join(dir, "moved.txt"))
	r.Handle(ctx, event(hooks.Stop, dir, nil))
	l, _ := r.List(ctx, dir)
	id := l.Turns[0].ID
	if f := fileOf(t, l, "bin.dat"); !f.Binary {
		t.Errorf("bin.dat = %+v, want binary", f)
	}
	if f := fileOf(t, l, "moved.txt"); f.Status != "R" || f.OldPath != "a.txt" {
		t.Errorf("moved.txt = %+v, want a rename from a.txt", f)
	}
	d, _ := r.Open(ctx, dir, id, "bin.dat")
	if _, err := r.RevertHunk(ctx, dir, id, "bin.dat", "x"); !errors.Is(err, ledger.ErrBinary) || len(d.Hunks) != 0 {
		t.Errorf("a binary file's hunk revert: err = %v, hunks %v; want ErrBinary and no hunks", err, d.Hunks)
	}
	for _, path := range []string{"bin.dat", "c.txt", "moved.txt"} {
		if _, err := r.RevertFile(ctx, dir, id, path); err != nil {
			t.Errorf("revert %s: %v", path, err)
		}
	}
	for name, want := range map[string]string{"bin.dat": "\x00\x01old", "c.txt": "c1\n", "a.txt": "a1\na2\na3\na4\na5\na6\na7\na8\n"} {
		if got := readFile(t, dir, name); got != want {
			t.Errorf("%s = %q after reverting, want %q", name, got, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "moved.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("moved.txt still there after its rename was reverted (%v)", err)
	}
}

func TestBeforeConfigureNothingIsRecordedAndListingSaysWhy(t *testing.T) {
	dir := repo(t)
	r := New(nil)
	r.Handle(context.Background(), event(hooks.UserPromptSubmit, dir, map[string]any{"prompt": "x"}))
	if _, err := r.List(context.Background(), dir); !errors.Is(err, ErrNotConfigured) {
		t.Errorf("List before Configure: err = %v, want ErrNotConfigured", err)
	}
}

func TestAFileTheUserSavedDuringTheTurnIsNamedAndOnlyRevertedByHunk(t *testing.T) {
	dir := repo(t)
	r := recorder(t, Options{})
	ctx := context.Background()
	r.Handle(ctx, event(hooks.UserPromptSubmit, dir, map[string]any{"prompt": "edit"}))
	write(t, dir, "a.txt", "a1\nA2\na3\na4\na5\na6\na7\na8\n") // Claude
	write(t, dir, "b.txt", "b1\nb2 saved by the user\n")       // the user, in the editor
	r.UserSaved(filepath.Join(dir, "b.txt"))
	r.Handle(ctx, event(hooks.Stop, dir, nil))
	l, _ := r.List(ctx, dir)
	if f := fileOf(t, l, "b.txt"); !f.UserSaved {
		t.Errorf("b.txt = %+v, want it marked saved by the user during the turn", f)
	}
	if f := fileOf(t, l, "a.txt"); f.UserSaved {
		t.Errorf("a.txt = %+v, not saved by the user", f)
	}
	if _, err := r.RevertFile(ctx, dir, l.Turns[0].ID, "b.txt"); !errors.Is(err, ErrUserSaved) {
		t.Errorf("reverting b.txt whole: err = %v, want ErrUserSaved", err)
	}
	if _, err := r.RevertTurn(ctx, dir, l.Turns[0].ID); err == nil || !strings.Contains(err.Error(), "b.txt") {
		t.Errorf("reverting the turn: err = %v, want a refusal naming b.txt", err)
	}
	if got := readFile(t, dir, "a.txt"); got != "a1\nA2\na3\na4\na5\na6\na7\na8\n" {
		t.Errorf("a.txt = %q after a refused turn revert", got)
	}
}

func TestReviewedHunksStayReviewedInTheNextEditor(t *testing.T) {
	dir := repo(t)
	ledgerDir := filepath.Join(t.TempDir(), "ledger")
	r := recorder(t, Options{Dir: ledgerDir})
	claudeTurn(t, r, dir, "edit")
	ctx := context.Background()
	l, _ := r.List(ctx, dir)
	d, _ := r.Open(ctx, dir, l.Turns[0].ID, "a.txt")
	if err := r.Review(ctx, dir, d.Turn, "a.txt", d.Hunks[0].Key, true); err != nil {
		t.Fatal(err)
	}
	next := recorder(t, Options{Dir: ledgerDir}) // Neovim restarted
	marks, err := next.Marks(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := marks.Files[filepath.Join(dir, "a.txt")]; len(got) != 1 || got[0].Start != 7 || marks.Count != 3 {
		t.Errorf("marks after a restart = %+v, want a.txt's second hunk only (the first was reviewed) and 3 in all", marks)
	}
}

func TestRestoringAWorkspaceWithoutALedgerCreatesNone(t *testing.T) {
	dir := repo(t)
	ledgerDir := filepath.Join(t.TempDir(), "ledger")
	r := recorder(t, Options{Dir: ledgerDir})
	r.Restore(context.Background(), dir)
	if entries, _ := os.ReadDir(ledgerDir); len(entries) != 0 {
		t.Errorf("restoring a workspace never recorded made %v under the ledger directory", entries)
	}
}
