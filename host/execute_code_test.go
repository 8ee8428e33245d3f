package host

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/jupyter"
	"github.com/claude-nvim/claude.nvim/mcp"
	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// executeCode against a real Neovim and a real ipykernel, over a real WebSocket: the
// tool is listed only when on, the proposal's buffer decides, and the notebook's kernel
// ends with its buffer.

func ipykernelPython(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if exec.Command(p, "-c", "import ipykernel").Run() == nil {
			return p
		}
	}
	t.Skip("no python3 with ipykernel (apt-get install python3-ipykernel)")
	return ""
}

func listsTool(t *testing.T, c *mcptest.Client, name string) bool {
	t.Helper()
	raw, err := c.Call("tools/list", nil)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Tools []struct{ Name string } `json:"tools"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		if tool.Name == name {
			return true
		}
	}
	return false
}

// proposal waits for the run-code buffer and returns its window, or fails.
func (e *env) proposal() int {
	e.t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		var win int
		e.nv.Lua(&win, `
			for _, win in ipairs(vim.api.nvim_list_wins()) do
				if vim.api.nvim_buf_get_name(vim.api.nvim_win_get_buf(win)):match('^claude://run%-code/') then
					return win
				end
			end
			return 0`)
		if win != 0 {
			return win
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("no run-code proposal showed; messages:\n%s", e.nv.Messages())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func startCode(t *testing.T, c *mcptest.Client, code string) *mcptest.Pending {
	t.Helper()
	p, err := c.Start("tools/call", map[string]any{"name": "executeCode", "arguments": map[string]any{"code": code}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func waitResult(t *testing.T, p *mcptest.Pending) (string, bool) {
	t.Helper()
	raw, err := p.Wait()
	if err != nil {
		t.Fatal(err)
	}
	var res mcp.ToolResult
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, c := range res.Content {
		texts = append(texts, c.Text)
	}
	return strings.Join(texts, ""), res.IsError
}

func TestExecuteCodeIsListedOnlyWhenOn(t *testing.T) {
	e := newEnv(t)
	e.nv.Lua(nil, `require('claude').setup({})`)
	if c := e.connect(); listsTool(t, c, "executeCode") {
		t.Errorf("tools/list offers executeCode with tools.execute_code off")
	}
}

func TestExecuteCodeAsksInABufferAndTheKernelEndsWithTheNotebook(t *testing.T) {
	e := newCodeEnv(t)
	c := e.connect()
	if !listsTool(t, c, "executeCode") {
		t.Fatalf("tools/list lacks executeCode with tools.execute_code on")
	}

	// No notebook open: nothing is shown, and the model is told why.
	if text, isErr := waitResult(t, startCode(t, c, "1")); !isErr || !strings.Contains(text, "No Jupyter notebook") {
		t.Errorf("without a notebook: got %q (error %v), want the refusal", text, isErr)
	}

	nb := e.nv.WriteFile("n.ipynb", `{"cells": []}`)
	e.nv.Cmd("edit " + nb)

	// Wiped rather than :q'd: still a refusal.
	p := startCode(t, c, "print('no')")
	win := e.proposal()
	e.nv.Lua(nil, `vim.api.nvim_buf_delete(vim.api.nvim_win_get_buf(...), { force = true })`, win)
	if text, isErr := waitResult(t, p); !isErr || !strings.Contains(text, "declined") {
		t.Errorf("proposal wiped: got %q (error %v), want declined", text, isErr)
	}

	// Edited, then :w: the edit runs.
	p = startCode(t, c, "print('proposed')")
	win = e.proposal()
	e.nv.Lua(nil, `
		local win = ...
		vim.api.nvim_buf_set_lines(vim.api.nvim_win_get_buf(win), 0, -1, false, { 'import os', 'print(os.getpid())' })
		vim.api.nvim_set_current_win(win)
		vim.cmd.write()`, win)
	text, isErr := waitResult(t, p)
	pid, err := strconv.Atoi(strings.TrimSpace(text))
	if isErr || err != nil {
		t.Fatalf("edited and written: got %q (error %v), want the kernel's pid", text, isErr)
	}
	var left int
	e.nv.Lua(&left, `return #require('claude.code').pending()`)
	if left != 0 {
		t.Errorf("%d proposals still pending after the answers", left)
	}

	// The notebook's buffer goes: so does its kernel.
	e.nv.Cmd("bdelete " + nb)
	deadline := time.Now().Add(waitTimeout)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("the kernel (pid %d) still runs after its notebook's buffer was deleted", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// molten.nvim names a kernel it reached through a connection file by that file's path
// (MoltenRunningKernels(v:true) lists the current buffer's). A stand-in for molten's
// function says the notebook has such a kernel: the code runs there, and the kernel,
// molten's, outlives the notebook's buffer.
func TestExecuteCodeRunsInTheKernelMoltenHoldsForTheNotebook(t *testing.T) {
	python := ipykernelPython(t)
	owner, err := jupyter.Start(context.Background(), jupyter.Options{Python: python, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { owner.Close() })
	if _, err := owner.Execute(context.Background(), "shared = 7", time.Minute); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t)
	e.nv.Lua(nil, `require('claude').setup({ tools = { execute_code = true, python = ... } })`, python)
	nb := e.nv.WriteFile("m.ipynb", `{"cells": []}`)
	e.nv.Cmd("edit " + nb)
	e.nv.Lua(nil, `
		local nb, conn = ...
		local buf = vim.fn.bufnr(nb)
		function _G.molten_stand_in(b) return b == buf and { conn } or {} end
		vim.cmd([[
			function! MoltenRunningKernels(buffer_only) abort
				return v:lua.molten_stand_in(bufnr())
			endfunction
		]])`, nb, owner.ConnectionFile())
	c := e.connect()

	p := startCode(t, c, "print(shared * 6)")
	win := e.proposal()
	var winbar string
	e.nv.Lua(&winbar, `return vim.wo[...].winbar`, win)
	if !strings.Contains(winbar, "molten's kernel") {
		t.Errorf("the proposal's winbar %q does not say the code runs in molten's kernel", winbar)
	}
	e.nv.Lua(nil, `vim.api.nvim_set_current_win(...); vim.cmd.write()`, win)
	if text, isErr := waitResult(t, p); isErr || text != "42\n" {
		t.Errorf("run in molten's kernel: got %q (error %v), want 42 from its shared = 7", text, isErr)
	}
	e.nv.Cmd("bdelete " + nb)
	if res, err := owner.Execute(context.Background(), "print(shared)", time.Minute); err != nil || res.Text != "7\n" {
		t.Errorf("molten's kernel after the notebook's buffer went: got %+v, %v; want it still running", res, err)
	}
}

// The CLI gives the call up (the user pressed Esc there): the proposal closes and nothing
// runs.
func TestExecuteCodeGivenUpClosesTheProposal(t *testing.T) {
	e := newCodeEnv(t)
	nb := e.nv.WriteFile("g.ipynb", `{"cells": []}`)
	e.nv.Cmd("edit " + nb)
	c := e.connect()
	p := startCode(t, c, "print('never')")
	e.proposal()
	if err := p.Cancel("user interrupted"); err != nil {
		t.Fatal(err)
	}
	e.waitNoCodeProposal()
	if running := e.host.kernels.Running(); len(running) != 0 {
		t.Errorf("a kernel started for a cancelled call: %v", running)
	}
}

// Given up while Neovim is still showing it (the host stops waiting for Neovim's answer):
// the proposal Neovim then shows closes too, and nothing runs.
func TestExecuteCodeGivenUpWhileItIsShownClosesTheProposal(t *testing.T) {
	e := newCodeEnv(t)
	nb := e.nv.WriteFile("g.ipynb", `{"cells": []}`)
	e.nv.Cmd("edit " + nb)
	inside := filepath.Join(t.TempDir(), "showing")
	// Neovim busy showing it (a slow UI, a loaded machine) when the cancellation comes.
	e.nv.Lua(nil, `
		local inside = ...
		local handlers = require('claude.handlers')
		local propose = handlers.propose_code
		handlers.propose_code = function(...)
			handlers.propose_code = propose
			local f = assert(io.open(inside, 'w'))
			f:close()
			vim.uv.sleep(300)
			return propose(...)
		end`, inside)
	c := e.connect()
	p := startCode(t, c, "print('never')")
	nvimtest.Wait(t, "Neovim to start showing the code", waitTimeout, func() bool {
		_, err := os.Stat(inside)
		return err == nil
	})
	if err := p.Cancel("user interrupted"); err != nil {
		t.Fatal(err)
	}
	e.waitNoCodeProposal()
	if running := e.host.kernels.Running(); len(running) != 0 {
		t.Errorf("a kernel started for a cancelled call: %v", running)
	}
}

// newCodeEnv is an editor with executeCode on and the ipykernel Python as its interpreter.
func newCodeEnv(t *testing.T) *env {
	t.Helper()
	python := ipykernelPython(t)
	e := newEnv(t)
	e.nv.Lua(nil, `require('claude').setup({ tools = { execute_code = true, python = ... } })`, python)
	return e
}

// waitNoCodeProposal waits until no code proposal is pending or shown.
func (e *env) waitNoCodeProposal() {
	e.t.Helper()
	nvimtest.Wait(e.t, "the code proposal to close after the call was given up", waitTimeout, func() bool {
		var left int
		e.nv.Lua(&left, `
			local n = #require('claude.code').pending()
			for _, b in ipairs(vim.api.nvim_list_bufs()) do
				if vim.api.nvim_buf_get_name(b):match('^claude://run%-code/') then n = n + 1 end
			end
			return n`)
		return left == 0
	})
}
