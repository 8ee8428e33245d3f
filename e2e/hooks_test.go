package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/e2e/tmuxterm"
	"github.com/claude-nvim/claude.nvim/hooks"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// The hooks Settings installs reach the plugin's process from the real CLI, through the real
// plugin binary's -hook mode, in the order a turn makes them; what the UserPromptSubmit
// handler answers reaches the model.
func TestTheCLIsHooksReachThePluginInTurnOrder(t *testing.T) {
	t.Parallel()
	cli := clienv.Bin(t)
	api := fakeapi.New(t,
		fakeapi.Use("Bash", map[string]any{"command": "touch made-by-bash.txt", "description": "Create a file"}),
		fakeapi.Say("Made it."),
	)
	env := clienv.New(t, api.URL())
	events := make(chan hooks.Event, 64)
	const note = "Note from the editor: the user reverted your change to greet.txt lines 2-3."
	r, err := hooks.Listen("", func(ctx context.Context, e hooks.Event) hooks.Reply {
		events <- e
		if e.Name == hooks.UserPromptSubmit {
			return hooks.Reply{Stdout: []byte(note + "\n")}
		}
		return hooks.Reply{}
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	settings, err := hooks.Settings(pluginBinary, r.Socket())
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "hooks.json")
	if err := os.WriteFile(file, settings, 0o600); err != nil {
		t.Fatal(err)
	}
	term := tmuxterm.Start(t, tmuxterm.Options{Dir: env.Project, Env: env.Vars(), Width: 120, Height: 40},
		cli, "--settings", file, "--permission-mode", "default")
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	defer cancel()
	next := func(want string) hooks.Event {
		t.Helper()
		for {
			select {
			case e := <-events:
				if e.Name == want {
					return e
				}
				if e.Name != hooks.SessionStart { // 2.1.197 sends it late
					t.Fatalf("hook %s (%s %s) came while waiting for %s", e.Name, e.ToolName, e.Notification, want)
				}
			case <-ctx.Done():
				screen, _ := term.Screen()
				t.Fatalf("no %s hook; the screen:\n%s", want, screen)
			}
		}
	}
	if _, err := term.WaitForText(ctx, "? for shortcuts"); err != nil {
		t.Fatal(err)
	}
	term.Type("make a file")
	term.Send("Enter")
	if e := next(hooks.UserPromptSubmit); e.Prompt != "make a file" || e.Cwd != env.Project || e.SessionID == "" {
		t.Errorf("UserPromptSubmit %+v", e)
	}
	if e := next(hooks.PreToolUse); e.ToolName != "Bash" || !strings.Contains(string(e.ToolInput), "touch made-by-bash.txt") {
		t.Errorf("PreToolUse %+v", e)
	}
	if e := next(hooks.PermissionRequest); e.ToolName != "Bash" {
		t.Errorf("PermissionRequest %+v", e)
	}
	if e := next(hooks.Notification); e.Notification != "permission_prompt" {
		t.Errorf("Notification %+v", e)
	}
	if _, err := term.WaitForText(ctx, "Do you want"); err != nil {
		t.Fatal(err)
	}
	term.Send("Enter") // Yes
	if e := next(hooks.PostToolUse); e.ToolName != "Bash" {
		t.Errorf("PostToolUse %+v", e)
	}
	next(hooks.Stop)
	if got := api.Main()[0].LastUserText(); !strings.Contains(got, note) {
		t.Errorf("the model's first request lacks the UserPromptSubmit hook's note; its user text:\n%s", tail(got))
	}
	select {
	case e := <-events:
		if e.Name != hooks.SessionStart {
			t.Errorf("an extra %s hook after Stop", e.Name)
		}
	case <-time.After(0):
	}
}

// Every CLI the plugin starts sends its hooks to the plugin's host, saying which session it
// is: a terminal's as "terminal:N", a chat's as "chat:DIR".
func TestTheHooksOfATerminalAndAChatReachTheHostWithTheirOrigin(t *testing.T) {
	t.Parallel()
	s := newSession(t, fakeapi.Say("Hello from the terminal."), fakeapi.Say("Hello from the chat."))
	s.open()
	s.prompt("say hello")
	s.waitText("Hello from the terminal.", turnTimeout)
	s.waitHookLogged(hooks.Stop, "terminal:1")
	s.openChat()
	s.nv.Keys("i" + "greet me" + "<Esc><CR>")
	s.waitChat("Hello from the chat.")
	s.waitHookLogged(hooks.UserPromptSubmit, "chat:"+s.env.Project)
	s.waitHookLogged(hooks.Stop, "chat:"+s.env.Project)
}

// waitHookLogged waits until the plugin's log shows a hook event of that name from origin.
func (s *session) waitHookLogged(name, origin string) {
	s.t.Helper()
	want := []string{"msg=hook ", "event=" + name + " ", "origin=" + logValue(origin)}
	nvimtest.Wait(s.t, "the host to log the "+name+" hook of "+origin, turnTimeout, func() bool {
		log, _ := os.ReadFile(s.logFile)
		for _, line := range strings.Split(string(log), "\n") {
			ok := true
			for _, w := range want {
				ok = ok && strings.Contains(line, w)
			}
			if ok {
				return true
			}
		}
		return false
	})
}

// logValue is v as slog's text handler writes it: quoted when it holds a space, a quote or
// an equals sign.
func logValue(v string) string {
	if strings.ContainsAny(v, " \"=") {
		return fmt.Sprintf("%q", v)
	}
	return v
}
