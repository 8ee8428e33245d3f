package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// Issue 35 with the real CLI: what a turn writes into the workspace never makes the
// plugin's own git run a program, and a revert never writes through a link out of it.

// projectGit runs git in dir (a directory of the project), failing the test on error.
func (s *session) projectGit(dir string, args ...string) {
	s.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=U", "-c", "user.email=u@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		s.t.Fatalf("git %v in %s: %v\n%s", args, dir, err, out)
	}
}

func TestATurnThatArmsANestedRepositoryRunsNothingOfIt(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	s.ledgerRepo()
	// A repository inside the project (a vendored clone, never a submodule).
	vendor := filepath.Join(s.env.Project, "x")
	if err := os.Mkdir(vendor, 0o755); err != nil {
		t.Fatal(err)
	}
	s.writeFile("x/lib.txt", "lib\n")
	s.projectGit(vendor, "init", "-q")
	s.projectGit(vendor, "add", "-A")
	s.projectGit(vendor, "commit", "-qm", "vendored")
	markers := t.TempDir()
	fsmonitor := filepath.Join(markers, "fsmonitor-ran")
	filter := filepath.Join(markers, "clean-filter-ran")
	// What Claude writes, in acceptEdits mode, without a prompt: the nested repository's
	// config names an fsmonitor command and a clean filter its .gitattributes applies; git
	// status run inside x (as git add -A does for every gitlink) would run both.
	config := "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tfsmonitor = touch " + fsmonitor + "; false\n" +
		"[filter \"evil\"]\n\tclean = touch " + filter + "; cat\n"
	a := filepath.Join(s.env.Project, "a.txt")
	// 2.1.332 asks before writing inside a .git directory, even in acceptEdits; 2.1.197
	// refuses such a write outright ("Error writing file"), so there the repository comes
	// armed, as a hostile clone would, and the turn writes the rest.
	byClaude := cliVersion != "2.1.197"
	var turn []fakeapi.Turn
	if byClaude {
		turn = append(turn, fakeapi.Write(filepath.Join(vendor, ".git", "config"), config),
			fakeapi.Write(filepath.Join(vendor, ".gitattributes"), "* filter=evil\n"))
	} else {
		s.writeFile("x/.git/config", config)
		s.writeFile("x/.gitattributes", "* filter=evil\n")
	}
	s.api.Push(append(turn,
		// The same size as before: git status must read it (through the clean filter) to see
		// whether it changed.
		fakeapi.Write(filepath.Join(vendor, "lib.txt"), "LIB\n"),
		fakeapi.Read(a),
		fakeapi.Edit(a, "a2", "A2"),
		fakeapi.Say("Armed."),
	)...)
	s.withPermissionMode("acceptEdits")
	signs := s.nv.UserEvents("ClaudeChangeSigns")
	s.open()
	s.prompt("Set up the vendored library")
	if byClaude {
		// The user says yes in Neovim's diff (the other writes need no answer).
		s.nextDiffOpened(filepath.Join(vendor, ".git", "config"))
		s.nv.Cmd("ClaudeDiffAccept")
		s.nextDiffClosed("accepted")
	}
	s.waitText("Armed.", turnTimeout)
	nvimtest.Next(t, signs, "the signs pushed when the turn ended", turnTimeout)
	if got := s.fileContent(filepath.Join(vendor, ".git", "config")); got != config {
		t.Fatalf("the turn did not write x/.git/config (the CLI refused?): %q", got)
	}
	// A second turn: its prompt's snapshot is the one that met the armed repository.
	s.api.Push(fakeapi.Say("Again."))
	s.prompt("Once more")
	s.waitText("Again.", turnTimeout)
	nvimtest.Next(t, signs, "the signs pushed when the second turn ended", turnTimeout)
	for _, marker := range []string{fsmonitor, filter} {
		if _, err := os.Stat(marker); err == nil {
			t.Errorf("%s: a program named by the nested repository's config ran", filepath.Base(marker))
		}
	}
	s.nv.Keys(`<C-\><C-n>`)
	s.nv.Cmd("wincmd p")
	// The second turn changed nothing and is hidden: the first shows its files.
	s.changesRequest("list", `vim.cmd('ClaudeChanges')`)
	list := s.currentLines()
	if !strings.Contains(list, "M a.txt  +1 -1") {
		t.Errorf(":Claude changes does not list the workspace's change:\n%s", list)
	}
	if strings.Contains(list, "x/") {
		t.Errorf(":Claude changes lists the nested repository's files:\n%s", list)
	}
	if strings.Contains(list, "NOT recorded") {
		t.Errorf("a turn was not recorded:\n%s", list)
	}
}

func TestARevertRefusesAFileThatBecameALinkOutOfTheWorkspace(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	s.ledgerRepo()
	a := filepath.Join(s.env.Project, "a.txt")
	s.api.Push(fakeapi.Read(a), fakeapi.Edit(a, "a2", "A2"), fakeapi.Say("Edited."))
	s.withPermissionMode("acceptEdits")
	signs := s.nv.UserEvents("ClaudeChangeSigns")
	s.open()
	s.prompt("Change the first file")
	s.waitText("Edited.", turnTimeout)
	nvimtest.Next(t, signs, "the signs pushed when the turn ended", turnTimeout)
	// Later, a.txt becomes a link to a file of the user's outside the project, holding what
	// Claude left in a.txt: a revert that followed it would write the old text there.
	outside := filepath.Join(t.TempDir(), "bashrc")
	claudes := s.fileContent(a)
	if err := os.WriteFile(outside, []byte(claudes), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(a); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, a); err != nil {
		t.Fatal(err)
	}
	s.nv.Keys(`<C-\><C-n>`)
	s.nv.Cmd("wincmd p")
	s.changesRequest("list", `vim.cmd('ClaudeChanges')`)
	s.cursorToLineWith("M a.txt")
	msg := s.changesRefused("revert_file", `vim.api.nvim_feedkeys('X', 'x', false)`)
	if !strings.Contains(msg, "a.txt") || !strings.Contains(msg, "not a regular file") {
		t.Errorf("the refusal says %q; want the file and why", msg)
	}
	if got, _ := os.ReadFile(outside); string(got) != claudes {
		t.Errorf("the file outside the project became %q", got)
	}
	if target, err := os.Readlink(a); err != nil || target != outside {
		t.Errorf("a.txt is no longer the link it was: %q, %v", target, err)
	}
}

// changesRefused runs lua (a user's action in :Claude changes) and returns the error the
// host answered op with; the test fails if op succeeds.
func (s *session) changesRefused(op, lua string) string {
	s.t.Helper()
	replies := s.nv.UserEvents("ClaudeChanges")
	s.nv.Lua(nil, lua)
	for {
		data := nvimtest.Next(s.t, replies, "the host's answer to "+op, turnTimeout)
		if data["op"] != op {
			continue
		}
		e, _ := data["error"].(string)
		if e == "" {
			s.t.Fatalf("%s succeeded; want it refused", op)
		}
		return e
	}
}
