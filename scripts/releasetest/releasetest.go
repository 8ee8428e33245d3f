// Package releasetest serves a claude.nvim release the way the forge does, from
// a local HTTP server (127.0.0.1), and runs scripts/install-binary against it
// with a $PATH that holds only the tools a user without Go has. The release is
// what scripts/dist (`make dist`) builds, for this machine's platform only.
package releasetest

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// BaseTools are the commands scripts/install-binary runs besides a downloader
// (curl or wget) and a checksum tool (sha256sum or shasum).
var BaseTools = []string{
	"sh", "dirname", "sed", "head", "tail", "grep", "awk", "mktemp", "mkdir",
	"rm", "mv", "chmod", "uname", "wc", "tr",
}

var versionLine = regexp.MustCompile(`(?m)^M\.version = "([^"]*)"`)

// Version is the plugin version, read where the installer reads it.
func Version(t testing.TB) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(nvimtest.RepoRoot(), "lua", "claude", "version.lua"))
	if err != nil {
		t.Fatal(err)
	}
	m := versionLine.FindSubmatch(src)
	if m == nil {
		t.Fatal("lua/claude/version.lua has no M.version line")
	}
	return string(m[1])
}

// Asset is the name of the release file for this machine's platform.
func Asset(version string) string {
	return "claude-nvim-" + version + "-" + runtime.GOOS + "-" + runtime.GOARCH
}

// Build runs scripts/dist into dir for this machine's platform: the asset the
// installer downloads here, and SHA256SUMS, in dir/v<version>/ (the layout the
// installer fetches). It returns dist's output on failure.
func Build(dir string) ([]byte, error) {
	cmd := exec.Command(filepath.Join(nvimtest.RepoRoot(), "scripts", "dist"), dir, runtime.GOOS+"/"+runtime.GOARCH)
	return cmd.CombinedOutput()
}

// Files reads the release scripts/dist wrote into dir (dir/v<version>/): file
// name → contents.
func Files(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	dir = filepath.Join(dir, "v"+Version(t))
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = data
	}
	return files
}

// Handler serves files as release v<version>: GET /v<version>/<name>. Anything
// else is 404, as on the forge.
func Handler(version string, files map[string][]byte) http.Handler {
	prefix := "/v" + version + "/"
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, ok := strings.CutPrefix(r.URL.Path, prefix)
		data, found := files[name]
		if !ok || !found {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		_, _ = w.Write(data)
	})
}

// Installer is a plugin directory holding a copy of scripts/install-binary and
// lua/claude/version.lua (where it reads the version), run with a $PATH directory
// of its own: only the tools put there, so no Go unless a test adds one.
type Installer struct {
	Dir  string // the plugin directory
	Bin  string // Dir/bin/claude-nvim, what the installer installs
	Path string // the only directory on the installer's $PATH
	home string
}

// NewInstaller makes the plugin directory and a $PATH with BaseTools and tools
// (each linked to the one on the test's $PATH).
func NewInstaller(t testing.TB, tools ...string) *Installer {
	t.Helper()
	root := t.TempDir()
	in := &Installer{
		Dir:  filepath.Join(root, "claude.nvim"),
		Path: filepath.Join(root, "path"),
		home: filepath.Join(root, "home"),
	}
	in.Bin = filepath.Join(in.Dir, "bin", "claude-nvim")
	for _, d := range []string{filepath.Join(in.Dir, "scripts"), filepath.Join(in.Dir, "lua", "claude"), in.Path, in.home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	repo := nvimtest.RepoRoot()
	for _, f := range []struct {
		name string
		mode os.FileMode
	}{{"scripts/install-binary", 0o755}, {"lua/claude/version.lua", 0o644}} {
		data, err := os.ReadFile(filepath.Join(repo, f.name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(in.Dir, f.name), data, f.mode); err != nil {
			t.Fatal(err)
		}
	}
	for _, tool := range append(append([]string{}, BaseTools...), tools...) {
		in.Link(t, tool)
	}
	return in
}

// Link puts the test's own tool on the installer's $PATH.
func (in *Installer) Link(t testing.TB, tool string) {
	t.Helper()
	target, err := exec.LookPath(tool)
	if err != nil {
		t.Fatalf("the installer needs %s, which is not on $PATH: %v", tool, err)
	}
	if err := os.Symlink(target, filepath.Join(in.Path, tool)); err != nil {
		t.Fatal(err)
	}
}

// Script puts a shell script named name on the installer's $PATH (a stand-in
// for go, uname, ...).
func (in *Installer) Script(t testing.TB, name, body string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(in.Path, name), []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
}

// Run runs the installer with env (KEY=VALUE, e.g. CLAUDE_NVIM_RELEASE_URL)
// added to a bare environment, and returns what it printed (stdout and
// stderr, as lazy.nvim shows them).
func (in *Installer) Run(t testing.TB, env ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(filepath.Join(in.Dir, "scripts", "install-binary"))
	cmd.Dir = in.home
	cmd.Env = append([]string{"PATH=" + in.Path, "HOME=" + in.home, "LC_ALL=C"}, env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// Downloaders are the downloaders on the test's $PATH that the installer can
// use (curl, wget); it fails the test when there is none.
func Downloaders(t testing.TB) []string {
	t.Helper()
	var found []string
	for _, d := range []string{"curl", "wget"} {
		if _, err := exec.LookPath(d); err == nil {
			found = append(found, d)
		}
	}
	if len(found) == 0 {
		t.Fatal("neither curl nor wget is on $PATH: the installer needs one (.ci/run installs curl)")
	}
	return found
}

// Checksummer is the checksum tool on the test's $PATH the installer would
// pick: sha256sum, else shasum.
func Checksummer(t testing.TB) string {
	t.Helper()
	for _, c := range []string{"sha256sum", "shasum"} {
		if _, err := exec.LookPath(c); err == nil {
			return c
		}
	}
	t.Fatal("neither sha256sum nor shasum is on $PATH: the installer needs one")
	return ""
}
