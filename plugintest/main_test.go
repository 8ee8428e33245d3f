// Package plugintest drives the Lua plugin the way a user meets it: loaded
// by a plugin manager, started with the real bin/claude-nvim, checked with
// :checkhealth. Each test gets its own child Neovim (nvimtest). It lives
// outside lua/ because everything under lua/ ships into every user's
// runtimepath.
package plugintest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/lockfile"
	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// waitTimeout bounds every wait on Neovim, the host or a client; generous
// so that slow machines fail only on real hangs.
const waitTimeout = 30 * time.Second

// binary is bin/claude-nvim built from this checkout for the whole run, so
// the tests never use a stale build from bin/.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "claude-nvim-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "claude-nvim")
	cmd := exec.Command("go", "build", "-o", binary, ".")
	cmd.Dir = nvimtest.RepoRoot()
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// newNvim starts a child Neovim (plugin on 'runtimepath' as usual) that
// uses the freshly built Go host.
func newNvim(t *testing.T, opts ...nvimtest.Option) *nvimtest.Nvim {
	t.Helper()
	nv := nvimtest.New(t, opts...)
	nv.Lua(nil, `vim.g.claude_nvim_binary = ...`, binary)
	return nv
}

type serverStatus struct {
	Running  bool   `msgpack:"running"`
	Port     int    `msgpack:"port"`
	Lockfile string `msgpack:"lockfile"`
}

func status(t *testing.T, nv *nvimtest.Nvim) serverStatus {
	t.Helper()
	var s serverStatus
	nv.Lua(&s, `return require('claude').status()`)
	return s
}

// connect joins the running server the way the CLI does: token from the
// lock file, then initialize … tools/list.
func connect(t *testing.T, nv *nvimtest.Nvim) *mcptest.Client {
	t.Helper()
	s := status(t, nv)
	if !s.Running {
		t.Fatalf("connect: the server is not running; messages:\n%s", nv.Messages())
	}
	info, err := lockfile.Read(s.Lockfile)
	if err != nil {
		t.Fatalf("read lock file: %v", err)
	}
	c := mcptest.Dial(t, "ws://127.0.0.1:"+strconv.Itoa(s.Port), info.AuthToken)
	// Lua hears of the client from the host's own goroutine: a key typed
	// before that (<Plug>(ClaudeSend)) sees no client and opens a terminal.
	connected := nv.UserEvent("ClaudeConnected")
	c.Initialize()
	nvimtest.Next(t, connected, "User ClaudeConnected after the client initialized", waitTimeout)
	return c
}

// mention is the at_mentioned notification.
type mention struct {
	FilePath  string `json:"filePath"`
	LineStart *int   `json:"lineStart"`
	LineEnd   *int   `json:"lineEnd"`
}

func (m mention) String() string {
	lines := func(p *int) string {
		if p == nil {
			return "-"
		}
		return strconv.Itoa(*p)
	}
	return fmt.Sprintf("%s %s..%s", m.FilePath, lines(m.LineStart), lines(m.LineEnd))
}
