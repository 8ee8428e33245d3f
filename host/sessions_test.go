package host

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/lockfile"
	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// absenceWait bounds how long a test listens for a notification that must
// not come (one that would come arrives within milliseconds).
const absenceWait = time.Second

// sessionInfo is one entry of ClaudeHostStatus's sessions.
type sessionInfo struct {
	Session  int    `msgpack:"session"`
	Cwd      string `msgpack:"cwd"`
	Port     int    `msgpack:"port"`
	Lockfile string `msgpack:"lockfile"`
}

// twoSessions is a Neovim with a Claude session in each of two tab pages,
// two worktrees of one project (a and b), and a client connected to each
// session's server as the CLI would.
type twoSessions struct {
	*env
	dirA, dirB   string
	fileA, fileB string
	a, b         *mcptest.Client
	infoA, infoB sessionInfo
}

func newTwoSessions(t *testing.T) *twoSessions {
	e := newEnv(t)
	e.nv.Lua(nil, idleCLI)
	s := &twoSessions{env: e}
	s.dirA, s.dirB = filepath.Join(e.nv.Dir, "a"), filepath.Join(e.nv.Dir, "b")
	for _, dir := range []string{s.dirA, s.dirB} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s.fileA = e.nv.WriteFile("a/greet.txt", "hello from a\nsecond line\n")
	s.fileB = e.nv.WriteFile("b/greet.txt", "hello from b\nsecond line\n")

	e.nv.Cmd("cd " + s.dirA)
	e.nv.Cmd("edit " + s.fileA)
	e.nv.Cmd("ClaudeOpen")
	e.nv.Cmd("stopinsert | wincmd p")
	e.nv.Cmd("tabnew")
	e.nv.Cmd("tcd " + s.dirB)
	e.nv.Cmd("edit " + s.fileB)
	e.nv.Cmd("ClaudeOpen")
	e.nv.Cmd("stopinsert | wincmd p")

	var sessions []sessionInfo
	e.nv.Lua(&sessions, `return require('claude').status().sessions or {}`)
	if len(sessions) != 2 {
		t.Fatalf("after :Claude open in two tab pages with two cwds: sessions %+v, want two; messages:\n%s", sessions, e.nv.Messages())
	}
	s.infoA, s.infoB = sessions[0], sessions[1]
	s.a, s.b = s.dialSession(s.infoA), s.dialSession(s.infoB)
	return s
}

func (s *twoSessions) dialSession(info sessionInfo) *mcptest.Client {
	s.t.Helper()
	lock, err := lockfile.Read(info.Lockfile)
	if err != nil {
		s.t.Fatalf("read %s: %v", info.Lockfile, err)
	}
	c := mcptest.Dial(s.t, "ws://127.0.0.1:"+itoa(info.Port), lock.AuthToken)
	connected := s.nv.UserEvent("ClaudeConnected") // see env.connect
	c.Initialize()
	nvimtest.Next(s.t, connected, "User ClaudeConnected after the client initialized", waitTimeout)
	return c
}

// tab goes to tab page n (1-based) as the user would.
func (s *twoSessions) tab(n int) {
	s.t.Helper()
	s.nv.Cmd("tabnext " + itoa(n))
}

