package host

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

type atMentioned struct {
	FilePath  string `json:"filePath"`
	LineStart *int   `json:"lineStart"`
	LineEnd   *int   `json:"lineEnd"`
}

func lines(m atMentioned) string {
	if m.LineStart == nil || m.LineEnd == nil {
		return "whole"
	}
	return itoa(*m.LineStart) + "-" + itoa(*m.LineEnd)
}

// A stand-in for the CLI that just stays alive, so :Claude send has a
// terminal to focus without running the real claude.
const idleCLI = `require('claude').setup({ terminal_cmd = { 'sh', '-c', 'exec cat', 'cli' }, permission_mode = false })`

func TestAMentionMadeBeforeTheCLIConnectsIsDeliveredWhenItDoes(t *testing.T) {
	e := newEnv(t)
	e.nv.Lua(nil, idleCLI)
	path := e.nv.WriteFile("m.txt", "1\n2\n3\n4\n")
	e.nv.Cmd("edit " + path)
	e.nv.Cmd("2,3ClaudeSend")

	// The terminal opened and has focus, so the user sees the mention land.
	var buftype string
	e.nv.Lua(&buftype, `return vim.bo.buftype`)
	if buftype != "terminal" {
		t.Errorf("after :Claude send the current buffer is %q, want the Claude terminal", buftype)
	}

	c := e.connect()
	got := mcptest.Next[atMentioned](t, c, "at_mentioned")
	if got.FilePath != path || lines(got) != "1-2" {
		t.Errorf("at_mentioned = %s %s, want %s 1-2 (0-based)", got.FilePath, lines(got), path)
	}
}

func TestMentionsOfRangesFilesAndDirectories(t *testing.T) {
	e := newEnv(t)
	e.nv.Lua(nil, idleCLI)
	path := e.nv.WriteFile("dir/m.txt", "1\n2\n3\n4\n")
	c := e.connect()

	e.nv.Cmd("edit " + path)
	e.nv.Keys("2GVj<Esc>")
	e.nv.Cmd("'<,'>ClaudeSend")
	if got := mcptest.Next[atMentioned](t, c, "at_mentioned"); got.FilePath != path || lines(got) != "1-2" {
		t.Errorf("visual :Claude send sent %s %s, want %s 1-2", got.FilePath, lines(got), path)
	}

	e.nv.Cmd("wincmd p")
	e.nv.Cmd("ClaudeSend")
	if got := mcptest.Next[atMentioned](t, c, "at_mentioned"); got.FilePath != path || lines(got) != "whole" {
		t.Errorf(":Claude send without a range sent %s %s, want the whole file", got.FilePath, lines(got))
	}

	// lazy.nvim key specs map visual mode to "<Cmd>ClaudeSend<CR>": no
	// range, the selection still up.
	e.nv.Cmd("wincmd p")
	e.nv.Cmd("xnoremap <buffer> gs <Cmd>ClaudeSend<CR>")
	e.nv.Keys("4GVkgs")
	if got := mcptest.Next[atMentioned](t, c, "at_mentioned"); got.FilePath != path || lines(got) != "2-3" {
		t.Errorf("<Cmd>ClaudeSend from visual mode sent %s %s, want %s 2-3", got.FilePath, lines(got), path)
	}
	var mode string
	e.nv.Lua(&mode, `return vim.api.nvim_get_mode().mode`)
	if mode == "v" || mode == "V" {
		t.Errorf("still in visual mode %q after sending the selection", mode)
	}

	e.nv.Cmd("ClaudeAdd dir/m.txt 4 3")
	if got := mcptest.Next[atMentioned](t, c, "at_mentioned"); got.FilePath != path || lines(got) != "2-3" {
		t.Errorf(":Claude add dir/m.txt 4 3 sent %s %s, want %s 2-3", got.FilePath, lines(got), path)
	}

	e.nv.Cmd("ClaudeAdd dir")
	got := mcptest.Next[atMentioned](t, c, "at_mentioned")
	if !strings.HasSuffix(got.FilePath, "/dir/") || lines(got) != "whole" {
		t.Errorf(":Claude add dir sent %s %s, want the directory path ending in /", got.FilePath, lines(got))
	}
}

func TestClaudeAddRejectsAMissingPath(t *testing.T) {
	e := newEnv(t)
	e.nv.Lua(nil, idleCLI)
	if msg := commandMessages(t, e.nv, "ClaudeAdd no/such/file"); !strings.Contains(msg, "claude.nvim: no such file or directory: no/such/file") {
		t.Errorf(":Claude add no/such/file said %q, want a clear error naming the path", msg)
	}
}

// Paths that name nothing Claude can take get a clear message and send nothing: the CLI
// would type a bare "@" for its own working directory, and `%` in Claude's terminal names
// no file.
func TestClaudeAddSaysWhatItCannotSend(t *testing.T) {
	for _, tt := range []struct{ name, setup, cmd, want string }{
		{"the working directory", "", "ClaudeAdd .", ". is Claude's working directory: Claude sees all of it already"},
		{"the current buffer, Claude's terminal", "ClaudeOpen", "ClaudeAdd %", "Claude's terminal is not a file; use :Claude add {path}"},
		{"the current buffer, a terminal", "terminal", "ClaudeAdd %", "is not a file; use :Claude add {path}"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			e.nv.Lua(nil, idleCLI)
			c := e.connect()
			if tt.setup != "" {
				e.nv.Cmd(tt.setup)
			}
			if msg := commandMessages(t, e.nv, tt.cmd); !strings.Contains(msg, tt.want) {
				t.Errorf(":%s said %q, want %q", tt.cmd, msg, tt.want)
			}
			// Nothing went out: the next mention is the first the client sees.
			path := e.nv.WriteFile("ok.txt", "1\n")
			e.nv.Cmd("ClaudeAdd " + path)
			if got := mcptest.Next[atMentioned](t, c, "at_mentioned"); got.FilePath != path {
				t.Errorf("after :%s the client got a mention of %s first, want none before %s", tt.cmd, got.FilePath, path)
			}
		})
	}
}

