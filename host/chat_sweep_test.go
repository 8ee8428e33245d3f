//go:build unix

package host

import (
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

// The sweep removes what a host left however it ended, and nothing a live host uses: each
// directory below is made the way a host makes it (real sockets, real processes), in a
// parent of the test's own.
func TestTheSweepRemovesEveryLeftoverAndNoLiveHostsDirectory(t *testing.T) {
	parent, err := os.MkdirTemp("", "sw") // short: the sockets' paths must fit sun_path
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(parent) })

	// A process that lives (not a host: as a pid reused after a host's exit would be) and
	// one that is gone.
	live := exec.Command("sleep", "600")
	if err := live.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = live.Process.Kill(); _ = live.Wait() })
	livePID := strconv.Itoa(live.Process.Pid)
	liveStart := processStart(live.Process.Pid)
	if liveStart == "" && runtime.GOOS == "linux" {
		t.Fatalf("no start time read for the live process %s", livePID)
	}
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	deadPID := strconv.Itoa(dead.Process.Pid)
	old := time.Now().Add(-time.Hour)

	type dirSpec struct {
		name    string
		owner   string // host.pid's content; "" for none
		socket  string // "listening", "refusing" or ""
		mode    os.FileMode
		old     bool // last changed an hour ago
		swept   bool
		prepare func(t *testing.T, dir string)
		unasked bool // its socket gets no connection
	}
	asked := map[string]*atomic.Int32{}
	specs := []dirSpec{
		{name: "claude-nvim-hooks-live", owner: livePID, socket: "listening", swept: false},
		{name: "claude-nvim-hooks-dead", owner: deadPID, socket: "refusing", swept: true},
		{name: "claude-nvim-hooks-pidreused", owner: livePID, socket: "refusing", swept: true},
		{name: "claude-nvim-hooks-closed", owner: livePID, swept: true},
		{name: "claude-nvim-hooks-ownerlessold", old: true, swept: true},
		{name: "claude-nvim-hooks-ownerlessnew", swept: false},
		// A host between its socket's bind and listen, or between listen and host.pid.
		{name: "claude-nvim-hooks-ownerlessrefusing", socket: "refusing", swept: false},
		{name: "claude-nvim-hooks-ownerlesslistening", socket: "listening", old: true, swept: false},
		// A receiver that writes no owner file (the hooks package's tests'): never asked
		// while young, as the question takes a place among its events.
		{name: "claude-nvim-hooks-ownerlessyoung", socket: "listening", swept: false, unasked: true},
		{name: "claude-nvim-hooks-open", owner: deadPID, mode: 0o755, swept: false},
		{name: "claude-nvim-hooks-ownerlink", socket: "listening", swept: false, prepare: func(t *testing.T, dir string) {
			// host.pid a link to a file naming a dead host: not read, so the socket decides.
			target := filepath.Join(t.TempDir(), "pid")
			if err := os.WriteFile(target, []byte(deadPID), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, filepath.Join(dir, ownerFile)); err != nil {
				t.Fatal(err)
			}
		}},
		// Owners recorded with their start (as writeOwner does on Linux): the live host
		// itself is never asked; a pid now another process's (its start differs) is asked.
		{name: "claude-nvim-hooks-livestart", owner: livePID + " " + liveStart, socket: "listening", swept: false, unasked: liveStart != ""},
		{name: "claude-nvim-hooks-reusedstart", owner: livePID + " 1", socket: "refusing", swept: true},
		{name: "claude-nvim-chat-mcp-live", owner: livePID, swept: false},
		{name: "claude-nvim-chat-mcp-dead", owner: deadPID, swept: true},
		{name: "claude-nvim-chat-mcp-ownerlessold", old: true, swept: true},
		{name: "claude-nvim-chat-mcp-ownerlessnew", swept: false},
	}
	for _, s := range specs {
		dir := filepath.Join(parent, s.name)
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if s.mode != 0 {
			if err := os.Chmod(dir, s.mode); err != nil {
				t.Fatal(err)
			}
		}
		if s.owner != "" {
			if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(s.owner), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
		if s.prepare != nil {
			s.prepare(t, dir)
		}
		if s.socket != "" {
			ln, err := net.Listen("unix", filepath.Join(dir, hookSocketName))
			if err != nil {
				t.Fatal(err)
			}
			if s.socket == "refusing" {
				ln.(*net.UnixListener).SetUnlinkOnClose(false)
				ln.Close() // the file stays, nobody listens: a host killed while closing
			} else {
				t.Cleanup(func() { ln.Close() })
				n := &atomic.Int32{}
				asked[s.name] = n
				go func() { // a receiver that accepts, reads the probe's empty event and drops it
					for {
						c, err := ln.Accept()
						if err != nil {
							return
						}
						n.Add(1)
						c.Close()
					}
				}()
			}
		}
		if s.old {
			if err := os.Chtimes(dir, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A link named as a host's directory, to an old ownerless directory: never followed.
	outside := t.TempDir()
	if err := os.Chmod(outside, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "keep"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(outside, old, old); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(parent, "claude-nvim-hooks-link")); err != nil {
		t.Fatal(err)
	}

	log := slog.New(slog.DiscardHandler)
	removed := append(sweepDeadHostDirs(parent, hookDirPattern, log), sweepDeadHostDirs(parent, chatMCPDirPattern, log)...)
	for _, s := range specs {
		dir := filepath.Join(parent, s.name)
		_, err := os.Lstat(dir)
		if gone := os.IsNotExist(err); gone != s.swept {
			t.Errorf("%s: swept %v, want %v (err %v)", s.name, gone, s.swept, err)
		}
		if s.swept != slices.Contains(removed, dir) {
			t.Errorf("%s: reported removed %v, want %v", s.name, !s.swept, s.swept)
		}
		if s.unasked && asked[s.name].Load() != 0 {
			t.Errorf("%s: its socket was asked %d times, want never", s.name, asked[s.name].Load())
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "keep")); err != nil {
		t.Errorf("the sweep went through a link: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(parent, "claude-nvim-hooks-link")); err != nil {
		t.Errorf("the sweep removed a link: %v", err)
	}
}

// A host's owner file names it with its start where the system says, so that a sweep
// knows it without asking its socket.
func TestTheOwnerFileNamesThisProcessAndItsStart(t *testing.T) {
	dir := t.TempDir()
	if err := writeOwner(dir); err != nil {
		t.Fatal(err)
	}
	pid, start, ok := readOwner(filepath.Join(dir, ownerFile))
	if !ok || pid != os.Getpid() || start != processStart(os.Getpid()) {
		t.Errorf("owner file read as pid %d start %q ok %v; want %d, %q", pid, start, ok, os.Getpid(), processStart(os.Getpid()))
	}
	if runtime.GOOS == "linux" && start == "" {
		t.Errorf("no start recorded on Linux")
	}
}
