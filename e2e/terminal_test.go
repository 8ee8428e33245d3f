package e2e

// The Claude terminal: reading the CLI's screen from its buffer and typing into it.

import (
	"context"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// screen returns the visible screen of the Claude terminal (the last rows of its buffer)
// and whether the CLI still runs.
func (s *session) screen() (string, bool) {
	s.t.Helper()
	var st struct {
		Running bool     `msgpack:"running"`
		Lines   []string `msgpack:"lines"`
	}
	s.nv.Lua(&st, `
		local term = require('claude.terminal')
		local buf = term.buf()
		if not buf then return { running = false, lines = {} } end
		local n = vim.api.nvim_buf_line_count(buf)
		local win = vim.fn.win_findbuf(buf)[1]
		local rows = win and vim.api.nvim_win_get_height(win) or n
		return { running = term.is_running(), lines = vim.api.nvim_buf_get_lines(buf, math.max(0, n - rows), -1, false) }`)
	return strings.Join(st.Lines, "\n"), st.Running
}

// waitScreen polls the Claude terminal until ok accepts its screen, and returns that
// screen. It fails the test with the last screen on timeout or when the CLI exits.
func (s *session) waitScreen(what string, timeout time.Duration, ok func(string) bool) string {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		screen, running := s.screen()
		if ok(screen) {
			return screen
		}
		if !running {
			s.t.Fatalf("waiting for %s: the CLI exited; screen:\n%s", what, screen)
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("timed out after %v waiting for %s; screen:\n%s", timeout, what, screen)
		}
		time.Sleep(pollInterval)
	}
}

// waitText waits until the terminal screen shows text.
func (s *session) waitText(text string, timeout time.Duration) string {
	s.t.Helper()
	return s.waitScreen(fmt.Sprintf("%q on the CLI's screen", text), timeout, func(sc string) bool {
		return strings.Contains(sc, text)
	})
}

// isReady is the CLI idling at an empty prompt: what it shows, not how (see clienv.Idle).
// waitRejected waits until the CLI notes that the user rejected its change of the file
// called name.
func (s *session) waitRejected(name string) string {
	s.t.Helper()
	return s.waitScreen("the CLI's note that the change of "+name+" was rejected", turnTimeout, func(sc string) bool {
		return clienv.Rejected(sc, name)
	})
}

func isReady(screen string) bool { return clienv.Idle(screen) }

// focusClaude does what a user does to talk to Claude: :Claude focus insert, which puts the
// cursor in the terminal in terminal mode, so keys go to the CLI (:Claude focus alone leaves
// it in Normal mode).
func (s *session) focusClaude() {
	s.t.Helper()
	s.nv.Cmd("Claude focus insert")
	s.waitMode("t", "terminal mode in the Claude terminal after :Claude focus insert")
}

// waitMode waits until Neovim is in mode (nvim_get_mode's "mode"): modes entered with
// :startinsert take effect when Neovim next waits for input.
func (s *session) waitMode(mode, what string) {
	s.t.Helper()
	nvimtest.Wait(s.t, what, turnTimeout, func() bool {
		var m struct {
			Mode string `msgpack:"mode"`
		}
		if err := s.nv.Call("nvim_get_mode", &m); err != nil {
			s.t.Fatalf("nvim_get_mode: %v", err)
		}
		return m.Mode == mode
	})
}

// assertStillInTerminal checks the user is still typing in Claude's terminal.
func (s *session) assertStillInTerminal(when string) {
	s.t.Helper()
	var st struct {
		Mode       string `msgpack:"mode"`
		InTerminal bool   `msgpack:"in_terminal"`
	}
	s.nv.Lua(&st, `return { mode = vim.api.nvim_get_mode().mode, in_terminal = vim.b.claude_terminal == true }`)
	if st.Mode != "t" || !st.InTerminal {
		s.t.Fatalf("%s: mode %q, in Claude's terminal %v; want the user left typing in Claude's terminal", when, st.Mode, st.InTerminal)
	}
}

