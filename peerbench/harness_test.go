package peerbench

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/lockfile"
	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
	"github.com/neovim/go-client/nvim"
)

// plugin is one of the two plugins under test.
type plugin struct {
	name string
	root string // the checkout to put on 'runtimepath'
	// setup is Lua run once Neovim is up: load, configure, start the
	// server; it returns the port.
	setup string
	// opened is the User autocmd pattern the plugin fires once a diff shows.
	opened string
}

// plugins returns ours and, when a checkout is there, the peer.
func plugins(b *testing.B) []plugin {
	root := nvimtest.RepoRoot()
	if _, err := os.Stat(filepath.Join(root, "bin", "claude-nvim")); err != nil {
		b.Fatalf("no bin/claude-nvim: run `make build` first")
	}
	ps := []plugin{{
		name: "claude.nvim", root: root, opened: "ClaudeDiffOpened",
		setup: `require('claude').setup({}); vim.cmd('ClaudeStart'); return require('claude').status().port or 0`,
	}}
	peer := os.Getenv("CLAUDE_PEER")
	if peer == "" {
		peer = filepath.Join(root, ".deps", "peer", "claudecode.nvim")
	}
	if _, err := os.Stat(filepath.Join(peer, "lua", "claudecode", "init.lua")); err != nil {
		b.Logf("peer skipped: no coder/claudecode.nvim checkout at %s (set CLAUDE_PEER, or see scripts/bench-peer)", peer)
		return ps
	}
	return append(ps, plugin{
		name: "claudecode.nvim", root: peer, opened: "ClaudeCodeDiffOpened",
		setup: `require('claudecode').setup({ auto_start = false, log_level = 'error' })
			local ok, port = require('claudecode').start(false)
			return ok and port or 0`,
	})
}

// editor is a Neovim with one plugin loaded and its server started.
type editor struct {
	b    *testing.B
	nv   *nvim.Nvim
	dir  string // XDG dirs and the lock directory live below it
	cwd  string
	pid  int // Neovim
	host int // our Go host (0 for the peer: it has none)
	port int
}

// start launches Neovim with only p on 'runtimepath'; the server is not
// started yet (see serve), so the bare editor's memory can be read first.
func start(b *testing.B, p plugin) *editor {
	b.Helper()
	dir := b.TempDir()
	cwd := filepath.Join(dir, "work")
	if err := os.MkdirAll(cwd, 0o755); err != nil {
		b.Fatal(err)
	}
	cwd, _ = filepath.EvalSymlinks(cwd)
	ctx, cancel := context.WithCancel(context.Background())
	args := []string{"--clean", "--embed", "--headless", "-n", "-i", "NONE"}
	if p.root != "" {
		args = append(args, "--cmd", "set rtp^="+p.root)
	}
	v, err := nvim.NewChildProcess(
		nvim.ChildProcessCommand(nvimtest.Binary(b)),
		nvim.ChildProcessArgs(args...),
		// CLAUDE_NVIM_CPUPROFILE=FILE profiles our host (see main.go).
		nvim.ChildProcessEnv(append(nvimtest.BaseEnv(dir), "CLAUDE_NVIM_LOG=", "CLAUDE_NVIM_CPUPROFILE="+os.Getenv("CLAUDE_NVIM_CPUPROFILE"))),
		nvim.ChildProcessDir(cwd),
		nvim.ChildProcessContext(ctx),
	)
	if err != nil {
		cancel()
		b.Fatalf("start nvim: %v", err)
	}
	b.Cleanup(func() {
		done := make(chan struct{})
		go func() { _ = v.Close(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
		}
		cancel()
	})
	e := &editor{b: b, nv: v, dir: dir, cwd: cwd}
	if err := v.ExecLua(`return vim.fn.getpid()`, &e.pid); err != nil {
		b.Fatalf("nvim: %v", err)
	}
	return e
}

// serve runs the plugin's setup and connects a client as the CLI does.
func (e *editor) serve(p plugin) *mcptest.Client {
	e.b.Helper()
	if err := e.nv.ExecLua(p.setup, &e.port); err != nil || e.port == 0 {
		e.b.Fatalf("%s did not start (port %d): %v", p.name, e.port, err)
	}
	info, err := lockfile.Read(filepath.Join(e.dir, "claude", "ide", strconv.Itoa(e.port)+".lock"))
	if err != nil {
		e.b.Fatalf("%s lock file: %v", p.name, err)
	}
	// One frame per message, as the CLI sends them: the peer refuses
	// continuation frames (1003), and ours reads either.
	c := mcptest.DialFrames(e.b, "ws://127.0.0.1:"+strconv.Itoa(e.port), info.AuthToken, 8<<20)
	c.Timeout = 2 * time.Minute
	c.Initialize()
	e.host = ChildNamed(e.pid, "claude-nvim")
	return c
}

// addedMiB is what the plugin adds now, in MiB: Neovim's RSS over base (a
// bare Neovim's; 0 for Neovim's whole RSS) plus every process under Neovim.
func (e *editor) addedMiB(base int64) float64 { return mib(RSS(e.pid) - base + DescendantsRSS(e.pid)) }

// addedAnonMiB is addedMiB's anonymous part, over baseAnon.
func (e *editor) addedAnonMiB(baseAnon int64) float64 {
	return mib(RSSAnon(e.pid) - baseAnon + DescendantsAnon(e.pid))
}

func mib(bytes int64) float64 { return float64(bytes) / (1 << 20) }

// lua runs code in Neovim and fails the benchmark on error.
func (e *editor) lua(result any, code string, args ...any) {
	e.b.Helper()
	if err := e.nv.ExecLua(code, result, args...); err != nil {
		e.b.Fatalf("nvim lua: %v", err)
	}
}

func writeFile(b *testing.B, dir, name, content string) string {
	b.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

// diffSize is the size of BenchmarkOpenDiffManyHunks's file: 5 MiB, or
// $BENCH_DIFF_KIB KiB.
func diffSize() int {
	if kib, err := strconv.Atoi(os.Getenv("BENCH_DIFF_KIB")); err == nil && kib > 0 {
		return kib << 10
	}
	return 5 << 20
}
