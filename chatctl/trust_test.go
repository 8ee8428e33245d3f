package chatctl_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/claudeconfig"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// In a folder the CLI has not trusted, no chat CLI starts (not for a turn, not for
// :Claude model's list) until the user says yes in the chat; the yes is recorded in the CLI's
// config file, and the chat starts.
func TestAnUntrustedFolderStartsNoCLIUntilTheUserTrustsIt(t *testing.T) {
	e := newUntrustedChatEnv(t)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("transcript:\n%s\nmessages:\n%s", e.transcript(), e.nv.Messages())
		}
	})
	var dir string
	e.nv.Lua(&dir, `return vim.fn.getcwd()`)
	config := cliConfig(t, e.nv)
	const question = "? Do you trust the files in this folder? "
	noCLI := func(when string) {
		t.Helper()
		if b, err := os.ReadFile(e.record); err == nil {
			t.Fatalf("%s: a CLI started in the untrusted folder; it recorded:\n%s", when, b)
		}
	}

	e.nv.Cmd("ClaudeChat")
	e.waitTranscript(question+dir, "  ⎿  waiting for you: <CR> here or :Claude chat trust yes / no")
	noCLI("with the question shown")
	var winbar string
	e.nv.Lua(&winbar, `return vim.b[require('claude.chat').buffers().transcript].claude_chat_status`)
	if !strings.Contains(winbar, "trust this folder?") {
		t.Errorf("winbar = %q, want it to say the chat waits for the trust answer", winbar)
	}

	// A message typed meanwhile is kept, not sent, and the question is not asked twice.
	e.prompt("stream")
	var input []string
	e.nv.Lua(&input, `return vim.api.nvim_buf_get_lines(require('claude.chat').buffers().input, 0, -1, false)`)
	if strings.Join(input, "\n") != "stream" {
		t.Errorf("the input holds %q after sending in an untrusted folder, want the typed text kept", input)
	}
	e.nv.Cmd("ClaudeModel") // its answer comes later, from the host
	nvimtest.Wait(t, ":Claude model to say the folder is not trusted", waitTimeout, func() bool {
		return strings.Contains(e.nv.Messages(), "could not get Claude's model list: "+dir+": the folder is not trusted yet")
	})
	e.nv.Cmd("ClaudeChat new") // the other ways to start a CLI wait for the same answer
	e.nv.Cmd("ClaudeChat last")
	e.nv.Cmd("ClaudeChatTrust no")
	e.waitTranscript("  ⎿  not trusted: no Claude runs in this folder, nor its hooks, MCP servers or settings. :Claude chat trust yes trusts it")
	noCLI("after no")
	if n := strings.Count(e.transcript(), question); n != 1 {
		t.Errorf("the question is in the transcript %d times, want once", n)
	}
	if ok, err := claudeconfig.Trusted(config, dir); ok || err != nil {
		t.Fatalf("after no, the config trusts %s: %v, %v", dir, ok, err)
	}

	// Sending again asks again; <CR> in the transcript opens the picker, whose yes trusts.
	e.nv.Keys("<CR>")
	e.nv.Lua(nil, `_G.pick = 1`)
	nvimtest.Wait(t, "the question asked again", waitTimeout, func() bool {
		return strings.Count(e.transcript(), question) == 2
	})
	e.nv.Lua(nil, `vim.api.nvim_set_current_win(vim.fn.bufwinid(require('claude.chat').buffers().transcript))`)
	e.nv.Keys("<CR>")
	e.waitTranscript("  ⎿  trusted: Claude starts, and the trust is recorded where the CLI keeps it")
	e.recorded("ARGS ")
	// The CLI is asked to record it; this one, as CLIs before 2.1.332, does not say it did,
	// so the host records it once it answered.
	e.recorded(`"workspaceTrust":{"accepted":true,"directory":` + strconv.Quote(dir) + `}`)
	nvimtest.Wait(t, "the config to trust "+dir, waitTimeout, func() bool {
		ok, err := claudeconfig.Trusted(config, dir)
		return ok && err == nil
	})
	var asked []map[string]any
	e.nv.Lua(&asked, `return _G.asked`)
	if len(asked) != 1 || !strings.Contains(asked[0]["prompt"].(string), "hooks, MCP servers and settings will run") {
		t.Errorf("the picker asked %v, want the trust question with what trusting means", asked)
	}
	e.nv.Lua(nil, `vim.api.nvim_set_current_win(vim.fn.bufwinid(require('claude.chat').buffers().input))`)
	e.nv.Keys("<CR>")
	e.recorded(`"content":[{"type":"text","text":"stream"}]`)
}

