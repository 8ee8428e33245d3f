package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/e2e/tmuxterm"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

const (
	// pollInterval is how often the terminal screen and files are re-read: neither can push
	// changes to us.
	pollInterval = 100 * time.Millisecond
	// exitTimeout is how long the CLI and the plugin's host get to exit once Neovim has
	// gone, before they are killed.
	exitTimeout = 15 * time.Second
	// idleGrace is how long the CLI must sit at an empty prompt before a wait for the
	// model's next request gives up: longer than any gap inside a turn.
	idleGrace = 5 * time.Second
	// termWidth is the Claude terminal's width in columns: wide enough that none of the
	// CLI's messages the tests look for wrap.
	termWidth = 120
)

// session is one scenario's world: a fresh headless Neovim with the plugin, the real CLI
// started by :Claude open in the plugin's terminal split, and the API stand-in the CLI talks
// to. Neovim runs with the CLI's isolated environment (clienv), which the terminal job
// inherits (plus what the plugin adds), and the host writes its lock under the
// CLAUDE_CONFIG_DIR the CLI reads.
type session struct {
	t       *testing.T
	nv      *nvimtest.Nvim
	api     *fakeapi.Server
	env     *clienv.Env
	logFile string // the plugin's log (debug level)

	connected  <-chan map[string]any
	diffOpened <-chan map[string]any
	diffClosed <-chan map[string]any

	cliPID  int
	hostPID int
	// earlierCLIs are the CLIs of sessions opened before the current one
	// (several sessions): they too must be gone before the test's
	// directories are removed.
	earlierCLIs []int
	port        int
	editing     string // the file edit opened last
}

// newSession starts Neovim with the plugin set up to run the real CLI, cd'd into the
// CLI's trusted project directory. The CLI does not run yet: see open.
func newSession(t *testing.T, script ...fakeapi.Turn) *session {
	t.Helper()
	return newSessionWith(t, nil, script...)
}

// newSessionWith is newSession with more options for its Neovim (more environment).
func newSessionWith(t *testing.T, opts []nvimtest.Option, script ...fakeapi.Turn) *session {
	t.Helper()
	clienv.Bin(t) // skips the test without the CLI, before anything starts
	if pluginBinary == "" {
		t.Fatal("the plugin binary was not built (TestMain)")
	}
	api := fakeapi.New(t, script...)
	env := clienv.New(t, api.URL())
	s := &session{t: t, api: api, env: env, logFile: filepath.Join(env.Home, "claude-nvim.log")}
	// Registered before Neovim starts, so it runs after Neovim has exited: the CLI and the
	// host write into the temporary directories (the CLI its session files, the host its
	// log, the lock's removal) until they are gone, and only then may those be removed.
	t.Cleanup(s.waitExited)
	s.nv = nvimtest.New(t, append([]nvimtest.Option{nvimtest.WithEnv(env.Vars()...), nvimtest.AlreadyParallel()}, opts...)...)
	t.Cleanup(s.report)

	s.setUp()
	return s
}

// setUp follows s.nv's events and sets the plugin up to run the real CLI in the project.
func (s *session) setUp() {
	s.t.Helper()
	s.connected = s.nv.UserEvents("ClaudeConnected")
	s.diffOpened = s.nv.UserEvents("ClaudeDiffOpened")
	s.diffClosed = s.nv.UserEvents("ClaudeDiffClosed")
	// Headless Neovim has no UI to size it; the terminal split takes its size from its
	// window, so make the editor big enough for a CLI that needs room.
	s.nv.Lua(nil, `
		local bin, cli, log, project, width = ...
		vim.o.columns, vim.o.lines = 2 * width, 50
		vim.g.claude_nvim_binary = bin
		vim.cmd.cd(vim.fn.fnameescape(project))
		require('claude').setup({
			terminal_cmd = { cli },
			terminal = { size = width },
			log = { level = 'debug', file = log },
		})`, pluginBinary, clienv.Bin(s.t), s.logFile, s.env.Project, termWidth)
}

// writeFile creates a file in the project directory and returns its absolute path.
func (s *session) writeFile(name, content string) string {
	s.t.Helper()
	path := filepath.Join(s.env.Project, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		s.t.Fatal(err)
	}
	return path
}

// edit opens a file in the current window, as the user would before starting Claude.
func (s *session) edit(path string) {
	s.t.Helper()
	s.nv.Lua(nil, `vim.cmd.edit(vim.fn.fnameescape(...))`, path)
	s.editing = path
}

