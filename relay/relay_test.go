package relay_test

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/claude-nvim/claude.nvim/host"
	"github.com/claude-nvim/claude.nvim/lockfile"
	"github.com/claude-nvim/claude.nvim/mcp/mcptest"
	"github.com/claude-nvim/claude.nvim/relay"
)

func TestTheRelaysLockNamesItsOwnPidAndItsConnectionsReachTheHostsServer(t *testing.T) {
	config := t.TempDir()
	c := startRelay(t, config)
	link, err := c.connect(t, relay.HostHello{Folders: []string{"/workspaces/app"}, IDEName: "Neovim"})
	if err != nil {
		t.Fatal(err)
	}
	srv := serve(t, link)

	info, err := lockfile.Read(link.Info.Lockfile)
	if err != nil {
		t.Fatal(err)
	}
	if info.PID != c.cmd.Process.Pid || info.PID != link.Info.PID {
		t.Errorf("lock pid %d, relay pid %d, told %d: want the relay's own", info.PID, c.cmd.Process.Pid, link.Info.PID)
	}
	if filepath.Dir(link.Info.Lockfile) != filepath.Join(config, "ide") {
		t.Errorf("lock at %s, want it in CLAUDE_CONFIG_DIR/ide", link.Info.Lockfile)
	}
	if len(info.WorkspaceFolders) != 1 || info.WorkspaceFolders[0] != "/workspaces/app" || info.AuthToken != link.Info.Token {
		t.Errorf("lock = %+v, want the remote folder and the relay's token", info)
	}
	for path, want := range map[string]os.FileMode{link.Info.Lockfile: 0o600, filepath.Dir(link.Info.Lockfile): 0o700} {
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v (%v), want %v", path, fi.Mode().Perm(), err, want)
		}
	}

	cl := mcptest.Dial(t, url(link.Info.Port), link.Info.Token)
	if cl.Subprotocol() != "mcp" {
		t.Errorf("subprotocol %q, want mcp", cl.Subprotocol())
	}
	cl.Initialize()
	// A large argument crosses the pipe in many frames.
	big := strings.Repeat("x", 3*relay.MaxPayload+17)
	res, err := cl.CallTool("echo", map[string]string{"s": big})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Content) != 1 || !strings.Contains(res.Content[0].Text, big) {
		t.Errorf("echo answered %d blocks, not the argument", len(res.Content))
	}
	if n := len(srv.Clients()); n != 1 {
		t.Errorf("the host's server has %d clients, want 1", n)
	}

	// The transport's end: the relay removes its lock and exits 0.
	cl.Close()
	link.Close()
	if code := c.waitExit(t); code != 0 {
		t.Errorf("relay exit code %d, want 0", code)
	}
	if _, err := os.Stat(link.Info.Lockfile); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock is still there after the relay ended: %v", err)
	}
}

func TestTheRelayRefusesWhatTheServerWouldRefuseWithoutTellingTheHost(t *testing.T) {
	c := startRelay(t, t.TempDir())
	link, err := c.connect(t, relay.HostHello{Folders: []string{"/w"}})
	if err != nil {
		t.Fatal(err)
	}
	srv := serve(t, link)
	for _, tc := range []struct {
		name   string
		header http.Header
		status int
	}{
		{"no token", http.Header{}, http.StatusUnauthorized},
		{"wrong token", header(strings.Repeat("0", 64)), http.StatusUnauthorized},
		{"an Origin", func() http.Header { h := header(link.Info.Token); h.Set("Origin", "http://evil.example"); return h }(), http.StatusForbidden},
		{"a foreign Host", func() http.Header { h := header(link.Info.Token); h.Set("Host", "evil.example"); return h }(), http.StatusForbidden},
	} {
		ws, resp, err := mcptest.DialConn(url(link.Info.Port), tc.header)
		if err == nil {
			ws.Close()
			t.Errorf("%s: upgraded, want refused", tc.name)
			continue
		}
		if resp == nil || resp.StatusCode != tc.status {
			t.Errorf("%s: %v (%v), want HTTP %d", tc.name, resp, err, tc.status)
		}
	}
	if n := len(srv.Clients()); n != 0 {
		t.Errorf("the host's server saw %d clients, want none", n)
	}
}

func TestAVersionMismatchSaysWhatToDoAndLeavesNoLock(t *testing.T) {
	config := t.TempDir()
	c := startRelay(t, config)
	_, err := c.connect(t, relay.HostHello{Version: "9.9.9", Folders: []string{"/w"}})
	var refused *relay.RefusedError
	if !errors.As(err, &refused) {
		t.Fatalf("connect = %v, want the relay's refusal", err)
	}
	for _, want := range []string{"9.9.9", host.Version, "install claude-nvim 9.9.9 on the remote side", "exec = { the transport }"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal %q does not say %q", err, want)
		}
	}
	if code := c.waitExit(t); code != 1 {
		t.Errorf("relay exit code %d, want 1", code)
	}
	if ents, _ := os.ReadDir(filepath.Join(config, "ide")); len(ents) != 0 {
		t.Errorf("the refusing relay left %d files in ide/", len(ents))
	}
}

func TestTheRelayKilledEndsTheLinkAndItsConnections(t *testing.T) {
	c := startRelay(t, t.TempDir())
	link, err := c.connect(t, relay.HostHello{Folders: []string{"/w"}})
	if err != nil {
		t.Fatal(err)
	}
	serve(t, link)
	cl := mcptest.Dial(t, url(link.Info.Port), link.Info.Token)
	cl.Initialize()
	if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	select {
	case <-link.Done():
	case <-waitC():
		t.Fatal("the link did not end when the relay was killed")
	}
	if link.Err() == nil {
		t.Error("the link ended without saying why")
	}
	select {
	case <-cl.Done():
	case <-waitC():
		t.Fatal("the CLI's connection stayed open after the relay was killed")
	}
}

func TestSIGTERMRemovesTheRelaysLock(t *testing.T) {
	c := startRelay(t, t.TempDir())
	link, err := c.connect(t, relay.HostHello{Folders: []string{"/w"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := c.waitExit(t); code != 0 {
		t.Errorf("relay exit code %d, want 0", code)
	}
	if _, err := os.Stat(link.Info.Lockfile); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock survived SIGTERM: %v", err)
	}
}
