package host

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

func TestClaudeOpenStartsTheCLIWithTheIDEEnvironment(t *testing.T) {
	e := newEnv(t, nvimtest.WithEnv("NO_PROXY=corp.example", "no_proxy=", "http_proxy=http://proxy.invalid:3128"))
	script, record := nvimtest.StandInCLI(t, t.TempDir())
	e.nv.Lua(nil, `require('claude').setup({ terminal_cmd = { ... } })`, script)
	e.nv.Cmd("ClaudeOpen --resume 'a b'")
	got := nvimtest.ReadRecord(t, record)

	var port int
	e.nv.Lua(&port, `return require('claude').status().port`)
	settings := e.host.hookBus.settings
	if settings == "" {
		t.Fatal("the host wrote no hook settings for the terminal's CLI")
	}
	for _, want := range []string{
		// permission_mode's default (issue 21), the hooks' settings (hooks.go) and the
		// language-server tools (issue 40, chat_mcp.go)
		"args [--resume] [a b] [--permission-mode] [default] [--settings] [" + settings + "]" + e.lspToolArgs(),
		"env CLAUDE_NVIM_HOOK_ORIGIN=terminal:1",
		"cwd " + e.nv.Cwd,
		"lock present",
		"env CLAUDE_CODE_SSE_PORT=" + itoa(port),
		"env ENABLE_IDE_INTEGRATION=true",
		"env FORCE_CODE_TERMINAL=true",
		"env NO_PROXY=corp.example,127.0.0.1,localhost,::1",
		"env no_proxy=127.0.0.1,localhost,::1",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("the CLI's record lacks %q; it has:\n%s", want, strings.Join(got, "\n"))
		}
	}
}

// A server already running when Claude's terminal opens (:Claude server start, a :Claude send
// before it, auto_start, a chat) still gives the terminal's CLI the hooks: without them its
// turns are not recorded (:Claude changes) and :Claude sessions does not follow it.
func TestATerminalOpenedWhileTheServerRunsGetsTheHooks(t *testing.T) {
	e := newEnv(t)
	script, record := nvimtest.StandInCLI(t, t.TempDir())
	e.nv.Lua(nil, `require('claude').setup({ terminal_cmd = { ... } })`, script)
	e.nv.Cmd("ClaudeStart")
	e.nv.Cmd("ClaudeOpen")
	got := nvimtest.ReadRecord(t, record)
	settings := e.host.hookBus.settings
	for _, want := range []string{"[--settings] [" + settings + "]", "env CLAUDE_NVIM_HOOK_ORIGIN=terminal:1"} {
		if settings == "" || !slices.ContainsFunc(got, func(line string) bool { return strings.Contains(line, want) }) {
			t.Errorf("the CLI's record lacks %q; it has:\n%s", want, strings.Join(got, "\n"))
		}
	}
}

// lspToolArgs are the arguments that give a terminal's CLI the language-server tools, as the
// stand-in CLI records them: " [--mcp-config=FILE] [--allowedTools=…]".
func (e *env) lspToolArgs() string {
	e.t.Helper()
	e.host.chats.mcpMu.Lock()
	m := e.host.chats.mcp[terminalTools]
	e.host.chats.mcpMu.Unlock()
	if m == nil {
		e.t.Fatal("no endpoint serves the terminal's language-server tools")
		return ""
	}
	return " [--mcp-config=" + m.configFile + "] [--allowedTools=" + strings.Join(m.allowedTools(), ",") + "]"
}

// tools.lsp = false: the terminal's CLI is started without them.
func TestTheTerminalsCLIGetsNoLanguageServerToolsWhenTurnedOff(t *testing.T) {
	e := newEnv(t)
	script, record := nvimtest.StandInCLI(t, t.TempDir())
	e.nv.Lua(nil, `require('claude').setup({ terminal_cmd = { ... }, tools = { lsp = false } })`, script)
	e.nv.Cmd("ClaudeOpen")
	got := nvimtest.ReadRecord(t, record)
	if !strings.HasPrefix(got[0], "args [--permission-mode] [default] [--settings] [") || strings.Contains(got[0], "--mcp-config") || strings.Contains(got[0], "lsp_") {
		t.Errorf("with tools.lsp = false the CLI got %s; want no --mcp-config and no lsp_ tool", got[0])
	}
}

