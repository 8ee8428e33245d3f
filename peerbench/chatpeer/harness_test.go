package chatpeer

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
	"github.com/claude-nvim/claude.nvim/peerbench"
	"github.com/neovim/go-client/nvim"
)

const (
	// turnTimeout bounds one scripted turn, 1 MiB of text included, on a
	// loaded 2-core machine.
	turnTimeout = 2 * time.Minute
	// uiWidth and uiHeight are the attached UI's grid: a laptop's editor.
	uiWidth, uiHeight = 200, 50
)

// plugin is one of the two chats under test. Its Lua snippets run in the
// editor; each gets its arguments as ... .
type plugin struct {
	name string
	rtp  []string // directories to put on 'runtimepath'
	// env is added to the editor's environment (and so the chat's children).
	env []string
	// setup configures the plugin (args: the CLI, the plugin binary or the
	// ACP agent).
	setup string
	// open is the command the user types to open the chat.
	open string
	// buf returns the buffer the answers are written into, nil before the
	// chat is open.
	buf string
	// ready says whether the open chat takes a message. The peer's first
	// message, sent before its agent has a session, fails (f1afd025: "attempt
	// to yield across C-call boundary" in connect_and_authenticate, then a
	// second agent starts); a user takes longer than that to type it.
	ready string
	// focus puts the cursor where the user types the next message, in
	// normal mode; the harness then types it and presses <CR>, the key both
	// plugins send with.
	focus string
	// idle says whether the chat is ready for the next message.
	idle string
	// resume makes the open chat continue the stored conversation (arg: its session id) and
	// show its earlier turns, as the user does: ours with :ClaudeChat last, the peer with
	// what its /resume command does once a session is picked (session/load, then its
	// restore_session of the updates the agent replayed).
	resume string
	// helper names the plugin's process between Neovim and the CLI: our Go
	// host, the peer's ACP agent (node).
	helper string
}