// typeKeys types into Neovim: text is taken literally, like typing it.
func (s *session) typeKeys(text string) {
	s.t.Helper()
	if _, err := s.nv.Input(strings.ReplaceAll(text, "<", "<lt>")); err != nil {
		s.t.Fatalf("nvim_input %q: %v", text, err)
	}
}

// pressEnter presses Enter in Neovim.
func (s *session) pressEnter() {
	s.t.Helper()
	if _, err := s.nv.Input("<CR>"); err != nil {
		s.t.Fatalf("nvim_input <CR>: %v", err)
	}
}

// prompt waits until the CLI idles, focuses its terminal, types text into its input box,
// waits until the box shows it and presses Enter: keys typed while the CLI is busy or shows
// a dialog would go elsewhere.
func (s *session) prompt(text string) {
	s.t.Helper()
	s.waitScreen("the CLI to be ready for a prompt", turnTimeout, isReady)
	s.focusClaude()
	s.typeKeys(text)
	s.waitInput(text)
	s.pressEnter()
}

// waitInput waits until the CLI's input box holds want.
func (s *session) waitInput(want string) string {
	s.t.Helper()
	return s.waitScreen(fmt.Sprintf("%q in the CLI's input box", want), turnTimeout, func(sc string) bool {
		got, ok := clienv.InputLine(sc)
		return ok && got == want
	})
}

// mainRequest waits for the n-th main-conversation request (1-based) to reach the API. It
// fails early when the CLI sits idle at its prompt for idleGrace: the turn ended without it.
func (s *session) mainRequest(n int) fakeapi.Request {
	s.t.Helper()
	deadline := time.Now().Add(turnTimeout)
	var idleSince time.Time
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*pollInterval)
		req, err := s.api.WaitMain(ctx, n)
		cancel()
		if err == nil {
			return req
		}
		// Idle: the input box is empty and no turn runs.
		screen, running := s.screen()
		switch {
		case !running:
			s.t.Fatalf("waiting for main request #%d: the CLI exited; screen:\n%s", n, screen)
		case !isReady(screen):
			idleSince = time.Time{}
		case idleSince.IsZero():
			idleSince = time.Now()
		case time.Since(idleSince) > idleGrace:
			s.t.Fatalf("waiting for main request #%d: the CLI ended the turn after %d; screen:\n%s", n, len(s.api.Main()), screen)
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("%v; screen:\n%s", err, screen)
		}
	}
}

// assertTerminalFits checks that the CLI draws for the size of the Claude window: a
// terminal whose pty is wider than its window shows the CLI's lines cut off.
func (s *session) assertTerminalFits(when string) {
	s.t.Helper()
	var width int
	s.nv.Lua(&width, `
		local win = vim.fn.win_findbuf(require('claude.terminal').buf() or -1)[1]
		return win and vim.api.nvim_win_get_width(win) or -1`)
	rows, cols, err := ptySize(s.cliPID)
	if err != nil {
		s.t.Logf("cannot read the size of the CLI's terminal (%v); not checked", err)
		return
	}
	if cols != width {
		s.t.Errorf("%s: the CLI's terminal is %dx%d but its window is %d columns wide", when, cols, rows, width)
	}
}

// ptySize reads the window size of the terminal pid's stdin is (TIOCGWINSZ).
func ptySize(pid int) (rows, cols int, err error) {
	f, err := os.OpenFile(fmt.Sprintf("/proc/%d/fd/0", pid), os.O_RDONLY|syscall.O_NOCTTY, 0)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	var ws struct{ Row, Col, X, Y uint16 }
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), syscall.TIOCGWINSZ, uintptr(unsafe.Pointer(&ws))); errno != 0 {
		return 0, 0, errno
	}
	return int(ws.Row), int(ws.Col), nil
}
