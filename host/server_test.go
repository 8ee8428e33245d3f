package host

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestClaudeStartWritesALockFileAndServes(t *testing.T) {
	e := newEnv(t)
	port, info := e.start()

	var pid int
	e.nv.Lua(&pid, `return vim.fn.getpid()`)
	if info.PID != pid {
		t.Errorf("lock pid = %d, want Neovim's %d", info.PID, pid)
	}
	if len(info.WorkspaceFolders) == 0 || info.WorkspaceFolders[0] != e.nv.Cwd {
		t.Errorf("workspaceFolders = %q, want %q first", info.WorkspaceFolders, e.nv.Cwd)
	}
	if info.Transport != "ws" || info.IDEName != "Neovim" || len(info.AuthToken) < 32 {
		t.Errorf("lock = %+v, want transport ws, ideName Neovim, a long token", info)
	}
	st, err := os.Stat(e.lockPath(port))
	if err != nil {
		t.Fatal(err)
	}
	if mode := st.Mode().Perm(); mode != 0o600 {
		t.Errorf("lock file mode = %o, want 600", mode)
	}

	c := e.connect()
	_ = c
	var status struct {
		Running bool `msgpack:"running"`
		Port    int  `msgpack:"port"`
		Clients []struct {
			PID   int  `msgpack:"pid"`
			Ready bool `msgpack:"ready"`
		} `msgpack:"clients"`
	}
	e.nv.Lua(&status, `return require('claude').status()`)
	if !status.Running || status.Port != port || len(status.Clients) != 1 || status.Clients[0].PID != os.Getpid() {
		t.Errorf("status = %+v, want running on %d with our client (pid %d)", status, port, os.Getpid())
	}
	out, err := e.nv.Exec("ClaudeStatus", true)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{strconv.Itoa(port), e.lockPath(port), "client: mcptest"} {
		if !strings.Contains(out, want) {
			t.Errorf(":Claude status output %q lacks %q", out, want)
		}
	}
}
