package e2e

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/lockfile"
	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

func TestTheTransportKilledMidReviewClosesTheProposalAndWritesNothing(t *testing.T) {
	t.Parallel()
	// The drop itself, left dropped (reconnecting: remote_reconnect_test.go).
	r := newRemoteRigWith(t, nil, map[string]any{"reconnect": false})
	r.writeFile("greet.txt", original)
	remotePath := filepath.Join(r.env.Project, "greet.txt")
	r.api.Push(fakeapi.Read(remotePath), fakeapi.Edit(remotePath, "two", "TWO"), fakeapi.Say("Edited."))
	st := r.connect()
	r.startCLI()
	r.prompt("Change two")
	nvimtest.Next(t, r.diffs, "User ClaudeDiffOpened (the remote CLI's openDiff)", turnTimeout)

	// The transport here is the relay itself (env execs it): killing it is
	// the pipe's end, as a broken SSH connection is.
	if err := syscall.Kill(st.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	nvimtest.Next(t, r.closed, "User ClaudeDiffClosed after the remote dropped", turnTimeout)
	dropped := r.waitState("dropped", 0)
	if dropped.Error == "" {
		t.Error("the dropped remote's state says no reason")
	}
	var line string
	r.nv.Lua(&line, `return require('claude').statusline()`)
	if !strings.Contains(line, "⇄ dev dropped") {
		t.Errorf("statusline() = %q, want it to say the remote dropped", line)
	}
	if st := r.diffState(); st.Views != 0 || st.Proposals != 0 {
		t.Errorf("after the drop: %+v, want no proposal left", st)
	}
	if h := r.health(); !strings.Contains(h, "dev: dropped: ") {
		t.Errorf(":checkhealth claude does not say the remote dropped:\n%s", h)
	}
	if s := r.status(); !strings.Contains(s, "remote dev: dropped: ") {
		t.Errorf(":Claude status does not say the remote dropped:\n%s", s)
	}
	if got, err := os.ReadFile(remotePath); err != nil || string(got) != original {
		t.Errorf("the file after the drop = %q (%v), want it untouched", got, err)
	}
	var msgs string
	r.nv.Lua(&msgs, `return vim.fn.execute('messages')`)
	if !strings.Contains(msgs, "remote dev dropped") {
		t.Errorf("the user was not told the remote dropped; messages:\n%s", msgs)
	}
}

func (r *remoteRig) diffState() diffState {
	var st diffState
	r.nv.Lua(&st, `
		local p = 0
		for _, b in ipairs(vim.api.nvim_list_bufs()) do if vim.b[b].claude_diff then p = p + 1 end end
		return { views = #require('claude.diff').ids(), proposals = p }`)
	return st
}

// A hostile remote (anything that can reach the relay's port with its
// token) names files outside the map: every tool refuses, nothing opens.
func TestAHostileRemoteNamingFilesOutsideTheMapGetsErrorsOnly(t *testing.T) {
	t.Parallel()
	r := newRemoteRig(t, nil)
	r.writeFile("greet.txt", original)
	secret := filepath.Join(filepath.Dir(r.env.Project), "secret.txt")
	if err := os.WriteFile(secret, []byte("secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A link in the editor's directory that leads out of it.
	if err := os.Symlink(secret, filepath.Join(r.local, "out.txt")); err != nil {
		t.Fatal(err)
	}
	st := r.connect()
	info, err := lockfile.Read(st.Lockfile)
	if err != nil {
		t.Fatal(err)
	}
	cl := mcptest.Dial(t, "ws://127.0.0.1:"+strings.TrimSuffix(filepath.Base(st.Lockfile), ".lock"), info.AuthToken)
	cl.Initialize()
	project := r.env.Project
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"openDiff", map[string]any{"old_file_path": secret, "new_file_path": secret, "new_file_contents": "x", "tab_name": "t1"}},
		{"openDiff", map[string]any{"old_file_path": project + "/../secret.txt", "new_file_path": project + "/../secret.txt", "new_file_contents": "x", "tab_name": "t2"}},
		{"openDiff", map[string]any{"old_file_path": project + "/out.txt", "new_file_path": project + "/out.txt", "new_file_contents": "x", "tab_name": "t3"}},
		{"openDiff", map[string]any{"old_file_path": project + "/greet.txt", "new_file_path": "/etc/passwd", "new_file_contents": "x", "tab_name": "t4"}},
		{"openFile", map[string]any{"filePath": "/etc/passwd"}},
		{"openFile", map[string]any{"filePath": "greet.txt"}},
		{"getDiagnostics", map[string]any{"uri": "file://" + secret}},
		{"checkDocumentDirty", map[string]any{"filePath": secret}},
		{"saveDocument", map[string]any{"filePath": project + "/out.txt"}},
	} {
		res, err := cl.CallTool(c.tool, c.args)
		var rpc *mcptest.RPCError
		switch {
		case errors.As(err, &rpc):
			if !strings.Contains(rpc.Message, "outside the remote's path map") {
				t.Errorf("%s %v: error %q does not say the path is outside the map", c.tool, c.args, rpc.Message)
			}
		case err != nil:
			t.Errorf("%s %v: %v", c.tool, c.args, err)
		case len(res.Content) == 1 && strings.Contains(res.Content[0].Text, `"success":false`) &&
			strings.Contains(res.Content[0].Text, "outside the remote's path map"):
			// saveDocument and checkDocumentDirty answer a failure as the CLI expects.
		default:
			t.Errorf("%s %v: answered %+v, want it refused", c.tool, c.args, res)
		}
	}
	// The variant protocol's direct methods (readFile, writeFile, …) take
	// local paths: a remote is not offered them.
	for _, method := range []string{"readFile", "listFiles", "getWorkspaceInfo"} {
		if res, err := cl.Call(method, map[string]any{"path": secret}); err == nil {
			t.Errorf("%s over the relay answered %s, want it unknown", method, res)
		}
	}
	if st := r.diffState(); st.Views != 0 {
		t.Errorf("a refused call opened %d diff views", st.Views)
	}
	var named int
	r.nv.Lua(&named, `
		local n = 0
		for _, b in ipairs(vim.api.nvim_list_bufs()) do
			local name = vim.api.nvim_buf_get_name(b)
			if name:find('secret', 1, true) or name:find('passwd', 1, true) or name:find('out.txt', 1, true) then n = n + 1 end
		end
		return n`)
	if named != 0 {
		t.Errorf("%d buffers name a file outside the map", named)
	}
	if got, _ := os.ReadFile(secret); string(got) != "secret\n" {
		t.Errorf("the file outside the map changed: %q", got)
	}
	// Inside the map the same remote is served, under its own names.
	res, err := cl.CallTool("getWorkspaceFolders", map[string]any{})
	if err != nil || len(res.Content) != 1 || !strings.Contains(res.Content[0].Text, `"path":"`+project+`"`) || strings.Contains(res.Content[0].Text, r.local) {
		t.Errorf("getWorkspaceFolders = %+v (%v), want the remote's folder only", res, err)
	}
}

func TestAMentionOutsideEveryMapIsRefusedWithAMessage(t *testing.T) {
	t.Parallel()
	r := newRemoteRig(t, nil)
	r.connect()
	outside := filepath.Join(filepath.Dir(r.env.Project), "elsewhere.txt")
	if err := os.WriteFile(outside, []byte(original), 0o600); err != nil {
		t.Fatal(err)
	}
	r.nv.Cmd("edit " + outside)
	r.nv.Cmd("ClaudeSend")
	nvimtest.Wait(t, "the warning about the path outside the map", turnTimeout, func() bool {
		var msgs string
		r.nv.Lua(&msgs, `return vim.fn.execute('messages')`)
		return strings.Contains(msgs, "is outside the path map of remote dev")
	})
}

// health is :checkhealth claude's report.
func (r *remoteRig) health() string {
	var text string
	r.nv.Lua(&text, `
		vim.cmd('checkhealth claude')
		local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
		vim.cmd('bwipeout!')
		return text`)
	return text
}

// Diagnostics of a mapped file reach the remote under its own name, pushed
// (diagnostics_changed) and asked for (getDiagnostics).
func TestDiagnosticsReachTheRemoteUnderItsPaths(t *testing.T) {
	t.Parallel()
	r := newRemoteRig(t, nil)
	r.writeFile("greet.txt", original)
	st := r.connect()
	info, err := lockfile.Read(st.Lockfile)
	if err != nil {
		t.Fatal(err)
	}
	cl := mcptest.Dial(t, "ws://127.0.0.1:"+strings.TrimSuffix(filepath.Base(st.Lockfile), ".lock"), info.AuthToken)
	cl.Initialize()
	if _, err := cl.Call("tools/list", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	remotePath := filepath.Join(r.env.Project, "greet.txt")
	r.nv.Cmd("edit " + filepath.Join(r.local, "greet.txt"))
	r.nv.Lua(nil, `vim.diagnostic.set(vim.api.nvim_create_namespace('t'), 0,
		{ { lnum = 1, col = 0, message = 'bad two', severity = vim.diagnostic.severity.WARN } })`)
	var pushed struct {
		URI         string `json:"uri"`
		Diagnostics []struct {
			Message string `json:"message"`
		} `json:"diagnostics"`
	}
	raw, err := cl.WaitNotification("diagnostics_changed", turnTimeout)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &pushed); err != nil || pushed.URI != "file://"+remotePath || len(pushed.Diagnostics) != 1 {
		t.Errorf("diagnostics_changed = %s (%v), want the one diagnostic under %s", raw, err, remotePath)
	}
	res, err := cl.CallTool("getDiagnostics", map[string]any{"uri": "file://" + remotePath})
	if err != nil || len(res.Content) != 1 || !strings.Contains(res.Content[0].Text, "bad two") ||
		!strings.Contains(res.Content[0].Text, remotePath) || strings.Contains(res.Content[0].Text, r.local) {
		t.Errorf("getDiagnostics = %+v (%v), want bad two under the remote's path only", res, err)
	}
}

// status is what :Claude status says.
func (r *remoteRig) status() string {
	var text string
	r.nv.Lua(&text, `return vim.fn.execute('ClaudeStatus')`)
	return text
}
