package e2e

// Remotes (issue 41): the real CLI runs "elsewhere" (its own config dir and
// project path, or its own pid and mount namespace) and finds Neovim
// through `claude-nvim relay` started by the plugin over a transport
// command; paths are mapped between its project and the editor's directory.

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/e2e/tmuxterm"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// remoteRig is Neovim with one remote, "dev": the CLI's side is env (its
// CLAUDE_CONFIG_DIR, its project, the "remote" path) and the editor sees the
// same files under local, another directory whose files are hard links to
// the project's (standing in for sshfs or a bind mount: unlike a symbolic
// link, nothing resolves one path to the other, so an unmapped path shows).
type remoteRig struct {
	t      *testing.T
	api    *fakeapi.Server
	env    *clienv.Env
	nv     *nvimtest.Nvim
	local  string // the project as the editor names it
	cli    *tmuxterm.Term
	diffs  <-chan map[string]any
	closed <-chan map[string]any
}

type remoteState struct {
	State    string `msgpack:"state"`
	Error    string `msgpack:"error"`
	PID      int    `msgpack:"pid"`
	Port     int    `msgpack:"port"`
	Lockfile string `msgpack:"lockfile"`
	Clients  int    `msgpack:"clients"`
}

// newRemoteRig sets Neovim up with remote dev, whose transport is
// transport followed by the relay's command line.
func newRemoteRig(t *testing.T, transport []string, script ...fakeapi.Turn) *remoteRig {
	t.Helper()
	return newRemoteRigWith(t, transport, nil, script...)
}

// newRemoteRigWith is newRemoteRig with more settings for remote dev.
func newRemoteRigWith(t *testing.T, transport []string, extra map[string]any, script ...fakeapi.Turn) *remoteRig {
	t.Helper()
	clienv.Bin(t)
	if pluginBinary == "" {
		t.Fatal("the plugin binary was not built (TestMain)")
	}
	api := fakeapi.New(t, script...)
	env := clienv.New(t, api.URL())
	local := filepath.Join(filepath.Dir(env.Project), "editor-view")
	if err := os.Mkdir(local, 0o700); err != nil {
		t.Fatal(err)
	}
	r := &remoteRig{t: t, api: api, env: env, local: local}
	r.start(append(append([]string(nil), transport...), "env", "CLAUDE_CONFIG_DIR="+env.ConfigDir, pluginBinary, "relay"), extra)
	return r
}

// start runs Neovim with remote dev, whose transport command (the relay's
// at its end) is command (nil: extra gives exec); extra adds to its settings.
func (r *remoteRig) start(command []string, extra map[string]any) {
	t, env, local := r.t, r.env, r.local
	r.nv = nvimtest.New(t, nvimtest.WithEnv("HOME="+env.Home), nvimtest.AlreadyParallel())
	r.diffs = r.nv.UserEvents("ClaudeDiffOpened")
	r.closed = r.nv.UserEvents("ClaudeDiffClosed")
	r.nv.Lua(nil, `
		local bin, command, remote, here, log, extra = ...
		vim.g.claude_nvim_binary = bin
		vim.cmd.cd(vim.fn.fnameescape(here))
		require('claude').setup({
			remotes = { dev = vim.tbl_extend('force', { command = command ~= vim.NIL and command or nil, map = { [remote] = here } },
				extra ~= vim.NIL and extra or {}) },
			log = { level = 'debug', file = log },
		})`, pluginBinary, command, env.Project, local, filepath.Join(env.Home, "claude-nvim.log"), extra)
	t.Cleanup(func() {
		if t.Failed() {
			if b, err := os.ReadFile(filepath.Join(env.Home, "claude-nvim.log")); err == nil {
				t.Logf("plugin log:\n%s", tailLines(string(b), 60))
			}
		}
	})
}

func tailLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// writeFile writes name in the CLI's project and links it into the
// editor's view of it.
func (r *remoteRig) writeFile(name, content string) {
	r.t.Helper()
	remote, local := filepath.Join(r.env.Project, name), filepath.Join(r.local, name)
	if err := os.WriteFile(remote, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
	if err := os.Link(remote, local); err != nil {
		r.t.Fatal(err)
	}
}

func (r *remoteRig) state() remoteState {
	var st remoteState
	r.nv.Lua(&st, `return require('claude.remote').states().dev or { state = '' }`)
	return st
}

// waitState waits until remote dev is in state, with at least clients CLIs.
func (r *remoteRig) waitState(state string, clients int) remoteState {
	r.t.Helper()
	var st remoteState
	nvimtest.Wait(r.t, "remote dev "+state, startTimeout, func() bool {
		st = r.state()
		return st.State == state && st.Clients >= clients
	})
	return st
}

// connect runs :Claude remote connect dev and waits for the relay's lock.
func (r *remoteRig) connect() remoteState {
	r.t.Helper()
	r.nv.Cmd("ClaudeRemote dev")
	st := r.waitState("connected", 0)
	if filepath.Dir(st.Lockfile) != r.env.LockDir() {
		r.t.Fatalf("the relay's lock is %s, want it in the CLI's %s", st.Lockfile, r.env.LockDir())
	}
	return st
}

// startCLI runs the CLI (argv before it: a namespace to enter) with --ide
// in its project and waits until it is connected through the relay.
func (r *remoteRig) startCLI(prefix ...string) {
	r.t.Helper()
	argv := append(append([]string(nil), prefix...), clienv.Bin(r.t), "--ide", "--permission-mode", "default")
	r.startTerm(r.env.Project, argv)
}

// startTerm runs argv (the CLI, with --ide) in a terminal in dir and waits
// until it idles, connected through the relay.
func (r *remoteRig) startTerm(dir string, argv []string) {
	r.t.Helper()
	r.cli = tmuxterm.Start(r.t, tmuxterm.Options{Dir: dir, Env: r.env.Vars(), Width: 120, Height: 40}, argv...)
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	if _, err := r.cli.WaitUntil(ctx, "the CLI idling at an empty input box", clienv.Idle); err != nil {
		r.t.Fatalf("the CLI did not get ready for input: %v", err)
	}
	r.waitState("connected", 1)
}

func (r *remoteRig) waitText(text string) {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	defer cancel()
	if _, err := r.cli.WaitForText(ctx, text); err != nil {
		r.t.Fatalf("the CLI never showed %q: %v", text, err)
	}
}

// prompt types a prompt in the CLI and presses Enter once it shows.
func (r *remoteRig) prompt(text string) {
	r.t.Helper()
	submit(r.t, r.cli, text)
}

func TestARemoteCLISeesTheSelectionAndAnEditIsReviewedThroughTheRelay(t *testing.T) {
	t.Parallel()
	r := newRemoteRig(t, nil)
	remotePath := filepath.Join(r.env.Project, "greet.txt")
	localPath := filepath.Join(r.local, "greet.txt")
	r.writeFile("greet.txt", original)
	r.api.Push(fakeapi.Read(remotePath), fakeapi.Edit(remotePath, "two", "TWO"), fakeapi.Say("Edited."))
	r.connect()
	r.startCLI()

	if h := r.health(); !strings.Contains(h, "dev: connected; relay pid ") || !strings.Contains(h, "1 CLI connected") {
		t.Errorf(":checkhealth claude does not show the remote connected:\n%s", h)
	}
	if s := r.status(); !strings.Contains(s, "remote dev: connected, relay pid ") || !strings.Contains(s, ", 1 CLI") {
		t.Errorf(":Claude status does not show the remote connected:\n%s", s)
	}
	r.nv.Cmd("edit " + localPath)
	r.nv.Keys("2GVj<Esc>")
	r.waitText("⧉ 2 lines selected")
	// The user stops typing here: a proposal that comes within a second of
	// their last key waits for :Claude review focus (claude.typing), and the
	// stand-in answers that fast when the machine is idle. Typing's own
	// tests cover that wait; this one is about the relay.
	r.nv.Cmd("lua require('claude.typing').forget()")
	r.prompt("Change two")

	ev := nvimtest.Next(t, r.diffs, "User ClaudeDiffOpened (the remote CLI's openDiff)", turnTimeout)
	if ev["path"] != localPath {
		t.Fatalf("ClaudeDiffOpened %v, want the editor's path %s", ev, localPath)
	}
	req := r.mainRequest(1)
	want := "The user selected the lines 2 to 3 from " + remotePath
	if got := req.LastUserText(); !strings.Contains(got, want) {
		t.Errorf("the model request lacks the selection under the CLI's path; want %q in\n%s", want, tail(got))
	}
	r.nv.Cmd("ClaudeDiffAccept")
	nvimtest.Next(t, r.closed, "User ClaudeDiffClosed", turnTimeout)
	r.waitText("Edited.")
	got, err := os.ReadFile(remotePath)
	if err != nil || string(got) != "one\nTWO\nthree\n" {
		t.Errorf("the file after the accepted edit = %q (%v)", got, err)
	}
}

func (r *remoteRig) mainRequest(n int) fakeapi.Request {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	defer cancel()
	req, err := r.api.WaitMain(ctx, n)
	if err != nil {
		r.t.Fatalf("main request %d: %v", n, err)
	}
	return req
}
