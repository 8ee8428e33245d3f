package e2e

import (
	"errors"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The scenarios: each runs the real CLI in a fresh Neovim through :Claude open (session_test.go)
// and checks what the user sees, what lands on disk and what reaches the model.

const (
	original = "one\ntwo\nthree\n"
	proposed = "one\nTWO\nthree\n"
)

func TestClaudeOpenConnectsTheCLIToNeovim(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	path := s.writeFile("greet.txt", original)
	s.edit(path)
	ev := s.open()

	if ev["name"] != "claude-code" || ev["version"] != cliVersion || nvimtest.Int(ev["pid"]) != s.cliPID {
		t.Errorf("ClaudeConnected data = %v, want name claude-code, version %s, pid %d (the CLI's)", ev, cliVersion, s.cliPID)
	}
	out, err := s.nv.Exec("ClaudeStatus", true)
	if err != nil {
		t.Fatalf(":Claude status: %v", err)
	}
	for _, want := range []string{
		"listening on 127.0.0.1:" + strconv.Itoa(s.port),
		"lock file: " + s.env.LockDir() + "/" + strconv.Itoa(s.port) + ".lock",
		"client: claude-code " + cliVersion + " pid " + strconv.Itoa(s.cliPID) + " since ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf(":Claude status printed\n%s\nwant a line with %q", out, want)
		}
	}
	s.assertTerminalFits("after :Claude open")
	if strings.Contains(out, "(connecting)") {
		t.Errorf(":Claude status printed\n%s\nwant the client ready, not connecting", out)
	}
	var statusline string
	s.nv.Lua(&statusline, `return require('claude').statusline()`)
	if statusline != "Claude ●" {
		t.Errorf("statusline() = %q, want %q once the CLI connected", statusline, "Claude ●")
	}
}

func TestAVisualSelectionReachesTheModelWithTheNextPrompt(t *testing.T) {
	t.Parallel()
	s := newSession(t, fakeapi.Say("Those are lines two and three."))
	path := s.writeFile("greet.txt", original)
	s.edit(path)
	s.open()

	s.nv.Keys("2GVj<Esc>")
	s.waitText("⧉ 2 lines selected", turnTimeout)
	s.prompt("Explain the selected lines")

	got := s.mainRequest(1).LastUserText()
	want := "The user selected the lines 2 to 3 from " + path + ":\ntwo\nthree\n\nThis may or may not be related to the current task."
	if !strings.Contains(got, want) {
		t.Errorf("the model request lacks the selection; want\n%s\nin its new user text:\n%s", want, tail(got))
	}
	s.waitText("Those are lines two and three.", turnTimeout)
	s.waitText("⧉ Selected 2 lines from greet.txt in Neovim", turnTimeout)
}

func TestClaudeSendMentionsTheLinesInTheCLIInput(t *testing.T) {
	t.Parallel()
	s := newSession(t, fakeapi.Say("Lines two and three count up."))
	path := s.writeFile("greet.txt", original)
	s.edit(path)
	s.open()

	s.nv.Cmd("2,3ClaudeSend")
	// :Claude send leaves the user typing in Claude's terminal, after the mention.
	s.waitMode("t", "terminal mode in the Claude terminal after :Claude send")
	var buftype string
	s.nv.Lua(&buftype, `return vim.bo.buftype`)
	if buftype != "terminal" {
		t.Fatalf("after :Claude send the current buffer's buftype is %q, want the Claude terminal", buftype)
	}
	s.waitInput("@greet.txt#L2-3")
	s.typeKeys("what do these do?")
	s.waitInput("@greet.txt#L2-3 what do these do?")
	s.pressEnter()

	got := s.mainRequest(1).LastUserText()
	if !strings.Contains(got, "@greet.txt#L2-3 what do these do?") {
		t.Errorf("the model request lacks the prompt; its new user text:\n%s", tail(got))
	}
	assertMentionedLines(t, got, path)
	s.waitText("Lines two and three count up.", turnTimeout)
}