// plugins returns ours and, when it is installed, the peer.
func plugins(b *testing.B) []plugin {
	root := nvimtest.RepoRoot()
	bin := filepath.Join(root, "bin", "claude-nvim")
	if _, err := os.Stat(bin); err != nil {
		b.Fatalf("no bin/claude-nvim: run `make build` first")
	}
	ps := []plugin{{
		name: "claude.nvim", rtp: []string{root}, helper: "claude-nvim",
		setup: `local cli, bin = ...
			vim.g.claude_nvim_binary = bin
			require('claude').setup({ terminal_cmd = { cli } })`,
		open: "ClaudeChat",
		buf:  `local b = require('claude.chat').buffers(); return b and b.transcript`,
		// Once the CLI answered initialize (its slash commands come with it).
		ready:  `return require('claude.chat')._commands() ~= nil`,
		focus:  `vim.api.nvim_set_current_win(vim.fn.bufwinid(require('claude.chat').buffers().input))`,
		idle:   `for _, c in pairs(require('claude.chat.state').chats) do return not c.busy end; return false`,
		resume: `vim.cmd('ClaudeChat last')`,
	}}
	if out, err := exec.Command(nvimtest.Binary(b), "--version").Output(); err != nil || strings.HasPrefix(string(out), "NVIM v0.10.") {
		b.Logf("peer skipped: codecompanion.nvim needs Neovim 0.11 or later, this is %s", firstLine(out))
		return ps
	}
	dir := os.Getenv("CLAUDE_CHAT_PEER")
	if dir == "" {
		dir = filepath.Join(root, ".deps", "peer")
	}
	cc, plenary := filepath.Join(dir, "codecompanion.nvim"), filepath.Join(dir, "plenary.nvim")
	agent := filepath.Join(dir, "claude-agent-acp", "node_modules", ".bin", "claude-agent-acp")
	for _, need := range []string{filepath.Join(cc, "lua", "codecompanion", "init.lua"), filepath.Join(plenary, "lua", "plenary"), agent} {
		if _, err := os.Stat(need); err != nil {
			b.Logf("peer skipped: no %s (run scripts/install-peer-chat, or set CLAUDE_CHAT_PEER)", need)
			return ps
		}
	}
	// Our chat on the same ACP agent (chat.agents), beside the peer driving it.
	ps = append(ps, plugin{
		name: "claude.nvim-acp", rtp: []string{root}, helper: "claude-nvim",
		setup: fmt.Sprintf(`local cli, bin = ...
			vim.g.claude_nvim_binary = bin
			require('claude').setup({ terminal_cmd = { cli }, chat = { agents = {
				acp = { command = %q, env = { CLAUDE_CODE_EXECUTABLE = cli } },
			} } })`, agent),
		open: "ClaudeChat acp",
		buf: `for dir, c in pairs(require('claude.chat.state').chats) do
				if c.agent then local b = require('claude.chat').buffers(dir); return b and b.transcript end
			end`,
		// Once the agent's session is set up: its Init names the model.
		ready: `for _, c in pairs(require('claude.chat.state').chats) do if c.agent then return c.model ~= nil end end
			return false`,
		focus: `for dir, c in pairs(require('claude.chat.state').chats) do
				if c.agent then vim.api.nvim_set_current_win(vim.fn.bufwinid(require('claude.chat').buffers(dir).input)) end
			end`,
		idle: `for _, c in pairs(require('claude.chat.state').chats) do if c.agent then return not c.busy end end
			return false`,
		// No resume here: the history browser of an agent's chat lists through the agent
		// (session/list); ChatHistory measures the Claude chat's.
	})
	return append(ps, plugin{
		name: "codecompanion.nvim", rtp: []string{plenary, cc}, helper: "node",
		// The agent runs the CLI under test instead of the one its SDK bundles.
		env: []string{"CLAUDE_CODE_EXECUTABLE=" + clienv.Bin(b)},
		setup: `local cli, agent = ...
			require('codecompanion').setup({
				adapters = { acp = { claude_code = function()
					return require('codecompanion.adapters').extend('claude_code', { commands = { default = { agent } } })
				end } },
				interactions = { chat = { adapter = 'claude_code' } },
				opts = { log_level = 'ERROR' },
			})`,
		open: "CodeCompanionChat",
		buf:  `local chat = require('codecompanion').last_chat(); return chat and chat.bufnr`,
		ready: `local c = require('codecompanion').last_chat().acp_connection
			return c ~= nil and c:is_connected()`,
		focus: `local buf = require('codecompanion').last_chat().bufnr
			vim.api.nvim_set_current_win(vim.fn.bufwinid(buf))
			vim.cmd('normal! G')`,
		idle: `local chat = require('codecompanion').last_chat(); return chat ~= nil and chat.current_request == nil`,
		// In its own async runner, as its picker's callback runs it: the agent's answer
		// is waited for by yielding.
		resume: `local id = ...
			require('codecompanion.utils.async').sync(function()
				local ok, err = pcall(function()
					local chat = require('codecompanion').last_chat()
					local updates = {}
					assert(chat.acp_connection:can_load_session(), 'the agent cannot load sessions')
					assert(chat.acp_connection:load_session(id, { on_session_update = function(u) table.insert(updates, u) end }), 'session/load failed')
					require('codecompanion.interactions.chat.acp.render').restore_session(chat, updates)
				end)
				if not ok then _G.chatpeer_resume_error = tostring(err) end
			end)(function() end)`,
	})
}

func firstLine(b []byte) string {
	line, _, _ := strings.Cut(string(b), "\n")
	return line
}

// helperArg is what the plugin's setup gets after the CLI.
func (p plugin) helperArg(dir string) string {
	if p.helper == "claude-nvim" {
		return filepath.Join(nvimtest.RepoRoot(), "bin", "claude-nvim")
	}
	if d := os.Getenv("CLAUDE_CHAT_PEER"); d != "" {
		dir = d
	}
	return filepath.Join(dir, "claude-agent-acp", "node_modules", ".bin", "claude-agent-acp")
}

// editor is a Neovim with one chat open, a UI attached, talking to the CLI
// which talks to api.
type editor struct {
	b     *testing.B
	p     plugin
	nv    *nvim.Nvim // the probe's and the harness's channel
	ui    *nvim.Nvim // the attached UI's channel
	api   *fakeapi.Server
	env   *clienv.Env // the CLI's isolated environment (its config dir keeps conversations)
	pid   int
	buf   int // where the answers are written
	seen  chan seenMark
	marks int // markers made so far (see mark)
}