func TestTheClaudeTerminalTogglesFocusesAndCloses(t *testing.T) {
	e := newEnv(t)
	e.nv.Lua(nil, idleCLI)
	state := func() (termWins int, curIsTerm bool, job int) {
		var s struct {
			Wins int  `msgpack:"wins"`
			Cur  bool `msgpack:"cur"`
			Job  int  `msgpack:"job"`
		}
		e.nv.Lua(&s, `
			local t = require('claude.terminal')
			local buf = t.buf()
			return {
				wins = buf and #vim.fn.win_findbuf(buf) or 0,
				cur = buf ~= nil and vim.api.nvim_get_current_buf() == buf,
				job = buf and vim.b[buf].terminal_job_id or 0,
			}`)
		return s.Wins, s.Cur, s.Job
	}

	e.nv.Cmd("ClaudeOpen")
	wins, cur, job := state()
	if wins != 1 || !cur || job == 0 {
		t.Fatalf("after :Claude open: %d windows, focused %v, job %d; want 1, true, a job", wins, cur, job)
	}
	e.nv.Cmd("ClaudeToggle")
	if wins, _, _ := state(); wins != 0 {
		t.Errorf("after :Claude toggle the terminal is in %d windows, want hidden", wins)
	}
	e.nv.Cmd("ClaudeToggle")
	if wins, cur, job2 := state(); wins != 1 || !cur || job2 != job {
		t.Errorf("second :Claude toggle: %d windows, focused %v, job %d; want the same session (job %d) shown", wins, cur, job2, job)
	}

	// The terminal as the only window: toggling must not fail.
	e.nv.Cmd("only")
	e.nv.Cmd("ClaudeToggle")
	var nwins int
	e.nv.Lua(&nwins, `return #vim.api.nvim_list_wins()`)
	if wins, _, _ := state(); wins != 0 || nwins != 1 {
		t.Errorf("toggle of the only window: terminal in %d windows, %d windows in all; want 0 and 1", wins, nwins)
	}
	e.nv.Cmd("ClaudeFocus")
	if wins, cur, job2 := state(); wins != 1 || !cur || job2 != job {
		t.Errorf(":Claude focus: %d windows, focused %v, job %d; want the same session focused", wins, cur, job2)
	}

	e.nv.Cmd("ClaudeClose")
	if wins, _, _ := state(); wins != 0 {
		t.Errorf("after :Claude close the terminal is in %d windows", wins)
	}
	e.nv.Cmd("ClaudeOpen")
	if _, _, job2 := state(); job2 == 0 || job2 == job {
		t.Errorf("reopening after :Claude close gave job %d, want a new one (old %d)", job2, job)
	}
}

func TestReopeningAfterTheCLIExitsStartsANewOne(t *testing.T) {
	e := newEnv(t)
	e.nv.Lua(nil, `require('claude').setup({ terminal_cmd = { 'sh', '-c', 'read line; exit 0' } })`)
	e.nv.Cmd("ClaudeOpen")
	var chan1 int
	e.nv.Lua(&chan1, `return vim.b[require('claude.terminal').buf()].terminal_job_id`)
	e.nv.Lua(nil, `vim.fn.chansend(..., "bye\n")`, chan1)
	nvimtest.Wait(t, "the CLI to exit", waitTimeout, func() bool {
		var running bool
		e.nv.Lua(&running, `return require('claude.terminal').is_running()`)
		return !running
	})
	e.nv.Cmd("ClaudeOpen")
	var chan2 int
	e.nv.Lua(&chan2, `return vim.b[require('claude.terminal').buf()].terminal_job_id`)
	if chan2 == 0 || chan2 == chan1 {
		t.Errorf("after the CLI exited, :Claude open ran job %d; want a new one (old %d)", chan2, chan1)
	}
}