// When the trust cannot be recorded (here a config file whose projects the plugin cannot
// change, with a CLI that does not record it itself), the chat runs anyway, the user is
// told, the file stays as it was, and the yes holds for this Neovim: the chat's next CLI
// starts without asking.
func TestAYesThatCannotBeRecordedStartsTheChatAndSaysSo(t *testing.T) {
	e := newUntrustedChatEnv(t)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("transcript:\n%s\nmessages:\n%s", e.transcript(), e.nv.Messages())
		}
	})
	var dir string
	e.nv.Lua(&dir, `return vim.fn.getcwd()`)
	config := cliConfig(t, e.nv)
	const odd = `{"projects": []}`
	if err := os.MkdirAll(filepath.Dir(config), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(config, []byte(odd), 0o600); err != nil {
		t.Fatal(err)
	}
	e.nv.Cmd("ClaudeChat")
	e.waitTranscript("? Do you trust the files in this folder? " + dir)
	e.nv.Cmd("ClaudeChatTrust yes")
	e.recorded(`"workspaceTrust":{"accepted":true,"directory":` + strconv.Quote(dir) + `}`)
	nvimtest.Wait(t, "the transcript to say the trust could not be recorded", waitTimeout, func() bool {
		return strings.Contains(e.transcript(), "could not record the trust: trust "+dir+": "+config+": projects is not an object") &&
			strings.Contains(e.transcript(), "the chat runs, and the next Neovim asks again")
	})
	if got, _ := os.ReadFile(config); string(got) != odd {
		t.Errorf("the config file changed to %q", got)
	}
	if err := os.Remove(e.record); err != nil {
		t.Fatal(err)
	}
	e.nv.Cmd("ClaudeChat new") // another CLI (a new transcript): no question, no second record asked
	e.recorded("ARGS ")
	if strings.Contains(e.transcript(), "Do you trust the files in this folder?") {
		t.Errorf("the question was asked again after a yes")
	}
	e.recorded(`"subtype":"initialize"`)
	if b, _ := os.ReadFile(e.record); strings.Contains(string(b), "workspaceTrust") {
		t.Errorf("the second CLI was asked to record the trust again:\n%s", b)
	}
}

// What the host does after the CLI answered a yes it was told of: when the CLI says it
// recorded it but the config does not trust the folder where the plugin looks (the CLI
// recorded a linked worktree's main repository), the host records the folder too; when the
// CLI says it keeps it for this session only (a home directory), the host writes nothing
// behind it and says so.
func TestAfterTheCLIsAnswerTheHostRecordsTheTrustOnlyWhereItMust(t *testing.T) {
	for _, tc := range []struct {
		name, recorded string
		trusted        bool   // the config trusts the folder in the end
		says           string // in the transcript
	}{
		{"recorded elsewhere", "true", true, ""},
		{"kept for the session only", "false", false, "for this session only (it does so for a home directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newUntrustedChatEnv(t)
			t.Cleanup(func() {
				if t.Failed() {
					t.Logf("transcript:\n%s\nmessages:\n%s", e.transcript(), e.nv.Messages())
				}
			})
			e.nv.Lua(nil, `vim.env.STANDIN_TRUST_RECORDED = ...`, tc.recorded)
			var dir string
			e.nv.Lua(&dir, `return vim.fn.getcwd()`)
			config := cliConfig(t, e.nv)
			e.nv.Cmd("ClaudeChat")
			e.waitTranscript("? Do you trust the files in this folder? " + dir)
			e.nv.Cmd("ClaudeChatTrust yes")
			e.recorded(`"workspaceTrust":{"accepted":true`)
			if tc.trusted {
				nvimtest.Wait(t, "the config to trust "+dir, waitTimeout, func() bool {
					ok, err := claudeconfig.Trusted(config, dir)
					return ok && err == nil
				})
				return
			}
			nvimtest.Wait(t, "the transcript to say the trust is kept for the session", waitTimeout, func() bool {
				return strings.Contains(e.transcript(), tc.says)
			})
			if ok, err := claudeconfig.Trusted(config, dir); ok || err != nil {
				t.Errorf("the host recorded a trust the CLI keeps for the session only: %v, %v", ok, err)
			}
		})
	}
}