// assertMentionedLines checks that the model got lines 2-3 of path, and only those, as the
// CLI reads an @path#L2-3 mention: a Read of path (2.1.332 adds "offset":2,"limit":2 to its
// input and puts input and result in separate <system-reminder> blocks) and its result.
func assertMentionedLines(t *testing.T, got, path string) {
	t.Helper()
	for _, want := range []string{
		"Called the Read tool with the following input: {\"file_path\":\"" + path + "\"",
		"Result of calling the Read tool:\n2\ttwo\n3\tthree",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the model request lacks the mentioned lines; want\n%s\nin its new user text:\n%s", want, tail(got))
		}
	}
	if strings.Contains(got, "1\tone") {
		t.Errorf("the model got line 1 too; only lines 2-3 were mentioned:\n%s", tail(got))
	}
}

// startEdit opens greet.txt, starts Claude and asks for an edit: the scripted model reads the
// file, proposes "two" → "TWO" and, once the edit is decided, ends with final (if given).
// It returns when the proposal is shown, with the cursor in it.
func startEdit(t *testing.T, final string, before func(s *session)) (*session, string) {
	t.Helper()
	s := newSession(t)
	path := s.writeFile("greet.txt", original)
	s.api.Push(fakeapi.Read(path), fakeapi.Edit(path, "two", "TWO"))
	if final != "" {
		s.api.Push(fakeapi.Say(final))
	}
	if before != nil {
		before(s)
	}
	s.edit(path)
	s.open()
	s.prompt("Please make the second line of greet.txt louder")
	s.nextDiffOpened(path)
	s.goToTheProposal()
	if st := s.diffState(); !st.InProposal || st.Views != 1 || st.DiffWindows != 2 {
		t.Fatalf("after openDiff: %+v; want one view, two windows in diff mode, the cursor in the proposal", st)
	}
	if got := s.buffer(path); got.Text != original || got.Modified {
		t.Fatalf("while the diff is open the file's buffer is %+v; want it untouched", got)
	}
	s.assertTerminalFits("with the diff open")
	return s, path
}

// goToTheProposal does what the user does when a diff opens while they are in Claude's
// terminal, typing or not: it opens beside the terminal and leaves the keys there, so they
// go to it with :Claude review focus.
func (s *session) goToTheProposal() {
	s.t.Helper()
	s.assertStillInTerminal("when the diff opened")
	s.nv.Cmd("ClaudeDiffFocus")
	s.waitMode("n", "normal mode in the proposal")
}

// editResult waits for the n-th main request, the one after an Edit or Write was decided,
// and returns the text of the tool results it carries.
func (s *session) editResult(n int) string {
	s.t.Helper()
	req := s.mainRequest(n)
	var texts []string
	for _, b := range req.ToolResults() {
		texts = append(texts, b.Texts()...)
	}
	return strings.Join(texts, "\n")
}

// assertWrittenAsProposed checks an accepted edit of path: the model was
// told the file was updated (and nothing of the user modifying it), the
// CLI wrote the proposal, the buffer shows it, and no diff is left.
func (s *session) assertWrittenAsProposed(path, when string) {
	s.t.Helper()
	result := s.editResult(3)
	if want := "The file " + path + " has been updated successfully."; !strings.Contains(result, want) || strings.Contains(result, "modified") {
		s.t.Errorf("%s, the model got the tool result %q, want %q (and no word of the user modifying it)", when, result, want)
	}
	if got := s.fileContent(path); got != proposed {
		s.t.Errorf("%s, %s holds %q, want the proposal %q", when, path, got, proposed)
	}
	s.waitBuffer(path, proposed)
	s.assertNoDiff(when)
}

