package e2e

// The editor side: Claude's diff views, file buffers and files on disk.

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// nextDiffOpened waits for the plugin's ClaudeDiffOpened and checks it is about path.
func (s *session) nextDiffOpened(path string) map[string]any {
	s.t.Helper()
	ev := nvimtest.Next(s.t, s.diffOpened, "User ClaudeDiffOpened (the CLI's openDiff)", turnTimeout)
	if ev["path"] != path {
		s.t.Fatalf("ClaudeDiffOpened %v, want path %s", ev, path)
	}
	if tab, _ := ev["tab_name"].(string); !strings.HasPrefix(tab, "✻ [Claude Code] "+filepath.Base(path)+" (") {
		s.t.Errorf("ClaudeDiffOpened tab_name %q, want the CLI's \"✻ [Claude Code] %s (…) ⧉\"", tab, filepath.Base(path))
	}
	return ev
}

// nextDiffClosed waits for ClaudeDiffClosed and checks its result.
func (s *session) nextDiffClosed(result string) map[string]any {
	s.t.Helper()
	ev := nvimtest.Next(s.t, s.diffClosed, "User ClaudeDiffClosed", turnTimeout)
	if ev["result"] != result {
		s.t.Errorf("ClaudeDiffClosed %v, want result %q", ev, result)
	}
	return ev
}

// diffState describes Claude's diffs in the editor: our open views, windows in diff mode,
// proposal buffers, and whether the current window shows a proposal (in normal mode).
type diffState struct {
	Views       int  `msgpack:"views"`
	DiffWindows int  `msgpack:"diff_windows"`
	Proposals   int  `msgpack:"proposals"`
	InProposal  bool `msgpack:"in_proposal"`
	Windows     int  `msgpack:"windows"`
}

func (s *session) diffState() diffState {
	s.t.Helper()
	var st diffState
	s.nv.Lua(&st, `
		local d, p = 0, 0
		for _, w in ipairs(vim.api.nvim_list_wins()) do if vim.wo[w].diff then d = d + 1 end end
		for _, b in ipairs(vim.api.nvim_list_bufs()) do if vim.b[b].claude_diff then p = p + 1 end end
		return {
			views = #require('claude.diff').ids(), diff_windows = d, proposals = p,
			in_proposal = vim.b.claude_diff ~= nil, windows = #vim.api.nvim_list_wins(),
		}`)
	return st
}

// assertNoDiff checks that nothing of a diff view is left.
func (s *session) assertNoDiff(when string) {
	s.t.Helper()
	if st := s.diffState(); st.Views != 0 || st.DiffWindows != 0 || st.Proposals != 0 {
		s.t.Errorf("%s: %d diff views, %d windows in diff mode, %d proposal buffers left; want none", when, st.Views, st.DiffWindows, st.Proposals)
	}
}

// fileContent returns the file on disk, or fails the test.
func (s *session) fileContent(path string) string {
	s.t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		s.t.Fatal(err)
	}
	return string(b)
}

// bufferState is a file buffer as Neovim has it.
type bufferState struct {
	Loaded   bool   `msgpack:"loaded"`
	Text     string `msgpack:"text"`
	Modified bool   `msgpack:"modified"`
}

func (s *session) buffer(path string) bufferState {
	s.t.Helper()
	var b bufferState
	s.nv.Lua(&b, `
		local buf = vim.fn.bufnr(vim.fn.fnameescape(...))
		if buf < 1 or not vim.api.nvim_buf_is_loaded(buf) then return { loaded = false, text = '', modified = false } end
		return {
			loaded = true, modified = vim.bo[buf].modified,
			text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n') .. '\n',
		}`, path)
	return b
}

// waitBuffer waits until the buffer of path holds want (with a final newline) unmodified:
// the plugin reloads buffers the CLI wrote.
func (s *session) waitBuffer(path, want string) {
	s.t.Helper()
	var got bufferState
	deadline := time.Now().Add(turnTimeout)
	for {
		got = s.buffer(path)
		if got.Loaded && got.Text == want && !got.Modified {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("timed out waiting for the buffer of %s to be reloaded with %q; it is %+v", path, want, got)
		}
		time.Sleep(pollInterval)
	}
}
