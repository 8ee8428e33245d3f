package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/claudeconfig"
	"github.com/claude-nvim/claude.nvim/e2e/clienv"
	"github.com/claude-nvim/claude.nvim/e2e/fakeapi"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// Workspace trust: the CLI's print mode runs a folder's hooks without asking (chat/doc.go),
// so the chat asks first, and nothing of an untrusted folder runs before a yes.

// hostChildren lists the pids of the plugin host's children: the chat CLIs it runs.
func (s *session) hostChildren() []int {
	s.t.Helper()
	s.nv.Lua(&s.hostPID, `return vim.fn.jobpid(require('claude.host').channel())`)
	var pids []int
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(s.hostPID) + "/task/*/children")
	for _, task := range tasks {
		children, _ := os.ReadFile(task)
		for _, f := range strings.Fields(string(children)) {
			if pid, err := strconv.Atoi(f); err == nil {
				pids = append(pids, pid)
			}
		}
	}
	return pids
}

func TestAFoldersHookRunsOnlyAfterTheUserTrustsItInTheChat(t *testing.T) {
	t.Parallel()
	const answer = "Hello from a folder you trust."
	s := newSession(t, fakeapi.Say(answer))
	// A cloned repository, never trusted, whose settings run a command at the session's start
	// and at each prompt.
	dir := filepath.Join(filepath.Dir(s.env.Project), "cloned")
	markers := t.TempDir()
	started, prompted := filepath.Join(markers, "session-start"), filepath.Join(markers, "prompt-submit")
	hook := func(marker string) []any {
		return []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": "echo ran >> " + marker}}}}
	}
	writeJSON(t, filepath.Join(dir, ".claude", "settings.json"), map[string]any{"hooks": map[string]any{
		"SessionStart": hook(started), "UserPromptSubmit": hook(prompted),
	}})
	config := filepath.Join(s.env.ConfigDir, ".claude.json")
	nothingRan := func(when string) {
		t.Helper()
		if pids := s.hostChildren(); len(pids) > 0 {
			t.Fatalf("%s: a chat CLI runs in the untrusted folder (pids %v)", when, pids)
		}
		for _, m := range []string{started, prompted} {
			if _, err := os.Stat(m); err == nil {
				t.Fatalf("%s: the folder's hook ran (%s exists)", when, m)
			}
		}
		if ok, err := claudeconfig.Trusted(config, dir); ok || err != nil {
			t.Fatalf("%s: the CLI's config trusts %s (%v, %v)", when, dir, ok, err)
		}
	}
	s.nv.Lua(nil, `vim.cmd.cd(vim.fn.fnameescape(...))`, dir)

	s.nv.Cmd("ClaudeChat")
	// The question is shown once the host has decided not to start the CLI: a CLI that
	// started would have been a child of the host by then.
	s.waitChat("? Do you trust the files in this folder? " + dir)
	nothingRan("with the question shown")
	s.nv.Keys("iHello?<Esc><CR>") // sent before answering: kept in the input, nothing starts
	s.nv.Cmd("ClaudeChatTrust no")
	s.waitChat("  ⎿  not trusted: no Claude runs in this folder, nor its hooks, MCP servers or settings. :Claude chat trust yes trusts it")
	nothingRan("after no")

	s.nv.Cmd("ClaudeChatTrust yes")
	s.waitChat("  ⎿  trusted: Claude starts, and the trust is recorded where the CLI keeps it")
	// The chat's CLI records it (2.1.332, initialize's workspaceTrust), or the plugin does
	// once that CLI answered without recording it (2.1.197).
	nvimtest.Wait(t, "the CLI's config to trust "+dir, startTimeout, func() bool {
		ok, err := claudeconfig.Trusted(config, dir)
		return ok && err == nil
	})
	// Who recorded it: the CLI writes its whole projects entry; the plugin only the one key.
	var cfg struct {
		Projects map[string]map[string]any `json:"projects"`
	}
	data, _ := os.ReadFile(config)
	if err := json.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	byCLI := len(cfg.Projects[dir]) > 1
	if want := cliVersion != "2.1.197"; byCLI != want {
		t.Errorf("CLI %s: the trust recorded by the CLI itself: %v, want %v (entry %v)", cliVersion, byCLI, want, cfg.Projects[dir])
	}
	nvimtest.Wait(t, "the chat CLI to start after yes", startTimeout, func() bool {
		pids := s.hostChildren()
		if len(pids) == 1 {
			s.earlierCLIs = append(s.earlierCLIs, pids[0])
		}
		return len(pids) == 1
	})
	s.nv.Lua(nil, `vim.api.nvim_set_current_win(vim.fn.bufwinid(require('claude.chat').buffers().input))`)
	s.nv.Keys("<CR>") // the message kept in the input goes now
	s.waitChat(answer)
	for _, m := range []string{started, prompted} {
		nvimtest.Wait(t, "the trusted folder's hook to run ("+filepath.Base(m)+")", turnTimeout, func() bool {
			_, err := os.Stat(m)
			return err == nil
		})
	}

	// The terminal agrees: the CLI's own dialog does not ask again.
	s.open()
	if screen, _ := s.screen(); strings.Contains(screen, "trust this folder") {
		t.Errorf("the terminal's CLI asks for trust again:\n%s", screen)
	}
	if t.Failed() {
		t.Logf("transcript:\n%s", s.chatTranscript())
	}
}

// writeJSON writes v as JSON to path, making its folders.
func writeJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestCaptureTheTrustQuestion writes the screen of :ClaudeChat in a folder the CLI has not
// trusted to $TRUST_CAPTURE, for the README and :help (as TestCaptureAChatScreen does).
func TestCaptureTheTrustQuestion(t *testing.T) {
	out := os.Getenv("TRUST_CAPTURE")
	if out == "" {
		t.Skip("TRUST_CAPTURE is not set")
	}
	cli := clienv.Bin(t)
	api := fakeapi.New(t)
	env := clienv.New(t, api.URL())
	dir := filepath.Join(filepath.Dir(env.Project), "cloned")
	writeJSON(t, filepath.Join(dir, ".claude", "settings.json"), map[string]any{})
	term := neovimInTmux(t, env, dir, cli, 110, 28, "")
	ctx, cancel := context.WithTimeout(context.Background(), turnTimeout)
	defer cancel()
	if _, err := term.WaitForText(ctx, "~"); err != nil {
		t.Fatal(err)
	}
	term.Type(":ClaudeChat")
	term.Send("Enter")
	if _, err := term.WaitForText(ctx, "ClaudeChatTrust yes"); err != nil {
		t.Fatal(err)
	}
	term.Send("C-w", "k")
	screen := settledScreen(t, term)
	writeCapture(t, out, screen)
}