func TestAnEditAcceptedWithTheDiffKeymapIsWrittenByTheCLI(t *testing.T) {
	t.Parallel()
	s, path := startEdit(t, "The second line is louder now.", nil)

	s.nv.Keys(`\aa`)
	s.nextDiffClosed("accepted")
	s.assertWrittenAsProposed(path, "after accepting")
	s.waitText("The second line is louder now.", turnTimeout)
	s.waitText("Update(greet.txt)", turnTimeout)
}

func TestAnEditChangedInTheDiffIsWrittenAsTheUserLeftIt(t *testing.T) {
	t.Parallel()
	s, path := startEdit(t, "Noted your addition.", nil)

	s.nv.Keys("Goadded by user<Esc>")
	s.nv.Cmd("write") // :w in the proposal accepts it
	s.nextDiffClosed("accepted")
	const want = "one\nTWO\nthree\nadded by user\n"
	result := s.editResult(3)
	if !strings.Contains(result, "has been updated successfully") || !strings.Contains(result, "The user modified your proposed changes before accepting them") {
		t.Errorf("the model got the tool result %q, want it told that the user modified the proposal", result)
	}
	if got := s.fileContent(path); got != want {
		t.Errorf("after accepting an edited proposal, %s holds %q, want the user's text %q", path, got, want)
	}
	s.waitBuffer(path, want)
	s.assertNoDiff("after accepting")
	s.waitText("Noted your addition.", turnTimeout)
}

func TestAnEditRejectedWithTheDiffKeymapLeavesTheFileAlone(t *testing.T) {
	t.Parallel()
	s, path := startEdit(t, "", nil)

	s.nv.Keys(`\ad`)
	s.nextDiffClosed("rejected")
	s.waitRejected("greet.txt")
	s.waitScreen("the CLI to end the turn", turnTimeout, isReady)
	if got := s.fileContent(path); got != original {
		t.Errorf("after rejecting, %s holds %q, want it unchanged %q", path, got, original)
	}
	if got := s.buffer(path); got.Text != original || got.Modified {
		t.Errorf("after rejecting, the buffer is %+v, want it unchanged", got)
	}
	s.assertNoDiff("after rejecting")
	// A rejection stops the model's turn: no request carries a tool result for it.
	if n := len(s.api.Main()); n != 2 {
		t.Errorf("%d main requests after the rejection, want 2 (Read, Edit): the turn must stop", n)
	}
}

func TestAnEditAnsweredInTheCLIPromptClosesTheDiffView(t *testing.T) {
	t.Parallel()
	s, path := startEdit(t, "Done from the terminal.", nil)
	var before int
	s.nv.Lua(&before, `return #vim.api.nvim_list_bufs()`)

	// The CLI asks in its own terminal too; the user answers there.
	s.waitText(clienv.EditQuestion("greet.txt"), turnTimeout)
	s.waitText("Opened changes in Neovim", turnTimeout)
	s.answerYes(clienv.EditQuestion("greet.txt"))
	s.nextDiffClosed("closed")
	s.assertWrittenAsProposed(path, "after answering Yes in the CLI")
	s.assertTerminalFits("after the CLI decided")
	st := s.diffState()
	var after int
	s.nv.Lua(&after, `return #vim.api.nvim_list_bufs()`)
	if st.Windows != 2 || after >= before {
		t.Errorf("after the CLI decided: %d windows (want the file and Claude's), %d buffers (had %d with the diff open)", st.Windows, after, before)
	}
	s.waitText("Done from the terminal.", turnTimeout)
}

// startWrite asks Claude to create new.txt: the scripted model writes "brand new\n" and,
// once that is decided, ends with final (if given). It returns when the proposal is shown.
func startWrite(t *testing.T, final string) (*session, string) {
	t.Helper()
	s := newSession(t)
	path := s.env.Project + "/new.txt"
	s.api.Push(fakeapi.Write(path, "brand new\n"))
	if final != "" {
		s.api.Push(fakeapi.Say(final))
	}
	s.edit(s.writeFile("greet.txt", original))
	s.open()
	s.prompt("Please create new.txt")
	s.nextDiffOpened(path)
	s.goToTheProposal()
	s.assertTerminalFits("with the diff open")
	return s, path
}

