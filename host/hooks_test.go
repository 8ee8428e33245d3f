package host

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/claude-nvim/claude.nvim/hooks"
)

// A hook event reaches every subscriber in turn, with the origin the CLI's environment gave;
// what they print is joined; the settings are the user's alone and go with the bus.
func TestTheHookBusFansAnEventOutAndJoinsTheReplies(t *testing.T) {
	h := New(Options{})
	var (
		mu   sync.Mutex // the handlers run on the receiver's goroutine
		seen []string
	)
	h.hookBus.subscribe(func(ctx context.Context, e hooks.Event) hooks.Reply {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, "first "+e.Name+" "+e.Origin)
		return hooks.Reply{Stdout: []byte("You reverted a.txt")}
	})
	h.hookBus.subscribe(func(ctx context.Context, e hooks.Event) hooks.Reply {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, "second "+e.Name+" "+e.Origin)
		return hooks.Reply{Stdout: []byte("and b.txt.\n")}
	})
	file := h.hookSettings()
	if file == "" {
		t.Fatal("no settings file")
	}
	t.Cleanup(h.hookBus.close)
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("settings file %v, err %v; want mode 0600", fi.Mode(), err)
	}
	settings, _ := os.ReadFile(file)
	socket := filepath.Join(filepath.Dir(file), "hooks.sock")
	if !strings.Contains(string(settings), socket) {
		t.Fatalf("the settings do not send to %s:\n%s", socket, settings)
	}
	var out bytes.Buffer
	event := strings.NewReader(`{"hook_event_name":"UserPromptSubmit","prompt":"go on"}`)
	if err := hooks.Forward(socket, chatOrigin("/w/x"), event, &out); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "You reverted a.txt\nand b.txt.\n"; got != want {
		t.Errorf("the hook printed %q, want %q", got, want)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"first UserPromptSubmit chat:/w/x", "second UserPromptSubmit chat:/w/x"}; strings.Join(seen, "|") != strings.Join(want, "|") {
		t.Errorf("subscribers saw %q, want %q", seen, want)
	}
	if again := h.hookSettings(); again != file {
		t.Errorf("a second CLI got settings %s, want the same %s", again, file)
	}
	h.hookBus.close()
	if _, err := os.Stat(filepath.Dir(file)); !os.IsNotExist(err) {
		t.Errorf("the hooks' directory outlived the bus: %v", err)
	}
	if after := h.hookSettings(); after != "" {
		t.Errorf("a closed bus gave settings %s", after)
	}
}
