package relay_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/claude-nvim/claude.nvim/relay"
)

// A hook of the CLI there, run as the settings file the relay wrote says, reaches the
// host's OnHook over the pipe, and what the host answers is what the hook prints.
func TestAHookOfTheCLIThereReachesTheHostAndItsAnswerComesBack(t *testing.T) {
	c := startRelay(t, t.TempDir())
	link, err := c.connect(t, relay.HostHello{Folders: []string{"/w"}})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []string
	link.OnHook(func(_ context.Context, event []byte) []byte {
		var e struct {
			Name   string `json:"hook_event_name"`
			Prompt string `json:"prompt"`
		}
		_ = json.Unmarshal(event, &e)
		mu.Lock()
		got = append(got, e.Name+":"+e.Prompt)
		mu.Unlock()
		return []byte("the host's note\n")
	})
	settings := link.Info.HookSettings
	fi, err := os.Stat(settings)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the relay's settings file %q: %v %v, want one of mode 0600", settings, fi, err)
	}
	if dir, _ := os.Stat(filepath.Dir(settings)); dir.Mode().Perm() != 0o700 {
		t.Errorf("the hooks' directory has mode %v, want 0700", dir.Mode().Perm())
	}
	b, _ := os.ReadFile(settings)
	if !strings.Contains(string(b), binary) || !strings.Contains(string(b), "-hook") {
		t.Errorf("the settings' hooks do not run this binary in -hook mode:\n%s", b)
	}
	hook := exec.Command(binary, "-hook", filepath.Join(filepath.Dir(settings), "hooks.sock"))
	hook.Stdin = strings.NewReader(`{"hook_event_name":"UserPromptSubmit","session_id":"s","cwd":"/w","prompt":"hi"}`)
	var out bytes.Buffer
	hook.Stdout = &out
	if err := hook.Run(); err != nil {
		t.Fatal(err)
	}
	if out.String() != "the host's note\n" {
		t.Errorf("the hook printed %q, want the host's answer", out.String())
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 || got[0] != "UserPromptSubmit:hi" {
		t.Errorf("the host got %v, want the one event", got)
	}
}

// After a drop the next relay takes the last one's port and token when asked, so the CLI
// there, which retries that address, finds it; a token not of ours is not taken.
func TestTheNextRelayTakesTheLastOnesPortAndToken(t *testing.T) {
	dir := t.TempDir()
	first := startRelay(t, dir)
	l1, err := first.connect(t, relay.HostHello{Folders: []string{"/w"}})
	if err != nil {
		t.Fatal(err)
	}
	first.Close()
	first.waitExit(t)
	second := startRelay(t, dir)
	l2, err := second.connect(t, relay.HostHello{Folders: []string{"/w"}, Port: l1.Info.Port, Token: l1.Info.Token})
	if err != nil {
		t.Fatal(err)
	}
	if l2.Info.Port != l1.Info.Port || l2.Info.Token != l1.Info.Token || l2.Info.PID == l1.Info.PID {
		t.Errorf("second relay %+v, want the first's port and token (%d) under its own pid", l2.Info, l1.Info.Port)
	}
	second.Close()
	second.waitExit(t)
	third := startRelay(t, dir)
	l3, err := third.connect(t, relay.HostHello{Folders: []string{"/w"}, Port: l1.Info.Port, Token: "guessable"})
	if err != nil {
		t.Fatal(err)
	}
	if l3.Info.Token == "guessable" {
		t.Error("the relay took a token that is not of lockfile.NewToken's form")
	}
}
