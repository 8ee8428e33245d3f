package nvimtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A real language server for the tests of the language-server tools:
// gopls, pinned in scripts/install-gopls and installed by `make deps` into
// .deps/gopls/<version>/bin (GOPLS overrides).

// Gopls is the gopls binary the tests run; it fails t with what to do
// when there is none.
func Gopls(t testing.TB) string {
	t.Helper()
	if bin := os.Getenv("GOPLS"); bin != "" {
		return bin
	}
	script, err := os.ReadFile(filepath.Join(RepoRoot(), "scripts", "install-gopls"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^pinned=(\S+)$`).FindSubmatch(script)
	if m == nil {
		t.Fatal("scripts/install-gopls names no pinned= version")
	}
	bin := filepath.Join(RepoRoot(), ".deps", "gopls", string(m[1]), "bin", "gopls")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("no gopls to test with: run `make deps` (or scripts/install-gopls .deps/gopls/%s), or set GOPLS (wanted %s)", m[1], bin)
	}
	return bin
}

// GoplsEnv is what gopls needs in an isolated child's environment: the Go
// caches of this machine (a fresh HOME would rebuild them), no network, no
// cgo (nothing for gopls to preprocess), no toolchain download.
func GoplsEnv(t testing.TB) []string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env: %v", err)
	}
	v := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(v) != 4 {
		t.Fatalf("go env printed %q", out)
	}
	return []string{
		"GOCACHE=" + v[0], "GOMODCACHE=" + v[1], "GOPATH=" + v[2], "GOROOT=" + v[3],
		"GOPROXY=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "CGO_ENABLED=0", "GOTELEMETRY=off",
	}
}

// GoModule is a small Go program in three files: Greet is defined in
// greet.go and called three times in main.go (twice in main, once in
// helper); Shout (in greet.go) calls it once more.
var GoModule = map[string]string{
	"go.mod": "module example.com/hello\n\ngo 1.22\n",
	"greet.go": `package main

// Greet says hello to name.
func Greet(name string) string {
	return "hello, " + name
}
`,
	"main.go": `package main

import "fmt"

func main() {
	fmt.Println(Greet("world"))
	fmt.Println(Greet("gopher"))
	helper()
}

func helper() {
	_ = Greet("again")
}
`,
}

// StartGopls writes GoModule into dir and sets n up to start gopls for
// every Go buffer there, as a user's config would (vim.lsp.start on
// FileType, on Neovim 0.10 and 0.12 alike). It returns the files' paths
// by name.
func (n *Nvim) StartGopls(t testing.TB, dir string) map[string]string {
	t.Helper()
	paths := map[string]string{}
	for name, content := range GoModule {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		paths[name] = p
	}
	n.Lua(nil, `
		local gopls, root, cache = ...
		vim.api.nvim_create_autocmd('FileType', {
			pattern = 'go',
			callback = function(ev)
				vim.lsp.start({ name = 'gopls', cmd = { gopls }, root_dir = root, cmd_env = {
					HOME = cache, XDG_CACHE_HOME = cache, XDG_CONFIG_HOME = cache .. '/config',
					XDG_DATA_HOME = cache .. '/data', XDG_STATE_HOME = cache .. '/state',
				} }, { bufnr = ev.buf })
			end,
		})`, Gopls(t), dir, goplsCache(t))
	return paths
}

// goplsCache is where the tests' gopls keep their cache, and their home
// for whatever else they (and the go command they run) write: one
// directory for all (gopls shares it safely), outside the tests' temporary
// directories, which a gopls still exiting would keep from being removed.
func goplsCache(t testing.TB) string {
	t.Helper()
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = os.TempDir()
	}
	dir = filepath.Join(dir, "claude-nvim-tests")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

// WaitGopls opens path and waits (up to timeoutMs) until gopls has loaded
// its package: its first answer about a file takes that long, and a test
// of the tools should not spend its own timeout on it.
func (n *Nvim) WaitGopls(t testing.TB, path string, timeoutMs int) {
	t.Helper()
	var ok bool
	n.Lua(&ok, `
		local path, timeout = ...
		local buf = vim.fn.bufadd(path)
		vim.fn.bufload(buf)
		local ok = vim.wait(timeout, function()
			for _, c in ipairs(vim.lsp.get_clients({ bufnr = buf })) do
				if c.name == 'gopls' then return true end
			end
			return false
		end, 20)
		if not ok then return false end
		local params = { textDocument = { uri = vim.uri_from_bufnr(buf) } }
		local res = vim.lsp.buf_request_sync(buf, 'textDocument/documentSymbol', params, timeout)
		return res ~= nil and next(res) ~= nil`, path, timeoutMs)
	if !ok {
		t.Fatalf("gopls did not answer about %s within %d ms; messages:\n%s", path, timeoutMs, n.Messages())
	}
}
