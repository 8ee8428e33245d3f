package host

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/hooks"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// :Claude changes against a child Neovim: the turns a CLI's hook events recorded, listed; a
// file opened as a before → now diff; a hunk reverted with the user's later edit kept; a
// file reverted from the list; refusals that change nothing; the signs and the note.

// changesEnv is a Neovim whose working directory is a git repository with three files, and
// the host's recorder configured by the Lua side (host.ensure).
type changesEnv struct {
	*env
	dir string
}

func newChangesEnv(t testing.TB) *changesEnv {
	t.Helper()
	e := newEnv(t)
	dir := e.nv.Cwd
	gitIn(t, dir, "init", "-q")
	e.nv.WriteFile("a.txt", "a1\na2\na3\na4\na5\na6\na7\na8\n")
	e.nv.WriteFile("b.txt", "b1\nb2\n")
	e.nv.WriteFile("c.txt", "c1\n")
	gitIn(t, dir, "add", "-A")
	gitIn(t, dir, "commit", "-qm", "base")
	e.nv.Lua(nil, `require('claude').setup({}); assert(require('claude.host').ensure())`)
	return &changesEnv{env: e, dir: dir}
}

func gitIn(t testing.TB, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=U", "-c", "user.email=u@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func (c *changesEnv) hook(name string, fields func(*hooks.Event)) hooks.Reply {
	e := hooks.Event{Name: name, SessionID: "s1", Cwd: c.dir}
	if fields != nil {
		fields(&e)
	}
	return c.host.changes.Handle(context.Background(), e)
}

// turn plays a turn's hook events as the CLI sends them: two files edited by Edit, a third
// by a shell command.
func (c *changesEnv) turn(prompt string) hooks.Reply {
	c.t.Helper()
	reply := c.hook(hooks.UserPromptSubmit, func(e *hooks.Event) { e.Prompt = prompt })
	edit := func(name, content string) {
		c.hook(hooks.PreToolUse, func(e *hooks.Event) {
			e.ToolName = "Edit"
			e.ToolInput, _ = json.Marshal(map[string]string{"file_path": filepath.Join(c.dir, name)})
		})
		c.nv.WriteFile(name, content)
	}
	edit("a.txt", "a1\nA2\na3\na4\na5\na6\nA7\na8\n")
	edit("b.txt", "b1\nb2\nb3\n")
	c.hook(hooks.PreToolUse, func(e *hooks.Event) { e.ToolName = "Bash" })
	c.nv.WriteFile("c.txt", "C1\n")
	c.hook(hooks.Stop, nil)
	return reply
}

// request runs a Lua action that asks the host something and waits for the answer to op.
func (c *changesEnv) request(op, lua string) map[string]any {
	c.t.Helper()
	replies := c.nv.UserEvents("ClaudeChanges")
	c.nv.Lua(nil, lua)
	for {
		data := nvimtest.Next(c.t, replies, "the host's answer to "+op, waitTimeout)
		if data["op"] == op {
			return data
		}
	}
}

func (c *changesEnv) disk(name string) string {
	c.t.Helper()
	data, err := os.ReadFile(filepath.Join(c.dir, name))
	if err != nil {
		c.t.Fatal(err)
	}
	return string(data)
}

func (c *changesEnv) bufLines() []string {
	var lines []string
	c.nv.Lua(&lines, `return vim.api.nvim_buf_get_lines(0, 0, -1, false)`)
	return lines
}

// cursorTo puts the cursor on the first line of the current buffer containing text.
func (c *changesEnv) cursorTo(text string) {
	c.t.Helper()
	var ok bool
	c.nv.Lua(&ok, `local text = ...
		for i, l in ipairs(vim.api.nvim_buf_get_lines(0, 0, -1, false)) do
			if l:find(text, 1, true) then vim.api.nvim_win_set_cursor(0, { i, 0 }) return true end
		end
		return false`, text)
	if !ok {
		c.t.Fatalf("no line with %q in %q", text, c.bufLines())
	}
}

func TestClaudeChangesListsATurnAndRevertsAHunkAndAFileKeepingTheUsersEdit(t *testing.T) {
	c := newChangesEnv(t)
	signs := c.nv.UserEvents("ClaudeChangeSigns")
	c.nv.Cmd("edit a.txt")
	c.turn("fix the letters")
	nvimtest.Next(t, signs, "the signs pushed when the turn ended", waitTimeout)
	var signed []int
	c.nv.Lua(&signed, `return require('claude.changes.signs').lines(0)`)
	if fmt.Sprint(signed) != "[2 7]" {
		t.Errorf("signed lines of a.txt = %v, want [2 7] (Claude's two changed lines)", signed)
	}
	var status string
	c.nv.Lua(&status, `return require('claude').statusline()`)
	if !strings.Contains(status, "4 unreviewed") {
		t.Errorf("statusline = %q, want it to count 4 unreviewed hunks (a.txt 2, b.txt 1, c.txt 1)", status)
	}

	c.request("list", `vim.cmd('ClaudeChanges')`)
	list := strings.Join(c.bufLines(), "\n")
	for _, want := range []string{"fix the letters", "M a.txt  +2 -2", "M b.txt  +1 -0", "M c.txt  +1 -1"} {
		if !strings.Contains(list, want) {
			t.Errorf("the list has no %q:\n%s", want, list)
		}
	}

	// The user edits a.txt after Claude, away from its hunks, and saves.
	c.nv.Cmd("buffer a.txt | call setline(4, 'a4 mine') | write")
	c.nv.Cmd("ClaudeChanges")
	c.cursorTo("a.txt")
	c.request("open", `vim.api.nvim_feedkeys(vim.keycode('<CR>'), 'x', false)`)
	var diff struct {
		Wins   int      `msgpack:"wins"`
		Diff   bool     `msgpack:"diff"`
		Before []string `msgpack:"before"`
		Name   string   `msgpack:"name"`
	}
	c.nv.Lua(&diff, `local wins = vim.api.nvim_tabpage_list_wins(0)
		local before = vim.api.nvim_win_get_buf(wins[1])
		return { wins = #wins, diff = vim.wo[wins[1]].diff and vim.wo[wins[2]].diff,
			before = vim.api.nvim_buf_get_lines(before, 0, -1, false), name = vim.api.nvim_buf_get_name(0) }`)
	if diff.Wins != 2 || !diff.Diff || strings.Join(diff.Before, "|") != "a1|a2|a3|a4|a5|a6|a7|a8" || !strings.HasSuffix(diff.Name, "/a.txt") {
		t.Fatalf("the diff = %+v, want the before text beside a.txt's own buffer, both in diff mode", diff)
	}

	// Unsaved edits refuse a revert: nothing is sent, the disk keeps Claude's text.
	c.nv.Cmd("call setline(1, 'unsaved')")
	c.nv.Lua(nil, `vim.api.nvim_win_set_cursor(0, { 7, 0 })`)
	c.nv.Keys(`\ar`)
	if got := c.disk("a.txt"); got != "a1\nA2\na3\na4 mine\na5\na6\nA7\na8\n" {
		t.Errorf("a.txt = %q after a refused revert", got)
	}
	if msgs := c.nv.Messages(); !strings.Contains(msgs, "a.txt has unsaved edits") {
		t.Errorf("no refusal message; messages:\n%s", msgs)
	}
	c.nv.Cmd("silent undo")

	c.nv.Lua(nil, `vim.api.nvim_win_set_cursor(0, { 7, 0 })`)
	c.request("revert_hunk", `vim.api.nvim_feedkeys(vim.keycode('\\ar'), 'x', false)`)
	if got, want := c.disk("a.txt"), "a1\nA2\na3\na4 mine\na5\na6\na7\na8\n"; got != want {
		t.Errorf("a.txt on disk = %q, want %q (the hunk taken back, the user's line kept)", got, want)
	}
	var line7 string
	c.nv.Lua(&line7, `return vim.fn.getbufline(vim.fn.bufnr('a.txt'), 7)[1]`)
	if line7 != "a7" {
		t.Errorf("a.txt's buffer line 7 = %q, want it reloaded to a7", line7)
	}

	c.nv.Cmd("tabclose | ClaudeChanges")
	c.cursorTo("b.txt")
	c.request("revert_file", `vim.api.nvim_feedkeys('X', 'x', false)`)
	if got := c.disk("b.txt"); got != "b1\nb2\n" {
		t.Errorf("b.txt = %q after reverting it from the list, want the old text", got)
	}

	note := string(c.turn("next").Stdout)
	for _, want := range []string{`"a.txt" line 7`, `all changes to "b.txt"`} {
		if !strings.Contains(note, want) {
			t.Errorf("the next prompt's note = %q, want it to name %q", note, want)
		}
	}
}

func TestClaudeChangesOutsideAnyRepositorySaysWhatItFollows(t *testing.T) {
	e := newEnv(t)
	e.nv.Lua(nil, `require('claude').setup({}); assert(require('claude.host').ensure())`)
	c := &changesEnv{env: e, dir: e.nv.Cwd}
	c.request("list", `vim.cmd('ClaudeChanges')`)
	list := strings.Join(c.bufLines(), "\n")
	if !strings.Contains(list, "not a git repository") || !strings.Contains(list, "No turn recorded yet") {
		t.Errorf("the list outside git:\n%s\nwant it to say what it follows and that nothing is recorded; messages:\n%s", list, c.nv.Messages())
	}
}

func TestCheckhealthSaysWhatTheLedgerRecordsHere(t *testing.T) {
	c := newChangesEnv(t)
	c.turn("fix the letters")
	c.nv.Cmd("checkhealth claude")
	text := strings.Join(c.bufLines(), "\n")
	for _, want := range []string{"Change ledger", "the whole git work tree", "1 turn kept", "/claude/ledger/work-"} {
		if !strings.Contains(text, want) {
			t.Errorf(":checkhealth claude has no %q:\n%s", want, text)
		}
	}
}

func TestAFileTheUserSavesDuringATurnIsMarkedInTheListAndNotRevertedWhole(t *testing.T) {
	c := newChangesEnv(t)
	c.hook(hooks.UserPromptSubmit, func(e *hooks.Event) { e.Prompt = "edit" })
	c.nv.WriteFile("a.txt", "a1\nA2\na3\na4\na5\na6\na7\na8\n") // Claude
	c.nv.Cmd("edit b.txt | call setline(1, 'b1 mine') | write")
	// Async handlers run in order: once this request is answered, the write was heard.
	c.request("qf", `require('claude.host').request_changes('qf', vim.fn.getcwd())`)
	c.hook(hooks.Stop, nil)
	c.request("list", `vim.cmd('ClaudeChanges')`)
	c.cursorTo("b.txt")
	if line := c.currentLine(); !strings.Contains(line, "you saved it during the turn") {
		t.Errorf("b.txt's line = %q, want it to say the user saved it during the turn", line)
	}
	c.request("revert_file", `vim.api.nvim_feedkeys('X', 'x', false)`)
	if got := c.disk("b.txt"); got != "b1 mine\nb2\n" {
		t.Errorf("b.txt = %q after a refused revert, want the user's text", got)
	}
	if msgs := c.nv.Messages(); !strings.Contains(msgs, "you saved it while Claude's turn ran") {
		t.Errorf("no refusal message; messages:\n%s", msgs)
	}
}

func (c *changesEnv) currentLine() string {
	var line string
	c.nv.Lua(&line, `return vim.api.nvim_get_current_line()`)
	return line
}

func TestTheNextNeovimShowsTheUnreviewedChangesOfItsWorkspace(t *testing.T) {
	first := newChangesEnv(t)
	first.turn("fix the letters")
	e := newEnv(t, nvimtest.WithEnv("XDG_STATE_HOME="+filepath.Join(first.nv.Dir, "state")))
	e.nv.Cmd("cd " + first.dir + " | edit a.txt")
	signs := e.nv.UserEvents("ClaudeChangeSigns")
	e.nv.Lua(nil, `require('claude').setup({}); assert(require('claude.host').ensure())`)
	nvimtest.Next(t, signs, "the signs of the workspace's recorded turn", waitTimeout)
	var got struct {
		Lines  []int  `msgpack:"lines"`
		Status string `msgpack:"status"`
	}
	e.nv.Lua(&got, `return { lines = require('claude.changes.signs').lines(0), status = require('claude').statusline() }`)
	if fmt.Sprint(got.Lines) != "[2 7]" || !strings.Contains(got.Status, "4 unreviewed") {
		t.Errorf("in the next Neovim: signed lines %v, statusline %q; want [2 7] and 4 unreviewed", got.Lines, got.Status)
	}
}

func TestAReviewedHunkLosesItsSignTheQuickfixListHasTheRestAndClearForgetsAll(t *testing.T) {
	c := newChangesEnv(t)
	c.turn("fix the letters")
	c.request("list", `vim.cmd('ClaudeChanges')`)
	c.cursorTo("a.txt")
	c.request("open", `vim.api.nvim_feedkeys(vim.keycode('<CR>'), 'x', false)`)
	c.nv.Lua(nil, `vim.api.nvim_win_set_cursor(0, { 2, 0 })`)
	signs := c.nv.UserEvents("ClaudeChangeSigns")
	c.request("review", `vim.api.nvim_feedkeys(vim.keycode('\\av'), 'x', false)`)
	nvimtest.Next(t, signs, "the signs after the review", waitTimeout)
	var signed []int
	c.nv.Lua(&signed, `return require('claude.changes.signs').lines(0)`)
	if fmt.Sprint(signed) != "[7]" {
		t.Errorf("a.txt's signed lines after reviewing its first hunk = %v, want [7]", signed)
	}

	c.request("qf", `vim.cmd('ClaudeChanges qf')`)
	var qf []string
	c.nv.Lua(&qf, `local out = {}
		for _, it in ipairs(vim.fn.getqflist()) do
			table.insert(out, vim.fn.fnamemodify(vim.fn.bufname(it.bufnr), ':t') .. ':' .. it.lnum)
		end
		return out`)
	if fmt.Sprint(qf) != "[a.txt:7 b.txt:3 c.txt:1]" {
		t.Errorf("the quickfix list = %v, want the three unreviewed hunks [a.txt:7 b.txt:3 c.txt:1]", qf)
	}

	c.nv.Cmd("tabclose")
	c.request("clear", `vim.cmd('ClaudeChanges clear')`)
	c.request("list", `vim.cmd('ClaudeChanges')`)
	if list := strings.Join(c.bufLines(), "\n"); !strings.Contains(list, "No turn recorded yet") {
		t.Errorf("the list after :Claude changes clear:\n%s", list)
	}
}

func TestOlderTurnsAreOneLineUntilOpened(t *testing.T) {
	c := newChangesEnv(t)
	c.turn("the first turn")
	c.hook(hooks.UserPromptSubmit, func(e *hooks.Event) { e.Prompt = "the second turn" })
	c.nv.WriteFile("c.txt", "c1 again\n")
	c.hook(hooks.Stop, nil)
	c.request("list", `vim.cmd('ClaudeChanges')`)
	list := strings.Join(c.bufLines(), "\n")
	if !strings.Contains(list, "the second turn\n    M c.txt  +1 -1") || !strings.Contains(list, "the first turn  (3 files: <CR> shows them)") || strings.Contains(list, "M a.txt") {
		t.Fatalf("the list:\n%s\nwant the newest turn's file and the older turn on one line", list)
	}
	c.cursorTo("the first turn")
	c.nv.Keys("<CR>")
	if list := strings.Join(c.bufLines(), "\n"); !strings.Contains(list, "the first turn\n    M a.txt  +2 -2") {
		t.Errorf("after <CR> on the older turn:\n%s\nwant its files shown", list)
	}
}
