package e2e

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
)

// The relay put on the remote side (issue 41): a remote given by exec (the transport alone)
// gets the editor's claude-nvim copied over it when it has no identical one, into
// $XDG_DATA_HOME/claude-nvim/VERSION (0700, the remote user's), checked against the
// binary's SHA-256 there; a transfer that alters it installs nothing, and a remote of
// another platform is told what to install.

// pluginVersion is host.Version, as the install directory names it.
const pluginVersion = "0.1.0"

func TestOverSSHTheRelayIsPutThereWhenMissingOrDifferent(t *testing.T) {
	t.Parallel()
	var data string
	r := newSSHRigWith(t, func(r *sshRig) map[string]any {
		data = filepath.Join(r.remoteEnv["HOME"], ".local", "share")
		exec := append(append([]string(nil), r.sshd.client...), "--", "env",
			shellQuote("CLAUDE_CONFIG_DIR="+r.env.ConfigDir), shellQuote("XDG_DATA_HOME="+data))
		return map[string]any{"exec": exec}
	})
	installed := filepath.Join(data, "claude-nvim", pluginVersion, "claude-nvim")
	want := fileSum(t, pluginBinary)

	st := r.connect()
	r.checkInstalled(installed, want, st.PID)

	// An older or damaged copy there is replaced.
	r.nv.Cmd("ClaudeRemote! dev")
	r.waitState("stopped", 0)
	// Put in place by a rename, as an install does: the relay just stopped may still be
	// running that file (writing it in place is "text file busy" then).
	old := installed + ".old"
	if err := os.WriteFile(old, []byte("#!/bin/sh\necho an old build\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(old, r.uid, -1); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(old, installed); err != nil {
		t.Fatal(err)
	}
	st = r.connect()
	r.checkInstalled(installed, want, st.PID)
	r.startCLI()
}

// checkInstalled checks the copy there: the remote user's, 0700 in a 0700 directory, this
// build byte for byte, and the relay running.
func (r *sshRig) checkInstalled(installed string, sum [32]byte, pid int) {
	t := r.t
	t.Helper()
	for _, p := range []string{installed, filepath.Dir(installed)} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatalf("the relay was not put there: %v", err)
		}
		if fileOwner(fi) != r.uid || fi.Mode().Perm() != 0o700 {
			t.Errorf("%s: uid %d mode %v, want the remote account's (%d), 0700", p, fileOwner(fi), fi.Mode().Perm(), r.uid)
		}
	}
	if got := fileSum(t, installed); got != sum {
		t.Errorf("the copy there is not this build: sha256 %x, want %x", got, sum)
	}
	if exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid)); err != nil || exe != installed {
		t.Errorf("the relay (pid %d) runs %q (%v), want the copy %s", pid, exe, err, installed)
	}
}

func fileSum(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

// newExecRig is a remote whose exec runs here: a shell wrapper (its argv: the command
// run there) standing for the transport, with XDG_DATA_HOME of its own.
func newExecRig(t *testing.T, wrapper string) (*remoteRig, string) {
	t.Helper()
	clienv.Bin(t)
	if pluginBinary == "" {
		t.Fatal("the plugin binary was not built (TestMain)")
	}
	api := fakeapi.New(t)
	env := clienv.New(t, api.URL())
	local := filepath.Join(filepath.Dir(env.Project), "editor-view")
	data := filepath.Join(filepath.Dir(env.Project), "remote-data")
	for _, d := range []string{local, data} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	r := &remoteRig{t: t, api: api, env: env, local: local}
	exec := []string{"sh", "-c", wrapper, "transport", "env", "CLAUDE_CONFIG_DIR=" + env.ConfigDir, "XDG_DATA_HOME=" + data}
	r.start(nil, map[string]any{"exec": exec})
	return r, filepath.Join(data, "claude-nvim", pluginVersion)
}

func TestARelayAlteredOnTheWayIsRefusedAndNothingIsInstalled(t *testing.T) {
	t.Parallel()
	// The transport changes every E to e of what it carries (the ELF magic among them).
	r, dir := newExecRig(t, `tr E e | "$@"`)
	r.nv.Cmd("ClaudeRemote dev")
	st := r.waitState("failed", 0)
	if !strings.Contains(st.Error, "checksum mismatch") {
		t.Errorf("the remote failed with %q, want the checksum mismatch said", st.Error)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		t.Errorf("left on the remote side: %s", filepath.Join(dir, e.Name()))
	}
}

func TestARemoteOfAnotherPlatformIsToldWhatToInstall(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "bin")
	if err := os.Mkdir(bin, 0o700); err != nil {
		t.Fatal(err)
	}
	uname := "#!/bin/sh\ncase $1 in -s) echo Darwin;; -m) echo arm64;; esac\n"
	if err := os.WriteFile(filepath.Join(bin, "uname"), []byte(uname), 0o700); err != nil {
		t.Fatal(err)
	}
	r, dir := newExecRig(t, `PATH=`+bin+`:$PATH; export PATH; exec "$@"`)
	r.nv.Cmd("ClaudeRemote dev")
	st := r.waitState("failed", 0)
	if want := "install claude-nvim " + pluginVersion + " for darwin/arm64 there"; !strings.Contains(st.Error, want) {
		t.Errorf("the remote failed with %q, want %q", st.Error, want)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Errorf("%s was made for a binary that cannot run there", dir)
	}
	var msgs string
	r.nv.Lua(&msgs, `return vim.fn.execute('messages')`)
	if !strings.Contains(msgs, "darwin/arm64") {
		t.Errorf("the user was not told; messages:\n%s", msgs)
	}
}
