package host

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// Files Claude changes on disk reach the buffers showing them
// (lua/claude/reload.lua): reloaded unless they hold unsaved edits, after
// an accepted diff and after one decided in the CLI's own prompt, and
// before a diff compares with them.

func TestAFileChangedOnDiskIsReloadedUnlessTheBufferHasUnsavedEdits(t *testing.T) {
	e := newEnv(t)
	clean := e.nv.WriteFile("clean.txt", "old\n")
	dirty := e.nv.WriteFile("dirty.txt", "old\n")
	e.start()
	e.nv.Cmd("edit " + dirty + " | call setline(1, 'mine') | edit " + clean)
	for _, p := range []string{clean, dirty} {
		writeOnDisk(t, p, "from Claude\n")
	}
	e.nv.Lua(nil, `require('claude.reload').check()`)
	var lines map[string]string
	e.nv.Lua(&lines, `local a, b = ... return { clean = vim.fn.getbufline(vim.fn.bufnr(a), 1)[1], dirty = vim.fn.getbufline(vim.fn.bufnr(b), 1)[1] }`, clean, dirty)
	if lines["clean"] != "from Claude" {
		t.Errorf("the clean buffer shows %q, want Claude's text reloaded", lines["clean"])
	}
	if lines["dirty"] != "mine" {
		t.Errorf("the buffer with unsaved edits shows %q, want the user's text kept", lines["dirty"])
	}
	if msgs := e.nv.Messages(); !strings.Contains(msgs, "dirty.txt changed on disk but has unsaved edits") {
		t.Errorf("no warning about the kept edits; messages: %q", msgs)
	}
}

func TestAnAcceptedDiffReloadsTheFileWhenTheCLIWritesIt(t *testing.T) {
	d := newDiffEnv(t, "")
	p := d.openDiff(d.path, proposed, tab)
	d.nv.Cmd("write")
	answer(t, p)
	// The CLI writes the file a moment after FILE_SAVED.
	writeOnDisk(t, d.path, proposed)
	waitLine(t, d.nv, d.path, 2, "TWO", "the buffer to show the new text")
}

// Accepting in the CLI's own prompt: the CLI sends close_tab, then writes
// the file; the user's buffer must follow even if they stay in Claude's
// terminal (nothing else would trigger a check).
func TestADiffDecidedInTheCLIPromptReloadsTheFileWhenWritten(t *testing.T) {
	d := newDiffEnv(t, "")
	p := d.openDiff(d.path, proposed, tab)
	callTool(t, d.c, "close_tab", map[string]string{"tab_name": tab})
	answer(t, p)
	writeOnDisk(t, d.path, proposed)
	waitLine(t, d.nv, d.path, 2, "TWO", "the buffer to show the CLI's write")
}

func TestADiffComparesWithTheFileAsItIsOnDiskNow(t *testing.T) {
	// Focus stays in Claude's terminal: no BufEnter of a file buffer does it.
	d := newDiffEnv(t, `require('claude').setup({ terminal_cmd = { 'sh', '-c', 'exec cat', 'cli' }, permission_mode = false, diff = { keep_terminal_focus = true } })`)
	d.nv.Cmd("ClaudeOpen")
	// Claude wrote the file without asking (an allowed edit); the buffer
	// has not looked since.
	writeOnDisk(t, d.path, "one\ntwo, by Claude\nthree\n")
	p := d.openDiff(d.path, proposed, tab)
	var left []string
	d.nv.Lua(&left, `return vim.fn.getbufline(vim.fn.bufnr(...), 1, '$')`, d.path)
	if strings.Join(left, "\n") != "one\ntwo, by Claude\nthree" {
		t.Errorf("the diff's left side shows %q, want the file as it is on disk", left)
	}
	d.nv.Cmd("ClaudeDiffDeny")
	answer(t, p)
}

// The CLI writes the file right after close_tab's answer, which may be before Neovim tears
// the view down (close_tab answers first): the write must still reach the buffer. Here the
// write comes as early as it can, within the close itself, ahead of the tear-down.
func TestAWriteRightAfterCloseTabIsReloaded(t *testing.T) {
	d := newDiffEnv(t, "")
	p := d.openDiff(d.path, proposed, tab)
	d.nv.Lua(nil, `
		local path, text = ...
		-- Only the watch: the checks on BufEnter and the like, which the tear-down's
		-- window moves happen to fire here, do not come while the user stays in Claude's
		-- terminal.
		require('claude.reload').enable(false)
		local diff = require('claude.diff')
		local close = diff.close
		diff.close = function(...)
			local closed = close(...)
			diff.close = close
			local f = assert(io.open(path, 'w'))
			f:write(text)
			f:close()
			return closed
		end`, d.path, proposed)
	callTool(t, d.c, "close_tab", map[string]string{"tab_name": tab})
	answer(t, p)
	waitLine(t, d.nv, d.path, 2, "TWO", "the buffer to show the CLI's write")
}

// The watch for the CLI's write is set up when a proposal opens (close_tab then only arms
// it) and goes with the proposal when nothing will be written: an open file-event handle
// per rejected proposal would pile up for the editor's whole life.
func TestAProposalsWatchGoesWhenItIsRejectedAndWhenTheWriteCame(t *testing.T) {
	d := newDiffEnv(t, "")
	var pid int
	d.nv.Lua(&pid, `return vim.fn.getpid()`)
	watches := func() int { return inotifyWatches(t, pid) }
	before := watches()
	p := d.openDiff(d.path, proposed, tab)
	if got := watches(); got != before+1 {
		t.Fatalf("%d file watches while the proposal shows, want %d", got, before+1)
	}
	d.nv.Cmd("ClaudeDiffDeny")
	answer(t, p)
	if got := watches(); got != before {
		t.Errorf("%d file watches after the rejection, want %d", got, before)
	}

	p = d.openDiff(d.path, proposed, tab)
	callTool(t, d.c, "close_tab", map[string]string{"tab_name": tab})
	answer(t, p)
	writeOnDisk(t, d.path, proposed)
	waitLine(t, d.nv, d.path, 2, "TWO", "the buffer to show the CLI's write")
	// The buffer may have been reloaded by the tear-down's window moves before the watch saw
	// the write settle; the watch goes once it has.
	nvimtest.Wait(t, "the watch to go after the CLI's write", waitTimeout, func() bool { return watches() == before })
}

// inotifyWatches counts the directories process pid watches through inotify, as the kernel
// lists them (libuv watches a directory once however many handles watch it). Neovim 0.10's
// vim.uv.walk cannot list its handles: it asserts on Neovim's own.
func inotifyWatches(t *testing.T, pid int) int {
	t.Helper()
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, fd := range fds {
		if link, _ := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name())); link != "anon_inode:inotify" {
			continue
		}
		info, err := os.ReadFile(fmt.Sprintf("/proc/%d/fdinfo/%s", pid, fd.Name()))
		if err != nil {
			t.Fatal(err)
		}
		n += strings.Count(string(info), "inotify wd:")
	}
	return n
}