func TestTheClaudeTerminalKeepsFollowingOutputAfterTheUserLeaves(t *testing.T) {
	e := newEnv(t)
	e.nv.Lua(nil, `require('claude').setup({ terminal_cmd = { 'sh', '-c', 'exec cat', 'cli' }, permission_mode = false, terminal = { position = 'below', size = 5 } })`)
	e.nv.Cmd("ClaudeOpen")
	e.nv.Keys(`<C-\><C-n>gg`) // the user scrolled up, then goes back to work
	e.nv.Cmd("wincmd p")
	var job int
	e.nv.Lua(&job, `return vim.b[require('claude.terminal').buf()].terminal_job_id`)
	var lines strings.Builder
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&lines, "answer line %d\n", i)
	}
	e.nv.Lua(nil, `vim.fn.chansend(...)`, job, lines.String())
	nvimtest.Wait(t, "the terminal to show the end of the output", waitTimeout, func() bool {
		var shown string
		e.nv.Lua(&shown, `
			local buf = require('claude.terminal').buf()
			local win = vim.fn.win_findbuf(buf)[1]
			local last = vim.fn.line('w$', win)
			return table.concat(vim.api.nvim_buf_get_lines(buf, math.max(last - 5, 0), last, false), '|')`)
		return strings.Contains(shown, "answer line 60")
	})
}

func TestClaudeOpenWithoutTheCLISaysHowToGetIt(t *testing.T) {
	for _, cmd := range []string{`'no-such-claude --flag'`, `{ 'no-such-claude' }`} {
		t.Run(cmd, func(t *testing.T) {
			e := newEnv(t)
			e.nv.Lua(nil, `require('claude').setup({ terminal_cmd = `+cmd+` })`)
			msg := commandMessages(t, e.nv, "ClaudeOpen")
			if !strings.Contains(msg, "no-such-claude is not an executable on PATH") || !strings.Contains(msg, "npm install -g @anthropic-ai/claude-code") {
				t.Errorf(":Claude open said %q, want what is missing and how to install it", msg)
			}
			var terms int
			e.nv.Lua(&terms, `local n = 0 for _, b in ipairs(vim.api.nvim_list_bufs()) do if vim.bo[b].buftype == 'terminal' then n = n + 1 end end return n`)
			if terms != 0 {
				t.Errorf("%d terminal buffers, want none for a CLI that is not there", terms)
			}
		})
	}
}

// What :Claude server stop, :Claude status and a CLI that exits tell the user.
func TestTheUserIsToldWhatStoppedAndWhen(t *testing.T) {
	t.Run(":Claude server stop", func(t *testing.T) {
		e := newEnv(t)
		e.nv.Lua(nil, idleCLI)
		if msg := commandMessages(t, e.nv, "ClaudeStop"); !strings.Contains(msg, "claude.nvim: the server is not running") {
			t.Errorf(":Claude server stop of a stopped server said %q", msg)
		}
		e.start()
		if msg := commandMessages(t, e.nv, "ClaudeStop"); !strings.Contains(msg, "claude.nvim: server stopped; lock file removed") {
			t.Errorf(":Claude server stop said %q", msg)
		}
		e.nv.Cmd("ClaudeOpen")
		if msg := commandMessages(t, e.nv, "ClaudeStop"); !strings.Contains(msg, "server stopped: Claude is disconnected. :Claude server start (or :Claude open) within about 15 s reconnects it") {
			t.Errorf(":Claude server stop with Claude running said %q", msg)
		}
	})
	t.Run("the CLI exiting", func(t *testing.T) {
		e := newEnv(t)
		exited := e.nv.UserEvents("ClaudeTerminalExited")
		e.nv.Lua(nil, `require('claude').setup({ terminal_cmd = { 'sh', '-c', 'exit 3' } })`)
		e.nv.Cmd("ClaudeOpen")
		nvimtest.Next(t, exited, "the CLI to exit", waitTimeout)
		if msgs := e.nv.Messages(); !strings.Contains(msgs, "claude.nvim: Claude exited with code 3") {
			t.Errorf("after the CLI exited with 3: messages %q", msgs)
		}
	})
	t.Run(":Claude status shows local time", func(t *testing.T) {
		e := newEnv(t)
		e.connect()
		out, err := e.nv.Exec("ClaudeStatus", true)
		if err != nil {
			t.Fatal(err)
		}
		if !regexp.MustCompile(`since \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\n`).MatchString(out + "\n") {
			t.Errorf(":Claude status printed %q; want the connection time as a local date and time", out)
		}
	})
}