// open runs :Claude open and waits until the CLI has connected to the plugin and is ready
// for a prompt. When a file was opened with edit, the cursor then goes back to it
// (backToFile). It returns the ClaudeConnected event's data.
func (s *session) open() map[string]any {
	s.t.Helper()
	s.nv.Cmd("ClaudeOpen")
	s.readPIDs(":Claude open")
	ev := nvimtest.Next(s.t, s.connected, "User ClaudeConnected (the CLI's ide_connected)", startTimeout)
	// Only now: right after :Claude open the job may not have exec'd the CLI yet and still
	// carry Neovim's own environment.
	s.checkCLIEnvironment()
	var answered time.Time // when the auto-mode offer was last answered
	s.waitScreen("the CLI to be ready for a prompt", startTimeout, func(screen string) bool {
		// A key that arrives while the dialog is still being drawn can be lost (seen with
		// 2.1.332 on a loaded machine): answer again while the offer stays, choosing No
		// only if it is not chosen yet (a second <Down> would wrap round to Yes).
		if strings.Contains(screen, clienv.AutoModeOffer) && time.Since(answered) > answerWait {
			keys := "<Down><CR>"
			if strings.Contains(screen, "❯ No") {
				keys = "<CR>"
			}
			if answered.IsZero() {
				s.t.Logf("the CLI asks %q; keeping the mode", clienv.AutoModeOffer)
				s.focusClaude()
			} else {
				s.t.Logf("the CLI still asks %q; answering again (%s)", clienv.AutoModeOffer, keys)
			}
			answered = time.Now()
			if _, err := s.nv.Input(keys); err != nil {
				s.t.Fatalf("nvim_input: %v", err)
			}
		}
		return isReady(screen)
	})
	if s.editing != "" {
		s.backToFile()
	}
	return ev
}

// readPIDs records the pids of the CLI and of the plugin's host, and the server's port, once
// cmd has started them.
func (s *session) readPIDs(cmd string) {
	s.t.Helper()
	var st struct {
		CLI  int `msgpack:"cli"`
		Host int `msgpack:"host"`
		Port int `msgpack:"port"`
	}
	s.nv.Lua(&st, `
		local term = require('claude.terminal')
		local buf = term.buf()
		local job = buf and vim.b[buf].terminal_job_id
		local host = require('claude.host').channel()
		local port = require('claude').status().port or 0
		for _, x in ipairs(term.sessions()) do
			if x.current then port = x.port end -- a second session's own server
		end
		return {
			cli = job and vim.fn.jobpid(job) or 0,
			host = host and vim.fn.jobpid(host) or 0,
			port = port,
		}`)
	if s.cliPID != 0 && s.cliPID != st.CLI {
		s.earlierCLIs = append(s.earlierCLIs, s.cliPID)
	}
	s.cliPID, s.hostPID, s.port = st.CLI, st.Host, st.Port
	if s.cliPID == 0 || s.port == 0 {
		s.t.Fatalf("%s started no CLI (pid %d) or no server (port %d); messages:\n%s", cmd, s.cliPID, s.port, s.nv.Messages())
	}
}

// nudgeInterval is how long backToFile waits for the CLI to show the file before moving the
// cursor again.
const nudgeInterval = 3 * time.Second

// backToFile goes from Claude's terminal back to the file being edited, as a user does
// after :Claude open, and waits until the CLI shows it ("⧉ In greet.txt": in its footer up to
// 2.1.197, as a chip in its input box in 2.1.332).
//
// That is the sign the CLI is fully connected. ide_connected and its prompt come before it
// has taken in our tools: a prompt submitted then runs without the editor (no
// closeAllDiffTabs, no getDiagnostics, no mcp__ide__getDiagnostics for the model; seen
// under load). It shows the editor's selection only once it has our tools. Until it
// listens it drops selections, and the plugin re-sends the current one only once, a fixed
// time after tools/list: on a loaded machine that can still be too early, so the cursor
// moves again (a new selection) until the CLI shows it.
func (s *session) backToFile() {
	s.t.Helper()
	s.nv.Cmd("wincmd p")
	want := selectionIndicator(s.editing)
	deadline := time.Now().Add(startTimeout)
	nudge := time.Now().Add(nudgeInterval)
	for down := true; ; {
		screen, running := s.screen()
		if strings.Contains(screen, want) {
			return
		}
		if !running || time.Now().After(deadline) {
			s.t.Fatalf("waiting for %q on the CLI's screen (the CLI running: %v); screen:\n%s", want, running, screen)
		}
		if time.Now().After(nudge) {
			s.t.Logf("the CLI does not show %q yet; moving the cursor again", want)
			if down {
				s.nv.Keys("j")
			} else {
				s.nv.Keys("k")
			}
			down = !down
			nudge = time.Now().Add(nudgeInterval)
		}
		time.Sleep(pollInterval)
	}
}