// :Claude type types into Claude's input and leaves it there; :Claude ask
// without a question asks for one (vim.ui.input) and types the mention and
// the question, then Enter.
func TestClaudeSendTextAndClaudeAskTypeIntoClaudesInput(t *testing.T) {
	e := newEnv(t)
	e.nv.Lua(nil, idleCLI)
	path := e.nv.WriteFile("m.txt", "1\n2\n3\n")
	e.connect()
	e.nv.Cmd("ClaudeOpen") // in Normal mode (terminal.focus_insert)
	e.nv.Cmd("wincmd p | edit " + path)
	terminalText := func() string {
		var text string
		e.nv.Lua(&text, `return table.concat(vim.api.nvim_buf_get_lines(require('claude.terminal').buf(), 0, -1, false), "\n")`)
		return text
	}
	e.nv.Cmd("ClaudeSendText half a thought")
	nvimtest.Wait(t, "the text in Claude's terminal", waitTimeout, func() bool {
		return strings.Contains(terminalText(), "half a thought")
	})
	var inTerminal bool
	e.nv.Lua(&inTerminal, `return vim.b.claude_terminal == true`)
	if !inTerminal {
		t.Errorf("after :Claude type the cursor is not in Claude's terminal")
	}
	// The terminal shows the typed keys as they come, and cat prints the
	// line again once Enter ends it: twice means it was submitted.
	e.nv.Cmd("wincmd p")
	e.nv.Lua(nil, `vim.ui.input = function(opts, done) _G.asked = opts.prompt done("why so short?") end`)
	e.nv.Cmd("2ClaudeAsk")
	nvimtest.Wait(t, "the question in Claude's terminal, submitted", waitTimeout, func() bool {
		return strings.Count(strings.ReplaceAll(terminalText(), "\n", ""), "half a thought@m.txt#L2 why so short?") == 2
	})
	var asked string
	e.nv.Lua(&asked, `return _G.asked`)
	if asked != "Ask Claude about @m.txt#L2: " {
		t.Errorf("vim.ui.input asked %q", asked)
	}
}

// :Claude add without a path in netrw sends the entry on the cursor's line,
// or each entry of a Visual selection.
func TestClaudeAddInNetrwSendsTheEntriesUnderTheCursor(t *testing.T) {
	e := newEnv(t)
	e.nv.Lua(nil, idleCLI)
	dir := filepath.Join(e.nv.Cwd, "tree")
	file := e.nv.WriteFile("tree/m.txt", "1\n")
	e.nv.WriteFile("tree/sub/n.txt", "2\n")
	c := e.connect()
	e.nv.Cmd("Explore " + dir)
	var at struct {
		File int `msgpack:"file"`
		Sub  int `msgpack:"sub"`
	}
	e.nv.Lua(&at, `return { file = vim.fn.search('^m\\.txt$', 'n'), sub = vim.fn.search('^sub/$', 'n') }`)
	if at.File == 0 || at.Sub == 0 {
		t.Fatalf("netrw lists no m.txt or sub/: %+v", at)
	}
	e.nv.Cmd(itoa(at.File))
	e.nv.Cmd("ClaudeAdd")
	if got := mcptest.Next[atMentioned](t, c, "at_mentioned"); got.FilePath != file || lines(got) != "whole" {
		t.Errorf(":Claude add on m.txt in netrw sent %s %s, want %s", got.FilePath, lines(got), file)
	}
	e.nv.Cmd("wincmd p")
	e.nv.Keys(itoa(at.Sub) + "GV" + itoa(at.File) + "G:Claude add<CR>")
	var got []string
	for range 2 {
		got = append(got, mcptest.Next[atMentioned](t, c, "at_mentioned").FilePath)
	}
	if want := []string{dir + "/sub/", file}; !slices.Equal(got, want) && !slices.Equal(got, []string{file, dir + "/sub/"}) {
		t.Errorf("Visual :Claude add in netrw sent %q, want %q", got, want)
	}
	e.nv.Cmd("wincmd p")
	if msg := commandMessages(t, e.nv, "1ClaudeAdd"); !strings.Contains(msg, "no file or directory on this line") {
		t.Errorf(":Claude add on netrw's banner said %q", msg)
	}

	// Marked files (mf) go instead of the cursor's entry, all of them;
	// unmarked (mu), the cursor's entry again.
	e.nv.Keys(itoa(at.File) + "Gmf" + itoa(at.Sub) + "Gmf1G")
	e.nv.Cmd("ClaudeAdd")
	got = nil
	for range 2 {
		got = append(got, mcptest.Next[atMentioned](t, c, "at_mentioned").FilePath)
	}
	slices.Sort(got)
	if want := []string{file, dir + "/sub/"}; !slices.Equal(got, want) {
		t.Errorf(":Claude add with m.txt and sub/ marked in netrw sent %q, want %q", got, want)
	}
	e.nv.Keys("mu" + itoa(at.File) + "G")
	e.nv.Cmd("ClaudeAdd")
	if got := mcptest.Next[atMentioned](t, c, "at_mentioned"); got.FilePath != file {
		t.Errorf(":Claude add after netrw's marks were cleared sent %s, want the cursor's %s", got.FilePath, file)
	}
}