// Statusline plugins and autocmds match Claude's terminal by name or filetype.
func TestClaudesTerminalHasANameAndAFiletype(t *testing.T) {
	e := newEnv(t)
	e.nv.Lua(nil, idleCLI)
	e.nv.Cmd("ClaudeOpen")
	var st struct {
		Name     string `msgpack:"name"`
		Filetype string `msgpack:"filetype"`
	}
	e.nv.Lua(&st, `local b = require('claude.terminal').buf() return { name = vim.api.nvim_buf_get_name(b), filetype = vim.bo[b].filetype }`)
	if st.Name != "claude://"+e.nv.Cwd || st.Filetype != "claude" {
		t.Errorf("Claude's terminal is named %q with filetype %q; want %q and \"claude\"", st.Name, st.Filetype, "claude://"+e.nv.Cwd)
	}
}

// The cwd option: where a new Claude starts.
func TestTheCLIStartsInTheConfiguredDirectory(t *testing.T) {
	for _, tt := range []struct{ name, cwd, want string }{
		{"by default Neovim's working directory", `nil`, ""},
		{"git_root: the repository of the current file", `"git_root"`, "repo"},
		{"a function's answer", `function() return vim.fn.getcwd() .. "/repo/sub" end`, "repo/sub"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			script, record := nvimtest.StandInCLI(t, t.TempDir())
			file := e.nv.WriteFile("repo/sub/f.txt", "x\n")
			if err := os.MkdirAll(filepath.Join(e.nv.Cwd, "repo", ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
			e.nv.Lua(nil, `local script, cwd = ... require('claude').setup({ terminal_cmd = { script }, cwd = assert(loadstring("return " .. cwd))() })`, script, tt.cwd)
			e.nv.Cmd("edit " + file)
			e.nv.Cmd("ClaudeOpen")
			want := filepath.Join(e.nv.Cwd, tt.want)
			if got := nvimtest.ReadRecord(t, record); !slices.Contains(got, "cwd "+want) {
				t.Errorf("the CLI started in %q, want %s", got[1], want)
			}
		})
	}
}

// terminal.provider: Claude in a terminal that is not Neovim's, started
// with the environment that connects it.
func TestTerminalProvidersStartTheCLIElsewhere(t *testing.T) {
	t.Run("external", func(t *testing.T) {
		e := newEnv(t)
		script, record := nvimtest.StandInCLI(t, t.TempDir())
		// sh stands in for tmux: it runs the command line it is given.
		e.nv.Lua(nil, `require('claude').setup({ terminal_cmd = { ... }, terminal = { provider = 'external', external_cmd = 'sh -c %s' } })`, script)
		e.nv.Cmd("ClaudeOpen")
		got := nvimtest.ReadRecord(t, record)
		var port int
		e.nv.Lua(&port, `return require('claude').status().port`)
		for _, want := range []string{"env CLAUDE_CODE_SSE_PORT=" + itoa(port), "cwd " + e.nv.Cwd, "lock present"} {
			if !slices.Contains(got, want) {
				t.Errorf("the external CLI's record lacks %q:\n%s", want, strings.Join(got, "\n"))
			}
		}
		var terms int
		e.nv.Lua(&terms, `local n = 0 for _, b in ipairs(vim.api.nvim_list_bufs()) do if vim.bo[b].buftype == 'terminal' then n = n + 1 end end return n`)
		if terms != 0 {
			t.Errorf("%d terminal buffers in Neovim; the external provider manages its own window", terms)
		}
	})
	t.Run("a function", func(t *testing.T) {
		e := newEnv(t)
		e.nv.Lua(nil, `require('claude').setup({ terminal_cmd = { 'claude', '--x' }, terminal = { provider = function(cmd, env, cwd) _G.got = { cmd = cmd, port = env.CLAUDE_CODE_SSE_PORT, cwd = cwd } end } })`)
		e.nv.Cmd("ClaudeOpen --resume")
		var got struct {
			Cmd  []string `msgpack:"cmd"`
			Port string   `msgpack:"port"`
			Cwd  string   `msgpack:"cwd"`
		}
		e.nv.Lua(&got, `return _G.got`)
		var port int
		e.nv.Lua(&port, `return require('claude').status().port`)
		want := "claude --x --resume --permission-mode default --settings " + e.host.hookBus.settings + strings.NewReplacer("] [", " ", " [", " ", "]", "").Replace(e.lspToolArgs())
		if strings.Join(got.Cmd, " ") != want || got.Port != itoa(port) || got.Cwd != e.nv.Cwd {
			t.Errorf("the provider got %+v; want the command %q, the server's port %d and %s", got, want, port, e.nv.Cwd)
		}
	})
}

func TestTheTerminalOpensWhereConfigured(t *testing.T) {
	e := newEnv(t)
	e.nv.Lua(nil, `require('claude').setup({ terminal_cmd = { 'sh', '-c', 'exec cat', 'cli' }, permission_mode = false, terminal = { position = 'below', size = 7 } })`)
	e.nv.Cmd("ClaudeOpen")
	var st struct {
		Height int `msgpack:"height"`
		Row    int `msgpack:"row"`
	}
	e.nv.Lua(&st, `local w = vim.api.nvim_get_current_win()
		return { height = vim.api.nvim_win_get_height(w), row = vim.api.nvim_win_get_position(w)[1] }`)
	if st.Height != 7 || st.Row == 0 {
		t.Errorf("terminal window height %d at row %d, want 7 lines at the bottom", st.Height, st.Row)
	}
}

// A script that opens Claude and goes back to the file in one go (a
// VimEnter autocmd running :Claude open, then :wincmd p) leaves the user in
// Normal mode in their file: the terminal's pending Insert mode stays with the
// terminal, and the next key typed is a command, not text in the file.
func TestInsertModeMeantForTheTerminalNeverLandsInTheWindowAScriptGoesTo(t *testing.T) {
	e := newEnv(t)
	path := e.nv.WriteFile("notes.txt", "my notes\n")
	e.nv.Cmd("edit " + path)
	e.nv.Lua(nil, `require('claude').setup({ terminal_cmd = { 'sh', '-c', 'exec cat', 'cli' }, permission_mode = false })`)
	e.nv.Lua(nil, `vim.cmd('ClaudeOpen'); vim.cmd('wincmd p')`)
	e.nv.Keys("x") // deletes a character in Normal mode; types an x in Insert mode
	var got struct {
		Mode string `msgpack:"mode"`
		Name string `msgpack:"name"`
		Line string `msgpack:"line"`
	}
	e.nv.Lua(&got, `return { mode = vim.api.nvim_get_mode().mode, name = vim.fn.expand('%:t'), line = vim.fn.getline(1) }`)
	if got.Name != "notes.txt" || got.Mode != "n" || got.Line != "y notes" {
		t.Errorf("after :Claude open, :wincmd p and x: %+v; want Normal mode in notes.txt, its first character deleted", got)
	}
	// Going to the terminal still starts Insert mode there.
	e.nv.Cmd("wincmd p")
	waitMode(t, e.nv, "t")
}