func TestANewFileAcceptedInTheDiffIsWrittenExactlyAsProposed(t *testing.T) {
	t.Parallel()
	s, path := startWrite(t, "Created new.txt.")

	s.nv.Cmd("ClaudeDiffAccept")
	s.nextDiffClosed("accepted")
	result := s.editResult(2)
	if want := "File created successfully at: " + path; !strings.Contains(result, want) {
		t.Errorf("the model got the tool result %q, want %q", result, want)
	}
	if got := s.fileContent(path); got != "brand new\n" {
		t.Errorf("after accepting, %s holds %q, want exactly the proposal %q", path, got, "brand new\n")
	}
	s.assertNoDiff("after accepting")
	s.waitText("Created new.txt.", turnTimeout)
}

func TestANewFileRejectedInTheDiffIsNotCreated(t *testing.T) {
	t.Parallel()
	s, path := startWrite(t, "")

	s.nv.Cmd("quit") // closing the proposal rejects it
	s.nextDiffClosed("rejected")
	s.waitRejected("new.txt")
	s.waitScreen("the CLI to end the turn", turnTimeout, isReady)
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("after rejecting, %s exists (stat: %v); want nothing written", path, err)
	}
	s.assertNoDiff("after rejecting")
	if n := len(s.api.Main()); n != 1 {
		t.Errorf("%d main requests after the rejection, want 1: the turn must stop", n)
	}
}

// A linter that runs when a buffer is (re)loaded and reports, a moment later as real ones
// do, every line that shouts.
const shoutLinter = `
	local ns = vim.api.nvim_create_namespace('e2elint')
	vim.api.nvim_create_autocmd('BufReadPost', { callback = function(ev)
		vim.defer_fn(function()
			if not vim.api.nvim_buf_is_valid(ev.buf) then return end
			local found = {}
			for i, l in ipairs(vim.api.nvim_buf_get_lines(ev.buf, 0, -1, false)) do
				if l:find('TWO', 1, true) then
					table.insert(found, { lnum = i - 1, col = 0, message = 'shouting is not allowed',
						severity = vim.diagnostic.severity.ERROR, source = 'e2elint', code = 'E42' })
				end
			end
			vim.diagnostic.set(ns, ev.buf, found)
		end, 100)
	end })`

func TestANewDiagnosticAfterAnEditReachesTheModel(t *testing.T) {
	t.Parallel()
	s, path := startEdit(t, "I will fix the shouting.", func(s *session) { s.nv.Lua(nil, shoutLinter) })

	s.nv.Keys(`\aa`)
	s.nextDiffClosed("accepted")
	got := s.mainRequest(3).LastUserText()
	want := "<new-diagnostics>The following new diagnostic issues were detected:\n\ngreet.txt:\n" +
		"  ✘ [Line 2:1] shouting is not allowed [E42] (e2elint)</new-diagnostics>"
	if !strings.Contains(got, want) {
		t.Errorf("the request after the edit lacks the new diagnostic; want\n%s\nin its new user text:\n%s", want, tail(got))
	}
	if got := s.fileContent(path); got != proposed {
		t.Errorf("%s holds %q, want %q", path, got, proposed)
	}
	var n int
	s.nv.Lua(&n, `return #vim.diagnostic.get(vim.fn.bufnr(...))`, path)
	if n != 1 {
		t.Errorf("Neovim has %d diagnostics for %s, want the linter's 1", n, path)
	}
	s.waitText("Found 1 new diagnostic issue in 1 file", turnTimeout)
	s.waitText("I will fix the shouting.", turnTimeout)
}

// tail shortens a request text for a failure message: the editor context the tests look
// for comes last, after a long listing of agents and skills on the first prompt.
func tail(s string) string {
	const max = 1500
	if len(s) <= max {
		return s
	}
	return "…" + s[len(s)-max:]
}