// selectionIndicator is what the CLI shows (footer or input-box chip) while the cursor is in
// path, with nothing selected.
func selectionIndicator(path string) string { return "⧉ In " + filepath.Base(path) }

// checkCLIEnvironment makes sure the CLI Neovim started got the isolated environment: the
// same config dir (where the host wrote the lock), the stand-in API, the plugin's port.
func (s *session) checkCLIEnvironment() {
	s.t.Helper()
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", s.cliPID))
	if err != nil {
		s.t.Logf("cannot read the CLI's environment (%v); not checked", err)
		return
	}
	got := map[string]string{}
	for _, kv := range strings.Split(string(raw), "\x00") {
		if k, v, ok := strings.Cut(kv, "="); ok {
			got[k] = v
		}
	}
	for k, want := range map[string]string{
		"CLAUDE_CONFIG_DIR":    s.env.ConfigDir,
		"HOME":                 s.env.Home,
		"ANTHROPIC_BASE_URL":   s.api.URL(),
		"CLAUDE_CODE_SSE_PORT": strconv.Itoa(s.port),
		"CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL": "1",
	} {
		if got[k] != want {
			s.t.Fatalf("the CLI runs with %s=%q, want %q", k, got[k], want)
		}
	}
	for _, k := range []string{"http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy"} {
		if v, ok := got[k]; ok {
			s.t.Fatalf("the CLI runs with %s=%q; the e2e environment has no proxy", k, v)
		}
	}
}

// report logs, for a failed scenario, what it takes to see why: the whole terminal, the
// editor's messages, the plugin's log and what the model was sent.
func (s *session) report() {
	if !s.t.Failed() {
		return
	}
	var lines []string
	if err := s.nv.ExecLua(`
		local buf = require('claude.terminal').buf()
		if not buf then return {} end
		return vim.api.nvim_buf_get_lines(buf, 0, -1, false)`, &lines); err == nil {
		s.t.Logf("Claude terminal (with scrollback):\n%s", strings.TrimRight(strings.Join(lines, "\n"), "\n "))
	}
	s.t.Logf("Neovim :messages:\n%s", s.nv.Messages())
	if b, err := os.ReadFile(s.logFile); err == nil {
		log := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
		if len(log) > 80 {
			log = log[len(log)-80:]
		}
		s.t.Logf("plugin log (last %d lines):\n%s", len(log), strings.Join(log, "\n"))
	}
	for i, r := range s.api.Main() {
		s.t.Logf("main request #%d (request %d to the API), new user text:\n%s", i+1, r.Seq, tail(r.LastUserText()))
	}
}

// waitExited waits until the CLI and the plugin's host have exited (Neovim hung up on them
// when it quit), killing them after exitTimeout.
func (s *session) waitExited() {
	// The pids the test read, and every other process still running with this test's
	// CLAUDE_CONFIG_DIR: a chat's CLI restarted after the pids were read, or a hook the CLI
	// ran, which a test may never see (the CLI's session files went on being written
	// after the test: "TempDir RemoveAll cleanup: directory not empty").
	pids := append([]int{s.cliPID, s.hostPID}, s.earlierCLIs...)
	pids = append(pids, processesWithEnv("CLAUDE_CONFIG_DIR="+s.env.ConfigDir)...)
	waitOrKill(s.t, pids)
}

// waitOrKill waits until each of pids has exited, killing it after exitTimeout (unlike
// session.waitGone, which fails the test on a process that stays).
func waitOrKill(t testing.TB, pids []int) {
	for _, pid := range pids {
		if pid <= 0 {
			continue
		}
		deadline := time.Now().Add(exitTimeout)
		for tmuxterm.Alive(pid) {
			if time.Now().After(deadline) {
				t.Logf("process %d did not exit after Neovim quit; killing it", pid)
				syscall.Kill(pid, syscall.SIGKILL)
				deadline = time.Now().Add(exitTimeout)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// processesWithEnv lists the processes (of this user) whose environment has the entry kv.
func processesWithEnv(kv string) []int {
	var pids []int
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, dir := range dirs {
		pid, err := strconv.Atoi(filepath.Base(dir))
		if err != nil || pid == os.Getpid() {
			continue
		}
		environ, err := os.ReadFile(filepath.Join(dir, "environ"))
		if err != nil {
			continue
		}
		for _, entry := range strings.Split(string(environ), "\x00") {
			if entry == kv {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}