// seenMark is a marker the editor saw in the answer buffer: when it got
// there (Neovim's clock, ns), and when the notice reached us.
type seenMark struct {
	mark string
	at   int64
	got  time.Time
}

// start launches Neovim in a trusted project with only p on 'runtimepath',
// attaches a UI and configures p; the chat is not open yet.
func start(b *testing.B, p plugin) *editor {
	b.Helper()
	cli := clienv.Bin(b)
	api := fakeapi.New(b)
	env := clienv.New(b, api.URL())
	sock := filepath.Join(env.Home, "nvim.sock")
	args := []string{"--clean", "--embed", "--headless", "-n", "-i", "NONE", "--listen", sock}
	for _, dir := range p.rtp {
		args = append(args, "--cmd", "set rtp^="+dir)
	}
	ctx, cancel := context.WithCancel(context.Background())
	v, err := nvim.NewChildProcess(
		nvim.ChildProcessCommand(nvimtest.Binary(b)),
		nvim.ChildProcessArgs(args...),
		nvim.ChildProcessEnv(append(env.Vars(), append(p.env, "NVIM_LOG_FILE=/dev/null")...)),
		nvim.ChildProcessDir(env.Project),
		nvim.ChildProcessContext(ctx),
	)
	if err != nil {
		cancel()
		b.Fatalf("start nvim: %v", err)
	}
	e := &editor{b: b, p: p, nv: v, api: api, env: env, seen: make(chan seenMark, 1024)}
	b.Cleanup(func() {
		// The CLI and the plugin's helper write into the temporary
		// directories until they have exited: wait for them (bounded),
		// found before Neovim goes and they lose their parent.
		kids := descendants(e.pid)
		done := make(chan struct{})
		go func() { _ = v.Close(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
		}
		cancel()
		for _, pid := range kids {
			nvimtest.Wait(b, "process "+strconv.Itoa(pid)+" to exit", 15*time.Second, func() bool {
				return syscall.Kill(pid, 0) != nil
			})
		}
	})
	e.lua(&e.pid, `return vim.fn.getpid()`)
	if e.ui, err = nvim.Dial(sock); err != nil {
		b.Fatalf("dial %s: %v", sock, err)
	}
	b.Cleanup(func() { _ = e.ui.Close() })
	// The grid's updates are read and dropped: what counts is that Neovim
	// draws them, as it does for a user's screen.
	if err := e.ui.RegisterHandler("redraw", func(...any) {}); err != nil {
		b.Fatal(err)
	}
	if err := e.ui.AttachUI(uiWidth, uiHeight, map[string]any{"ext_linegrid": true, "rgb": true}); err != nil {
		b.Fatalf("attach UI: %v", err)
	}
	if err := v.RegisterHandler("chatpeer_seen", func(mark string, at int64) {
		e.seen <- seenMark{mark: mark, at: at, got: time.Now()}
	}); err != nil {
		b.Fatal(err)
	}
	e.lua(nil, p.setup, cli, p.helperArg(filepath.Join(nvimtest.RepoRoot(), ".deps", "peer")))
	return e
}

// open opens the chat, starts watching its answer buffer for markers and
// waits until the chat can take a message.
func (e *editor) open() {
	e.b.Helper()
	e.openWatched()
	e.waitReady()
}

// waitReady waits until the chat can take a message (see plugin.ready).
func (e *editor) waitReady() {
	e.b.Helper()
	nvimtest.Wait(e.b, e.p.name+"'s chat to be ready", turnTimeout, func() bool {
		var ready bool
		return e.nv.ExecLua(e.p.ready, &ready) == nil && ready
	})
}

// openWatched opens the chat and watches its answer buffer for markers, as
// soon as the buffer exists.
func (e *editor) openWatched() {
	e.b.Helper()
	e.keys(":" + e.p.open + "<CR>")
	nvimtest.Wait(e.b, e.p.name+"'s chat to open", turnTimeout, func() bool {
		var buf int
		return e.nv.ExecLua(e.p.buf, &buf) == nil && buf > 0 && e.set(&e.buf, buf)
	})
	e.lua(nil, `
		local buf, chan = ...
		_G.chatpeer = { marks = {} }
		-- The moment the user presses <CR> to send, once armed (see send).
		vim.on_key(function(_, typed)
			if _G.chatpeer.armed and typed == '\r' then
				_G.chatpeer.armed, _G.chatpeer.sent = false, vim.uv.hrtime()
			end
		end)
		vim.api.nvim_buf_attach(buf, false, { on_lines = function(_, b, _, first, _, new_last)
			for _, line in ipairs(vim.api.nvim_buf_get_lines(b, first, new_last, false)) do
				for mark in line:gmatch('MARK%d+K') do
					if not _G.chatpeer.marks[mark] then
						local now = vim.uv.hrtime()
						_G.chatpeer.marks[mark] = now
						vim.rpcnotify(chan, 'chatpeer_seen', mark, now)
					end
				end
			end
		end })`, e.buf, e.nv.ChannelID())
}

// send types text where the user types and presses <CR>, as the user
// does. The time the key was read (Neovim's clock, ns) is taken with sent.
func (e *editor) send(text string) {
	e.b.Helper()
	e.lua(nil, e.p.focus)
	e.lua(nil, `_G.chatpeer.armed, _G.chatpeer.sent = true, nil`)
	e.keys("i" + text + "<Esc><CR>")
}

// sent is when the last message's <CR> was read (Neovim's clock, ns).
func (e *editor) sent() int64 {
	e.b.Helper()
	var sent int64
	nvimtest.Wait(e.b, "the <CR> to be read", turnTimeout, func() bool {
		return e.nv.ExecLua(`return _G.chatpeer.sent or 0`, &sent) == nil && sent > 0
	})
	return sent
}

// keys types keys as the user does (nvim_input).
func (e *editor) keys(keys string) {
	e.b.Helper()
	if _, err := e.nv.Input(keys); err != nil {
		e.b.Fatalf("nvim input: %v", err)
	}
}

// set stores v in *dst and says yes: for conditions that keep what they read.
func (e *editor) set(dst *int, v int) bool { *dst = v; return true }

// waitMark waits until the editor has shown mark.
func (e *editor) waitMark(mark string) seenMark {
	e.b.Helper()
	deadline := time.After(turnTimeout)
	for {
		select {
		case s := <-e.seen:
			if s.mark == mark {
				return s
			}
		case <-deadline:
			e.b.Fatalf("%s never showed %s in its chat buffer%s", e.p.name, mark, e.state())
		}
	}
}

// waitIdle waits until the chat takes the next message.
func (e *editor) waitIdle() {
	e.b.Helper()
	nvimtest.Wait(e.b, e.p.name+" to be ready for the next message", turnTimeout, func() bool {
		var idle bool
		return e.nv.ExecLua(e.p.idle, &idle) == nil && idle
	})
}

// state is what a failed wait reports: the chat buffer's last lines, the
// editor's messages, and what reached the API stand-in.
func (e *editor) state() string {
	var shown string
	_ = e.nv.ExecLua(`local buf = ...
		local lines = vim.api.nvim_buf_get_lines(buf, -30, -1, false)
		return table.concat(lines, '\n') .. '\n-- messages:\n' .. vim.fn.execute('messages')`, &shown, e.buf)
	return fmt.Sprintf("; buffer's end:\n%s\n-- %d requests reached the API (%d main); problems: %v",
		shown, len(e.api.Requests()), len(e.api.Main()), e.api.Problems())
}

// lua runs code in Neovim and fails the benchmark on error.
func (e *editor) lua(result any, code string, args ...any) {
	e.b.Helper()
	if err := e.nv.ExecLua(code, result, args...); err != nil {
		e.b.Fatalf("nvim lua (%s): %v", e.p.name, err)
	}
}

// helperPID is the plugin's process between Neovim and the CLI.
func (e *editor) helperPID() int { return peerbench.ChildNamed(e.pid, e.p.helper) }

// descendants lists pid's children, grandchildren, … (the CLI is a
// grandchild of Neovim).
func descendants(pid int) []int {
	var out []int
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/children")
	for _, task := range tasks {
		data, _ := os.ReadFile(task)
		for _, f := range strings.Fields(string(data)) {
			child, _ := strconv.Atoi(f)
			out = append(out, child)
			out = append(out, descendants(child)...)
		}
	}
	return out
}
