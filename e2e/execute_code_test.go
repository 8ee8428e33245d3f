package e2e

import (
	"context"
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

// executeCode in the terminal (tools.execute_code): the model's calls of
// mcp__ide__executeCode are shown in Neovim and run in a real ipykernel only once the
// user writes the code's buffer. In one conversation: a call allowed (state kept into the
// next call, which also plots), a call refused with :q, a 10 MiB output (cut with a note)
// and the kernel dying under os._exit.

const executeCodeTool = "mcp__ide__executeCode"

// kernelPython is an interpreter with ipykernel and matplotlib (Debian's python3-ipykernel
// and python3-matplotlib, which .ci/run installs), or the test skips.
func kernelPython(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(p, "-c", "import ipykernel, matplotlib").Run() == nil {
			return p
		}
	}
	t.Skip("no python3 with ipykernel and matplotlib (apt-get install python3-ipykernel python3-matplotlib)")
	return ""
}

// answerCode waits for the code proposal to show and answers it in its window as the
// user does: cmd "write" runs it, "quit" refuses it. It returns the code shown.
func (s *session) answerCode(cmd string) string {
	s.t.Helper()
	deadline := time.Now().Add(turnTimeout)
	for {
		var shown struct {
			Win  int    `msgpack:"win"`
			Code string `msgpack:"code"`
			FT   string `msgpack:"ft"`
			Cur  bool   `msgpack:"cur"`
		}
		s.nv.Lua(&shown, `
			for _, win in ipairs(vim.api.nvim_list_wins()) do
				local buf = vim.api.nvim_win_get_buf(win)
				if vim.api.nvim_buf_get_name(buf):match('^claude://run%-code/') then
					return { win = win, ft = vim.bo[buf].filetype, cur = win == vim.api.nvim_get_current_win(),
						code = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n') }
				end
			end
			return { win = 0 }`)
		if shown.Win != 0 {
			if shown.FT != "python" || shown.Cur {
				s.t.Errorf("the code shows with filetype %q, entered: %v; want python, not entered", shown.FT, shown.Cur)
			}
			s.nv.Lua(nil, `local win, cmd = ...; vim.api.nvim_set_current_win(win); vim.cmd(cmd)`, shown.Win, cmd)
			return shown.Code
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("no code proposal showed in Neovim; messages:\n%s", s.nv.Messages())
		}
		time.Sleep(pollInterval)
	}
}

// codeResult is the nth executeCode result the model got: its text, whether it is an
// error, and its images' media types.
func (s *session) codeResult(nth int) (text string, isError bool, images []fakeapi.ImageSource) {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	defer cancel()
	r, err := s.api.NthToolResult(ctx, executeCodeTool, nth)
	if err != nil {
		s.t.Fatalf("%v; requests: %d", err, len(s.api.Main()))
	}
	for _, c := range r.Content {
		if c.Type == "image" && c.Source != nil {
			images = append(images, *c.Source)
		}
	}
	return strings.Join(r.Texts(), "\n"), r.IsError, images
}

func TestExecuteCodeRunsInAKernelOnlyWhenTheUserWritesIt(t *testing.T) {
	t.Parallel()
	python := kernelPython(t)
	s := newSession(t)
	s.nv.Lua(nil, `
		local cfg = vim.deepcopy(require('claude').config())
		cfg.tools = { execute_code = true, python = ... }
		require('claude').setup(cfg)`, python)
	nb := s.writeFile("analysis.ipynb", `{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`)
	call := func(code string) fakeapi.Turn {
		return fakeapi.Use(executeCodeTool, map[string]any{"code": code})
	}
	s.api.Push(
		call("x = 21\nprint('set', x)"),
		call("print('twice', x * 2)\nimport matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.show()"),
		call("open('refused.txt', 'w').write('ran')"),
		call("import sys\nfor _ in range(10): sys.stdout.write('y' * (1 << 20))"),
		call("print('going', flush=True)\nimport os\nos._exit(7)"),
		fakeapi.Say("Done with the notebook."),
	)
	s.edit(nb)
	s.open()
	s.prompt("Explore the data in the notebook.")

	s.answerYes(clienv.ProceedQuestion)
	if shown := s.answerCode("write"); shown != "x = 21\nprint('set', x)" {
		t.Errorf("the proposal shows %q, want the model's code", shown)
	}
	if text, isErr, _ := s.codeResult(0); isErr || !strings.Contains(text, "set 21") {
		t.Errorf("call 1 (allowed): got %q (error %v), want its output", text, isErr)
	}

	s.answerYes(clienv.ProceedQuestion)
	s.answerCode("write")
	text, isErr, images := s.codeResult(1)
	if isErr || !strings.Contains(text, "twice 42") {
		t.Errorf("call 2 (x from call 1): got %q (error %v), want twice 42: the kernel's state kept", text, isErr)
	}
	if len(images) != 1 || !strings.HasPrefix(images[0].MediaType, "image/") {
		t.Errorf("call 2 (a plot): got images %+v, want one", images)
	} else if b, err := base64.StdEncoding.DecodeString(images[0].Data); err != nil || len(b) < 100 {
		t.Errorf("call 2's image decodes to %d bytes (%v), want a plot", len(b), err)
	}

	s.answerYes(clienv.ProceedQuestion)
	s.answerCode("quit")
	if text, isErr, _ := s.codeResult(2); !isErr || !strings.Contains(text, "declined") {
		t.Errorf("call 3 (refused): got %q (error %v), want an error saying the user declined", text, isErr)
	}
	if _, err := os.Stat(filepath.Join(s.env.Project, "refused.txt")); err == nil {
		t.Errorf("the refused code ran: refused.txt exists")
	}

	s.answerYes(clienv.ProceedQuestion)
	s.answerCode("write")
	if text, _, _ := s.codeResult(3); len(text) > 200<<10 || !strings.Contains(text, "output cut") || !strings.Contains(text, "yyyy") {
		t.Errorf("call 4 (10 MiB): got %d bytes ending %q, want at most about 100 KiB with a note", len(text), text[max(0, len(text)-200):])
	}

	s.answerYes(clienv.ProceedQuestion)
	s.answerCode("write")
	if text, isErr, _ := s.codeResult(4); !isErr || !strings.Contains(text, "kernel died") || !strings.Contains(text, "exit status 7") {
		t.Errorf("call 5 (os._exit): got %q (error %v), want the kernel's death reported", text, isErr)
	}
	s.waitText("Done with the notebook.", turnTimeout)
}
