package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The test binary is also a hook command: with HOOKS_TEST_FORWARD set it does what
// `claude-nvim -hook SOCKET` does, so the tests run it the way the CLI runs ours.
func TestMain(m *testing.M) {
	if socket := os.Getenv("HOOKS_TEST_FORWARD"); socket != "" {
		if d, err := time.ParseDuration(os.Getenv("HOOKS_TEST_SILENCE")); err == nil {
			silenceTimeout = d // the tests' stopped hosts cost them less
		}
		_ = Forward(socket, os.Getenv(OriginEnv), os.Stdin, os.Stdout)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// hookCommand runs the test binary as a hook would be: through sh -c, the event on stdin.
func hookCommand(t *testing.T, socket string, event []byte) (stdout string, exitCode int) {
	t.Helper()
	cmd := exec.Command("sh", "-c", shellQuote(os.Args[0]))
	cmd.Env = append(os.Environ(), "HOOKS_TEST_FORWARD="+socket, OriginEnv+"=terminal:2")
	cmd.Stdin = bytes.NewReader(event)
	out, err := cmd.Output()
	if exit, ok := err.(*exec.ExitError); ok {
		return string(out), exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
}

func listen(t *testing.T, handle Handler) *Receiver {
	t.Helper()
	// The default parent, os.TempDir(): t.TempDir() can be too long a path for a socket.
	r, err := Listen("", handle, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func TestAnEventReachesTheHandlerAndItsReplyIsPrinted(t *testing.T) {
	got := make(chan Event, 1)
	r := listen(t, func(ctx context.Context, e Event) Reply {
		got <- e
		return Reply{Stdout: []byte("You reverted greet.txt lines 2-3.\n")}
	})
	event := []byte(`{"hook_event_name":"UserPromptSubmit","session_id":"s1","cwd":"/w","prompt":"fix it","prompt_id":"p1","unknown_field":[1,2]}`)
	out, code := hookCommand(t, r.Socket(), event)
	if code != 0 || out != "You reverted greet.txt lines 2-3.\n" {
		t.Errorf("hook printed %q and exited %d", out, code)
	}
	e := <-got
	if e.Name != UserPromptSubmit || e.SessionID != "s1" || e.Prompt != "fix it" || e.Cwd != "/w" || e.PromptID != "p1" ||
		e.Origin != "terminal:2" {
		t.Errorf("event %+v", e)
	}
}

// An event past maxEvent is cut there, and what the plugin reads of it comes before the cut
// (a PostToolUse's tool_response comes after its name and tool, as the CLI writes it).
func TestAHugeEventKeepsItsFirstFieldsAndAGoneReceiverCostsNothing(t *testing.T) {
	r := listen(t, func(ctx context.Context, e Event) Reply {
		return Reply{Stdout: []byte(e.Name + " " + e.ToolName + " " + e.FilePath() + " [" + e.ToolUseID + "]")}
	})
	// The CLI's order (2.1.332): tool_use_id after tool_response.
	big := []byte(`{"session_id":"s1","hook_event_name":"PostToolUse","tool_name":"Read","tool_input":{"file_path":"/w/big.png"},` +
		`"tool_response":"` + strings.Repeat("x", 3*maxEvent) + `","tool_use_id":"t1","duration_ms":5}`)
	if out, code := hookCommand(t, r.Socket(), big); code != 0 || out != "PostToolUse Read /w/big.png []" {
		t.Errorf("a huge event: printed %q, exit %d", out, code)
	}
	socket := r.Socket()
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(socket)); !os.IsNotExist(err) {
		t.Errorf("the socket's directory is still there after Close: %v", err)
	}
	start := time.Now()
	if out, code := hookCommand(t, socket, []byte(`{"hook_event_name":"Stop"}`)); code != 0 || out != "" {
		t.Errorf("with the plugin gone: printed %q, exit %d", out, code)
	}
	t.Logf("a hook with the plugin gone took %v", time.Since(start))
}

func TestTheSocketIsTheUsersAlone(t *testing.T) {
	r := listen(t, func(context.Context, Event) Reply { return Reply{} })
	info, err := os.Stat(filepath.Dir(r.Socket()))
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o700 {
		t.Errorf("socket directory mode %o, want 700", perm)
	}
}

func TestSettingsRunTheBinaryThroughAShellWhateverItsPath(t *testing.T) {
	got := make(chan Event, 1)
	r := listen(t, func(ctx context.Context, e Event) Reply { got <- e; return Reply{} })
	// A binary path with a space and a quote, as a home directory may have.
	dir := filepath.Join(t.TempDir(), "it's a dir")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	wrapper := filepath.Join(dir, "claude-nvim")
	script := "#!/bin/sh\n[ \"$1\" = -hook ] || exit 3\nHOOKS_TEST_FORWARD=\"$2\" exec " + shellQuote(os.Args[0]) + "\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	data, err := Settings(wrapper, r.Socket())
	if err != nil {
		t.Fatal(err)
	}
	settings := decodeSettings(t, data)
	for _, name := range []string{SessionStart, UserPromptSubmit, PreToolUse, PermissionRequest, PostToolUse, Notification, Stop, SessionEnd} {
		if len(settings.Hooks[name]) != 1 || len(settings.Hooks[name][0].Hooks) != 1 {
			t.Fatalf("no hook for %s in %s", name, data)
		}
	}
	stop := settings.Hooks[Stop][0].Hooks[0]
	cmd := exec.Command("sh", "-c", stop.Command)
	cmd.Stdin = strings.NewReader(`{"hook_event_name":"Stop","session_id":"s9"}`)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", stop.Command, err, out)
	}
	if e := <-got; e.Name != Stop || e.SessionID != "s9" {
		t.Errorf("event %+v", e)
	}
	if pre := settings.Hooks[PreToolUse][0]; pre.Matcher != "*" || pre.Hooks[0].Timeout != snapshotTimeout {
		t.Errorf("PreToolUse hook %+v: every tool, the snapshot timeout", pre)
	}
}

func TestFilePathOfFileTools(t *testing.T) {
	for _, tt := range []struct{ input, want string }{
		{`{"file_path":"/w/a.go","old_string":"x"}`, "/w/a.go"},
		{`{"notebook_path":"/w/n.ipynb"}`, "/w/n.ipynb"},
		{`{"command":"ls"}`, ""},
		{``, ""},
		{`[1]`, ""},
	} {
		if got := (Event{ToolInput: json.RawMessage(tt.input)}).FilePath(); got != tt.want {
			t.Errorf("FilePath of %s = %q, want %q", tt.input, got, tt.want)
		}
	}
}

// Close does not wait for a hook that sends its event slowly: Neovim kills an exiting host
// 2 s after asking, and the directory must be gone by then.
func TestCloseRemovesTheDirectoryWithAnEventHalfSent(t *testing.T) {
	old := readTimeout
	readTimeout = time.Hour
	t.Cleanup(func() { readTimeout = old })
	r := listen(t, func(context.Context, Event) Reply { return Reply{} })
	c, err := net.Dial("unix", r.Socket())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("terminal:1\n{\"hook_event_name\":")); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the receiver to read the event", func() bool { return heldNow(r.budget) > 0 })
	closed := make(chan error, 1)
	go func() { closed <- r.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(waitFor):
		t.Fatalf("Close still waits after %v for an event half sent", waitFor)
	}
	if _, err := os.Stat(filepath.Dir(r.Socket())); !os.IsNotExist(err) {
		t.Errorf("the directory outlived Close: %v", err)
	}
}

// BeforeToolSettings is Settings with PreToolUse alone: an ACP agent's Claude tells its turns
// otherwise, and a second UserPromptSubmit or Stop would start or end a turn twice.
func TestBeforeToolSettingsHaveThePreToolUseHookAlone(t *testing.T) {
	data, err := BeforeToolSettings("/bin/claude-nvim", "/run/s.sock")
	if err != nil {
		t.Fatal(err)
	}
	settings := decodeSettings(t, data)
	pre := settings.Hooks[PreToolUse]
	if len(settings.Hooks) != 1 || len(pre) != 1 || pre[0].Matcher != "*" || len(pre[0].Hooks) != 1 ||
		pre[0].Hooks[0].Command != "'/bin/claude-nvim' -hook '/run/s.sock'" || pre[0].Hooks[0].Timeout != snapshotTimeout {
		t.Errorf("before-tool settings = %s; want PreToolUse alone, matching every tool, running the hook", data)
	}
}

// hookSettings is the --settings JSON as the CLI reads it.
type hookSettings struct {
	Hooks map[string][]struct {
		Matcher string `json:"matcher"`
		Hooks   []struct {
			Type    string `json:"type"`
			Command string `json:"command"`
			Timeout int    `json:"timeout"`
		} `json:"hooks"`
	} `json:"hooks"`
}

func decodeSettings(t *testing.T, data []byte) hookSettings {
	t.Helper()
	var settings hookSettings
	if err := json.Unmarshal(data, &settings); err != nil {
		t.Fatal(err)
	}
	return settings
}