// startDiff sends openDiff from client c.
func startDiffFrom(t *testing.T, c *mcptest.Client, path, contents, tabName string) *mcptest.Pending {
	t.Helper()
	p, err := c.Start("tools/call", map[string]any{"name": "openDiff", "arguments": map[string]any{
		"old_file_path": path, "new_file_path": path, "new_file_contents": contents, "tab_name": tabName,
	}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// notificationsFor collects c's notifications of method for absenceWait.
func notificationsFor(c *mcptest.Client, method string) []string {
	var got []string
	deadline := time.Now().Add(absenceWait)
	for time.Now().Before(deadline) {
		raw, err := c.WaitNotification(method, time.Until(deadline))
		if err != nil {
			break
		}
		got = append(got, string(raw))
	}
	return got
}

func TestEachSessionHasItsOwnServerLockFileAndFolder(t *testing.T) {
	s := newTwoSessions(t)
	if s.infoA.Port == s.infoB.Port {
		t.Fatalf("both sessions on port %d", s.infoA.Port)
	}
	if s.infoA.Session != 1 || s.infoB.Session != 2 {
		t.Errorf("sessions %d and %d, want 1 and 2", s.infoA.Session, s.infoB.Session)
	}
	lockB, err := lockfile.Read(s.infoB.Lockfile)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(lockB.WorkspaceFolders, []string{s.dirB}) {
		t.Errorf("the second session's lock names folders %q, want only its worktree %q", lockB.WorkspaceFolders, s.dirB)
	}
	// The first session follows Neovim's directories, less b's: a CLI
	// started in b's worktree must not find a's server.
	nvimtest.Wait(t, "a's lock file to give up b's folder", waitTimeout, func() bool {
		lockA, err := lockfile.Read(s.infoA.Lockfile)
		return err == nil && slices.Equal(lockA.WorkspaceFolders, []string{s.dirA})
	})
	if got := strings.Join(callTool(t, s.a, "getWorkspaceFolders", map[string]any{}), ""); !strings.Contains(got, s.dirA) || strings.Contains(got, s.dirB) {
		t.Errorf("session a's getWorkspaceFolders = %q, want %s and not b's %s", got, s.dirA, s.dirB)
	}
	// Each CLI hears its own folder from getWorkspaceFolders.
	if got := callTool(t, s.b, "getWorkspaceFolders", map[string]any{}); !strings.Contains(strings.Join(got, ""), s.dirB) || strings.Contains(strings.Join(got, ""), s.dirA) {
		t.Errorf("session b's getWorkspaceFolders = %q, want %s alone", got, s.dirB)
	}
	// Each terminal runs its CLI in its own worktree.
	var cwds []string
	s.nv.Lua(&cwds, `
		local out = {}
		for _, x in ipairs(require('claude.terminal').sessions()) do table.insert(out, x.cwd) end
		return out`)
	if !slices.Equal(cwds, []string{s.dirA, s.dirB}) {
		t.Errorf("session cwds %q, want %q", cwds, []string{s.dirA, s.dirB})
	}

	// :Claude close in b's tab page ends b only: its lock goes, a's stays.
	s.tab(2)
	s.nv.Cmd("ClaudeClose")
	nvimtest.Wait(t, "b's lock file to go", waitTimeout, func() bool {
		_, err := os.Stat(s.infoB.Lockfile)
		return os.IsNotExist(err)
	})
	select {
	case <-s.b.Done():
	case <-time.After(waitTimeout):
		t.Errorf("b's client still connected after :Claude close of its session")
	}
	if _, err := os.Stat(s.infoA.Lockfile); err != nil {
		t.Errorf("a's lock file after b closed: %v", err)
	}
	if got := callTool(t, s.a, "getWorkspaceFolders", map[string]any{}); len(got) == 0 {
		t.Errorf("a stopped answering after b closed")
	}
}

func TestShutdownRemovesEverySessionsLockFile(t *testing.T) {
	s := newTwoSessions(t)
	if err := s.host.Shutdown(); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{s.infoA.Lockfile, s.infoB.Lockfile} {
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("%s after the host shut down: %v, want it removed", path, err)
		}
	}
	for _, c := range []*mcptest.Client{s.a, s.b} {
		select {
		case <-c.Done():
		case <-time.After(waitTimeout):
			t.Errorf("a client is still connected after the host shut down")
		}
	}
}

func TestSelectionsAndMentionsReachOnlyTheSessionOfTheirTabPage(t *testing.T) {
	s := newTwoSessions(t)
	// In b's tab page (current since its :Claude open): select a line.
	s.tab(2)
	s.nv.Cmd("normal! ggVj")
	sel := selectionWhere(t, s.b, func(x selectionChanged) bool {
		return x.FilePath == s.fileB && !x.Selection.IsEmpty
	})
	if !strings.Contains(sel.Text, "hello from b") {
		t.Errorf("b's selection text %q", sel.Text)
	}
	s.nv.Cmd("execute \"normal! \\<Esc>\"")
	for _, raw := range notificationsFor(s.a, "selection_changed") {
		if strings.Contains(raw, "hello from b") || strings.Contains(raw, filepath.ToSlash(s.fileB)) {
			t.Errorf("a selection in b's tab page reached session a: %s", raw)
		}
	}

	// :Claude send in a's tab page mentions to a alone.
	s.tab(1)
	s.nv.Cmd("wincmd p") // a's file window, not its terminal
	s.nv.Cmd("stopinsert")
	var name string
	s.nv.Lua(&name, `return vim.api.nvim_buf_get_name(0)`)
	if name != s.fileA {
		s.nv.Cmd("edit " + s.fileA)
	}
	s.nv.Cmd("1,2ClaudeSend")
	raw, err := s.a.WaitNotification("at_mentioned", waitTimeout)
	if err != nil {
		t.Fatalf("a got no at_mentioned: %v", err)
	}
	var m struct {
		FilePath string `json:"filePath"`
	}
	if err := json.Unmarshal(raw, &m); err != nil || m.FilePath != s.fileA {
		t.Errorf("a's at_mentioned %s, want %s", raw, s.fileA)
	}
	// Mentions reach a client in the order they were made, none dropped: had
	// a's reached b, it would come before one made in b's tab page now.
	s.tab(2)
	s.nv.Cmd("ClaudeAdd " + s.fileB)
	raw, err = s.b.WaitNotification("at_mentioned", waitTimeout)
	if err != nil {
		t.Fatalf("b got no at_mentioned for its own :Claude add: %v", err)
	}
	if err := json.Unmarshal(raw, &m); err != nil || m.FilePath != s.fileB {
		t.Errorf("a's mention reached b too: b's first at_mentioned is %s, want its own %s", raw, s.fileB)
	}
}

func TestATabPageOfAnotherDirectoryGetsItsOwnSessionOnFirstUse(t *testing.T) {
	s := newTwoSessions(t)
	dirC := filepath.Join(s.nv.Dir, "c")
	if err := os.MkdirAll(dirC, 0o755); err != nil {
		t.Fatal(err)
	}
	fileC := s.nv.WriteFile("c/notes.txt", "third worktree\n")
	s.nv.Cmd("tabnew")
	s.nv.Cmd("tcd " + dirC)
	s.nv.Cmd("edit " + fileC)
	s.nv.Cmd("normal! V")
	s.nv.Cmd("execute \"normal! \\<Esc>\"")
	// Neither session hears about a file in a tab page of neither.
	for name, c := range map[string]*mcptest.Client{"a": s.a, "b": s.b} {
		for _, raw := range notificationsFor(c, "selection_changed") {
			if strings.Contains(raw, "notes.txt") {
				t.Errorf("session %s heard of a selection in a tab page of no session: %s", name, raw)
			}
		}
	}
	// :Claude send there starts a third session, in that directory.
	s.nv.Cmd("ClaudeSend")
	var cwds []string
	s.nv.Lua(&cwds, `
		local out = {}
		for _, x in ipairs(require('claude.terminal').sessions()) do table.insert(out, x.cwd) end
		return out`)
	if !slices.Equal(cwds, []string{s.dirA, s.dirB, dirC}) {
		t.Errorf("after :Claude send in a third directory, sessions in %q; want a third in %s", cwds, dirC)
	}
}

func TestEachSessionsDiffsOpenInItsTabPageAndAnswerItsOwnCLI(t *testing.T) {
	s := newTwoSessions(t)
	opened := s.nv.UserEvents("ClaudeDiffOpened")
	// Both CLIs name their tab the same way (same file name, same hash
	// scheme): neither may replace the other's.
	const tabName = "✻ [Claude Code] greet.txt ⧉"

	// The user is in a's tab page when b proposes: b's diff waits for b's.
	s.tab(1)
	pb := startDiffFrom(t, s.b, s.fileB, "hello from b, changed\nsecond line\n", tabName)
	nvimtest.Wait(t, "b's proposal to be registered", waitTimeout, func() bool {
		var n int
		s.nv.Lua(&n, `return require('claude.diff').waiting(2)`)
		return n == 1
	})
	var shown bool
	s.nv.Lua(&shown, `for _, b in ipairs(vim.api.nvim_list_bufs()) do if vim.b[b].claude_diff and #vim.fn.win_findbuf(b) > 0 then return true end end return false`)
	if shown {
		t.Fatalf("b's proposal opened in a's tab page")
	}
	if msgs := s.nv.Messages(); !strings.Contains(msgs, "opens in that session's tab page") {
		t.Errorf("the user was not told where b's proposal waits; messages: %q", msgs)
	}
	var line string
	s.nv.Lua(&line, `return require('claude').statusline()`)
	if !strings.Contains(line, "a [1/2]") || !strings.Contains(line, "b waits") {
		t.Errorf("statusline %q, want the current session a and b waiting", line)
	}

	// a proposes too, in its own tab page: it opens here.
	pa := startDiffFrom(t, s.a, s.fileA, "hello from a, changed\nsecond line\n", tabName)
	if ev := nvimtest.Next(t, opened, "a's diff to open", waitTimeout); ev["path"] != s.fileA {
		t.Errorf("opened %v, want a's file %s", ev, s.fileA)
	}
	var tabA int
	s.nv.Lua(&tabA, `return vim.fn.tabpagenr()`)
	if tabA != 1 {
		t.Errorf("a's diff opened with tab page %d current, want 1", tabA)
	}

	// a's closeAllDiffTabs closes a's proposal, never b's.
	callTool(t, s.a, "closeAllDiffTabs", map[string]any{})
	if got := answer(t, pa); got[0] != "DIFF_REJECTED" {
		t.Errorf("a's openDiff after its closeAllDiffTabs: %q", got)
	}
	var waitingB int
	s.nv.Lua(&waitingB, `return require('claude.diff').waiting(2)`)
	if waitingB != 1 {
		t.Fatalf("a's closeAllDiffTabs closed b's proposal too (b has %d waiting)", waitingB)
	}

	// Going to b's tab page shows b's proposal there; accepting answers b.
	s.tab(2)
	ev := nvimtest.Next(t, opened, "b's diff to open in b's tab page", waitTimeout)
	if ev["tab_name"] != tabName {
		t.Errorf("opened %v", ev)
	}
	var tabB int
	s.nv.Lua(&tabB, `return vim.fn.tabpagenr()`)
	if tabB != 2 {
		t.Errorf("b's diff opened with tab page %d current, want 2", tabB)
	}
	s.nv.Cmd("ClaudeDiffFocus")
	s.nv.Cmd("ClaudeDiffAccept")
	if got := answer(t, pb); got[0] != "FILE_SAVED" || !strings.Contains(got[1], "hello from b, changed") {
		t.Errorf("b's openDiff answer %q, want b's proposal saved", got)
	}
}

func TestClaudeSessionsListsAndSwitches(t *testing.T) {
	s := newTwoSessions(t)
	s.tab(1)
	// The picker lists both; choosing b goes to b's tab page.
	s.nv.Lua(nil, `
		vim.ui.select = function(items, opts, on_choice)
			_G.picked = {}
			for _, it in ipairs(items) do table.insert(_G.picked, opts.format_item(it)) end
			on_choice(items[2])
		end`)
	s.nv.Cmd("ClaudeSessions")
	var items []string
	s.nv.Lua(&items, `return _G.picked`)
	if len(items) != 2 || !strings.Contains(items[0], "current") || !strings.Contains(items[1], filepath.Base(s.dirB)) {
		t.Errorf("picker items %q, want a (current) and b", items)
	}
	var tabnr int
	s.nv.Lua(&tabnr, `return vim.fn.tabpagenr()`)
	if tabnr != 2 {
		t.Errorf("after choosing b, tab page %d is current, want 2", tabnr)
	}
	if msgs := commandMessages(t, s.nv, "ClaudeStatus"); !strings.Contains(msgs, "session 2 (current)") || !strings.Contains(msgs, "session 1") {
		t.Errorf(":Claude status with two sessions:\n%s", msgs)
	}
	s.nv.Cmd("checkhealth claude")
	var report string
	s.nv.Lua(&report, `return table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n")`)
	if want := "session 2 (" + s.dirB; !strings.Contains(report, want) {
		t.Errorf(":checkhealth claude does not list the second session (%q):\n%s", want, report)
	}
}

// :Claude status in either tab page: its header describes that tab page's
// session's server, and each session is shown with its own directory (not
// the current tab page's).
func TestClaudeStatusDescribesEachSessionWhereItIs(t *testing.T) {
	s := newTwoSessions(t)
	for _, tt := range []struct {
		tab  int
		here sessionInfo
	}{
		{tab: 1, here: s.infoA},
		{tab: 2, here: s.infoB},
	} {
		s.tab(tt.tab)
		msgs := commandMessages(t, s.nv, "ClaudeStatus")
		lines := strings.Split(strings.TrimSpace(msgs), "\n")
		header := fmt.Sprintf("listening on 127.0.0.1:%d", tt.here.Port)
		if !strings.Contains(lines[0], header) || !strings.Contains(msgs, "lock file: "+tt.here.Lockfile) {
			t.Errorf(":Claude status in tab page %d:\n%s\nwant its header to describe session %d's server (%s, %s)", tt.tab, msgs, tt.here.Session, header, tt.here.Lockfile)
		}
		for _, want := range []string{
			fmt.Sprintf("session 1%s: %s, 127.0.0.1:%d", map[bool]string{true: " (current)"}[tt.tab == 1], s.dirA, s.infoA.Port),
			fmt.Sprintf("session 2%s: %s, 127.0.0.1:%d", map[bool]string{true: " (current)"}[tt.tab == 2], s.dirB, s.infoB.Port),
		} {
			if !strings.Contains(msgs, want) {
				t.Errorf(":Claude status in tab page %d:\n%s\nwant a line with %q", tt.tab, msgs, want)
			}
		}
	}
}
