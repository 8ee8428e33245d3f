package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/claude-nvim/claude.nvim/acp/acptest"
	"github.com/claude-nvim/claude.nvim/e2e/clienv"
)

// playAgent plays a scripted ACP agent on stdin and stdout (ACPTEST_SCENARIO) and returns
// its exit status.
func playAgent(name string) int {
	p := acptest.New(os.Stdin, os.Stdout, func(msg string) {
		fmt.Fprintln(os.Stderr, msg)
		os.Exit(99)
	})
	switch name {
	case "die-mid-turn":
		// Answers a little, then dies once the test's trigger file exists.
		p.Initialize(acptest.Capabilities())
		p.NewSession("s1")
		p.Expect("session/prompt")
		p.Update("s1", map[string]any{"sessionUpdate": "agent_message_chunk", "content": map[string]any{"type": "text", "text": "Let me think about it."}})
		for {
			if _, err := os.Stat(os.Getenv("ACPTEST_TRIGGER")); err == nil {
				break
			}
			time.Sleep(20 * time.Millisecond) // a scripted agent's poll, not a test's wait
		}
		fmt.Fprintln(os.Stderr, "Error: the model went away")
		return 3
	}
	fmt.Fprintln(os.Stderr, "no scenario", name)
	return 98
}

func TestAnACPAgentDyingMidTurnIsSaidAndTypedTextStaysInTheInput(t *testing.T) {
	t.Parallel()
	s := newSession(t)
	t.Cleanup(s.logTranscript)
	trigger := filepath.Join(s.env.Home, "die-now")
	s.nv.Lua(nil, `
		local bin, cli, log, trigger = ...
		require('claude').setup({
			terminal_cmd = { cli },
			log = { level = 'debug', file = log },
			chat = { agents = { scripted = { command = bin, env = { ACPTEST_SCENARIO = 'die-mid-turn', ACPTEST_TRIGGER = trigger } } } },
		})`, os.Args[0], clienv.Bin(t), s.logFile, trigger)
	s.nv.Cmd("ClaudeChat scripted")
	s.chatSend("Think about it")
	s.waitChat("Let me think about it.")
	// The user types the next message and has not sent it when the agent dies.
	s.nv.Keys("<C-\\><C-n>ityped, not sent<Esc>")
	if err := os.WriteFile(trigger, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	s.waitChat("**scripted exited mid-turn (code 3).** Send again to resume the conversation.")
	got := s.chatTranscript()
	if !strings.Contains(got, "exited with status 3") || !strings.Contains(got, "the model went away") {
		t.Errorf("the transcript does not say how the agent ended:\n%s", got)
	}
	var input []string
	s.nv.Lua(&input, `return vim.api.nvim_buf_get_lines(require('claude.chat').buffers().input, 0, -1, false)`)
	if strings.Join(input, "\n") != "typed, not sent" {
		t.Errorf("the input after the agent died = %q; want the typed text kept", input)
	}
}
