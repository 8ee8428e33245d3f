package host

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// chatCLI is a stand-in for `claude -p --input-format stream-json …`: it appends every line
// it reads to its record and answers as the CLI does, by what the prompt asks for: "stream"
// (an answer in three deltas), "bash" (a Bash call that needs permission), "edit" (an Edit
// of greet.txt that needs permission), "slow" (a turn
// that runs until interrupted), "crash" (exit 3 mid-turn).
const chatCLI = `#!/bin/sh
rec=RECORD
say() { printf '%s\n' "$1"; }
se() { say '{"type":"stream_event","event":'"$1"',"session_id":"s1","parent_tool_use_id":null}'; }
text() {
  se '{"type":"content_block_start","index":0,"content_block":{"type":"text"}}'
  se '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"'"$1"'"}}'
  se '{"type":"content_block_stop","index":0}'
}
result() {
  say '{"type":"result","subtype":"'"${1:-success}"'","is_error":'"${2:-false}"',"duration_ms":1500,"num_turns":1,"session_id":"s1","total_cost_usd":0.0123,"usage":{"input_tokens":10,"output_tokens":5}}'
}
idof() { printf '%s' "$1" | sed -n 's/.*"request_id":"\([^"]*\)".*/\1/p'; }
printf 'ARGS %s\n' "$*" >> "$rec"
while IFS= read -r line; do
  printf '%s\n' "$line" >> "$rec"
  case "$line" in
  *'"subtype":"initialize"'*)
    say '{"type":"control_response","response":{"subtype":"success","request_id":"'"$(idof "$line")"'","response":{"commands":[],"models":[{"value":"default","displayName":"Default (recommended)","description":"The best model"},{"value":"sonnet","displayName":"Sonnet","description":"Fast"}]}}}' ;;
  *'"subtype":"set_model"'*)
    say '{"type":"control_response","response":{"subtype":"success","request_id":"'"$(idof "$line")"'"}}' ;;
  *'"subtype":"set_permission_mode"'*)
    m=$(printf '%s' "$line" | sed -n 's/.*"mode":"\([^"]*\)".*/\1/p')
    say '{"type":"control_response","response":{"subtype":"success","request_id":"'"$(idof "$line")"'","response":{"mode":"'"$m"'"}}}'
    say '{"type":"system","subtype":"status","status":null,"permissionMode":"'"$m"'","session_id":"s1"}' ;;
  *'"subtype":"interrupt"'*)
    say '{"type":"control_response","response":{"subtype":"success","request_id":"'"$(idof "$line")"'"}}'
    say '{"type":"user","message":{"role":"user","content":[{"type":"text","text":"[Request interrupted by user]"}]}}'
    result error_during_execution true ;;
  *'"behavior":"allow"'*)
    say '{"type":"user","message":{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","content":"hi"}]}}'
    text "Ran it."; result ;;
  *'"behavior":"deny"'*)
    say '{"type":"user","message":{"role":"user","content":[{"tool_use_id":"t1","type":"tool_result","is_error":true,"content":"denied"}]}}'
    text "Did not run it."; result ;;
  *'"type":"user"'*)
    say '{"type":"system","subtype":"init","session_id":"s1","model":"fake-model","permissionMode":"default"}'
    case "$line" in
    *stream*)
      se '{"type":"message_start","message":{"id":"m1"}}'
      se '{"type":"content_block_start","index":0,"content_block":{"type":"text"}}'
      for piece in 'Hello' ' from the' ' stand-in.'; do
        se '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"'"$piece"'"}}'
      done
      say '{"type":"assistant","message":{"id":"m1","content":[{"type":"text","text":"Hello from the stand-in."}]}}'
      se '{"type":"content_block_stop","index":0}'
      result ;;
    *bash*)
      say '{"type":"assistant","message":{"id":"m2","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"echo hi"}}]}}'
      say '{"type":"control_request","request_id":"r1","request":{"subtype":"can_use_tool","tool_name":"Bash","display_name":"Bash","input":{"command":"echo hi"},"permission_suggestions":[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"echo:*"}],"behavior":"allow","destination":"session"}],"tool_use_id":"t1"}}' ;;
    *edit*)
      say '{"type":"control_request","request_id":"r2","request":{"subtype":"can_use_tool","tool_name":"Edit","display_name":"Edit","input":{"file_path":"'"$(pwd)"'/greet.txt","old_string":"two","new_string":"TWO"},"description":"greet.txt","permission_suggestions":[{"type":"setMode","mode":"acceptEdits","destination":"session"}],"tool_use_id":"t1"}}' ;;
    *think*)
      se '{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}'
      se '{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Let me look\nat the file."}}'
      se '{"type":"content_block_stop","index":0}'
      say '{"type":"assistant","message":{"id":"m3","content":[{"type":"tool_use","id":"t2","name":"Read","input":{"file_path":"/tmp/x/notes.txt","limit":3}}]}}'
      say '{"type":"user","message":{"role":"user","content":[{"tool_use_id":"t2","type":"tool_result","content":"1\tone\n2\ttwo\n3\tthree"}]}}'
      say '{"type":"assistant","message":{"id":"m4","content":[{"type":"tool_use","id":"t3","name":"Bash","input":{"command":"false"}}]}}'
      say '{"type":"user","message":{"role":"user","content":[{"tool_use_id":"t3","type":"tool_result","is_error":true,"content":"Exit code 1"}]}}'
      text "Read it."; result ;;
    *slow*)
      se '{"type":"content_block_start","index":0,"content_block":{"type":"text"}}'
      se '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Working"}}' ;;
    *crash*)
      se '{"type":"content_block_start","index":0,"content_block":{"type":"text"}}'
      se '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"half an answer"}}'
      exit 3 ;;
    esac ;;
  esac
done
`

// chatEnv is a child Neovim whose terminal_cmd is the stand-in chat CLI, with vim.ui.select
// and vim.ui.input answering as _G.pick and _G.reason say (and recording what was asked).
type chatEnv struct {
	*env
	record string
}

func newChatEnv(t *testing.T) *chatEnv {
	t.Helper()
	e := newEnv(t)
	dir := t.TempDir()
	record := filepath.Join(dir, "record")
	script := filepath.Join(dir, "claude")
	if err := os.WriteFile(script, []byte(strings.Replace(chatCLI, "RECORD", record, 1)), 0o755); err != nil {
		t.Fatal(err)
	}
	e.nv.Lua(nil, `
		require('claude').setup({ terminal_cmd = { ... } })
		_G.asked = {}
		vim.ui.select = function(items, opts, on_choice)
			local labels = {}
			for _, item in ipairs(items) do table.insert(labels, opts.format_item(item)) end
			table.insert(_G.asked, { prompt = opts.prompt, labels = labels })
			on_choice(items[_G.pick == 'last' and #items or _G.pick])
		end
		vim.ui.input = function(opts, on_confirm) on_confirm(_G.reason) end`, script)
	return &chatEnv{env: e, record: record}
}

// transcript returns the chat's transcript, one string.
func (e *chatEnv) transcript() string {
	var lines []string
	e.nv.Lua(&lines, `
		local b = require('claude.chat').buffers()
		return b and vim.api.nvim_buf_get_lines(b.transcript, 0, -1, false) or {}`)
	return strings.Join(lines, "\n")
}

// waitTranscript waits until the transcript has a line equal to each of want.
func (e *chatEnv) waitTranscript(want ...string) {
	e.t.Helper()
	nvimtest.Wait(e.t, "the transcript to show "+strings.Join(want, " | "), waitTimeout, func() bool {
		lines := "\n" + e.transcript() + "\n"
		for _, w := range want {
			if !strings.Contains(lines, "\n"+w+"\n") {
				return false
			}
		}
		return true
	})
}

// prompt types text into the chat's input and sends it with <CR> in Normal mode.
func (e *chatEnv) prompt(text string) {
	e.t.Helper()
	e.nv.Lua(nil, `vim.api.nvim_buf_set_lines(require('claude.chat').buffers().input, 0, -1, false, { ... })`, text)
	e.nv.Keys("<Esc><CR>")
}

// recorded waits until the stand-in has read a line containing each of want.
func (e *chatEnv) recorded(want ...string) string {
	e.t.Helper()
	var got string
	nvimtest.Wait(e.t, "the CLI to read "+strings.Join(want, ", "), waitTimeout, func() bool {
		b, _ := os.ReadFile(e.record)
		got = string(b)
		for _, w := range want {
			if !strings.Contains(got, w) {
				return false
			}
		}
		return true
	})
	return got
}

func TestClaudeChatStreamsAnAnswerIntoTheTranscript(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Cmd("ClaudeChat")
	var info map[string]any
	e.nv.Lua(&info, `
		local b = require('claude.chat').buffers()
		return { name = vim.api.nvim_buf_get_name(b.transcript), ft = vim.bo[b.transcript].filetype,
			bt = vim.bo[b.transcript].buftype, current = vim.api.nvim_get_current_buf() == b.input }`)
	if info["name"] != "claude-chat://"+e.nv.Cwd || info["ft"] != "markdown" || info["bt"] != "nofile" || info["current"] != true {
		t.Errorf("after :ClaudeChat the transcript is %v; want claude-chat://%s, markdown, nofile, and the input current", info, e.nv.Cwd)
	}

	// Typed as a user does: Insert mode, then the documented Insert-mode key.
	e.nv.Keys("isay stream<C-s>")
	e.waitTranscript("> say stream", "Hello from the stand-in.", "─── 1.5 s · 10 tokens in, 5 out · $0.0123 (session)")
	e.recorded(`"text":"say stream"`)
	var input []string
	e.nv.Lua(&input, `return vim.api.nvim_buf_get_lines(require('claude.chat').buffers().input, 0, -1, false)`)
	if len(input) != 1 || input[0] != "" {
		t.Errorf("input after sending = %q, want it cleared", input)
	}

	// Closing its windows keeps the chat; :ClaudeChat shows the same conversation.
	e.nv.Cmd("only")
	e.nv.Cmd("enew")
	e.nv.Cmd("ClaudeChat")
	if got := e.transcript(); !strings.Contains(got, "Hello from the stand-in.") {
		t.Errorf("transcript after reopening =\n%s\nwant the earlier answer", got)
	}
	e.prompt("stream again")
	e.waitTranscript("> stream again")
	nvimtest.Wait(t, "a second answer", waitTimeout, func() bool {
		return strings.Count(e.transcript(), "Hello from the stand-in.") == 2
	})
	if got := e.recorded(`stream again`); strings.Count(got, `"type":"user"`) != 2 {
		t.Errorf("the CLI read\n%s\nwant two turns on one process", got)
	}
}

func TestAChatPermissionIsAskedAndAnswered(t *testing.T) {
	tests := []struct {
		name   string
		pick   string // _G.pick: an index or "last"
		reason string
		shown  string // the transcript's answer line
		sent   []string
	}{
		{
			name: "allowed once", pick: "1", shown: "  ⎿  allowed: Allow once",
			sent: []string{`"behavior":"allow","updatedInput":{"command":"echo hi"}}`},
		},
		{
			name: "allowed with the CLI's suggestion", pick: "2",
			shown: "  ⎿  allowed: Allow, and allow Bash(echo:*) for this session",
			sent:  []string{`"updatedPermissions":[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"echo:*"}],"behavior":"allow","destination":"session"}]`},
		},
		{
			name: "denied with a reason", pick: "last", reason: "not now", shown: "  ⎿  denied: not now",
			sent: []string{`"behavior":"deny","message":"not now"`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newChatEnv(t)
			e.nv.Lua(nil, `local p, r = ...; _G.pick, _G.reason = tonumber(p) or p, r`, tt.pick, tt.reason)
			e.nv.Cmd("ClaudeChat")
			e.prompt("run bash")
			after := "Ran it."
			if tt.pick == "last" {
				after = "Did not run it."
			}
			e.waitTranscript("● Bash(echo hi)", tt.shown, after)
			e.recorded(tt.sent...)
			var asked []map[string]any
			e.nv.Lua(&asked, `return _G.asked`)
			if len(asked) != 1 {
				t.Fatalf("asked %v, want one question", asked)
			}
			labels := asked[0]["labels"].([]any)
			if asked[0]["prompt"] != "Claude wants to use Bash: echo hi" || len(labels) != 3 ||
				labels[0] != "Allow once" || labels[1] != "Allow, and allow Bash(echo:*) for this session" || labels[2] != "Deny" {
				t.Errorf("asked %v; want the command and: Allow once, the suggestion, Deny", asked[0])
			}
		})
	}
}

func TestClaudeChatInterruptAndCtrlCStopTheTurn(t *testing.T) {
	for _, how := range []string{"<C-c>", ":ClaudeChatInterrupt"} {
		t.Run(how, func(t *testing.T) {
			e := newChatEnv(t)
			e.nv.Cmd("ClaudeChat")
			e.prompt("be slow")
			e.waitTranscript("Working")
			if how == "<C-c>" {
				e.nv.Keys("<C-c>")
			} else {
				e.nv.Cmd("ClaudeChatInterrupt")
			}
			e.recorded(`"subtype":"interrupt"`)
			e.waitTranscript("_[Request interrupted by user]_", "**Error:** error_during_execution")
		})
	}
}

func TestAChatCLIThatExitsMidTurnLeavesTheTranscriptAndItsCode(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Cmd("ClaudeChat")
	e.prompt("crash now")
	e.waitTranscript("half an answer", "**Claude exited mid-turn (code 3).** Send again to resume the conversation.")
	// The next turn starts a CLI again, resuming the conversation.
	e.prompt("stream after the crash")
	e.waitTranscript("Hello from the stand-in.")
	e.recorded(`stream after the crash`)
}

func TestClaudeChatStopEndsTheCLI(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Cmd("ClaudeChat")
	e.prompt("stream")
	e.waitTranscript("Hello from the stand-in.")
	e.nv.Cmd("ClaudeChatStop")
	e.waitTranscript("_Claude exited (code 0)._")
}

func TestClaudeChatWithoutTheCLISaysSoAsClaudeOpenDoes(t *testing.T) {
	e := newEnv(t)
	e.nv.Lua(nil, `require('claude').setup({ terminal_cmd = { 'no-such-claude' } })`)
	got := commandMessages(t, e.nv, "ClaudeChat")
	if !strings.Contains(got, "no-such-claude is not an executable on PATH. Install the Claude Code CLI") {
		t.Errorf(":ClaudeChat said %q; want the not-on-PATH message of :ClaudeOpen", got)
	}
	var open bool
	e.nv.Lua(&open, `return require('claude.chat').buffers() ~= nil`)
	if open {
		t.Error(":ClaudeChat without the CLI opened a chat")
	}
}

func TestAChatEditIsReviewedInTheDiffView(t *testing.T) {
	tests := []struct {
		name  string
		act   string // Ex commands in the proposal's window
		shown string
		sent  string
	}{
		{
			name: "accepted as proposed", act: "write", shown: "  ⎿  accepted",
			sent: `"behavior":"allow","updatedInput":{"file_path":"PATH","old_string":"two","new_string":"TWO"}}`,
		},
		{
			name: "accepted after the user's edit", act: "call setline(3, 'THREE') | write", shown: "  ⎿  accepted with your changes",
			sent: `"updatedInput":{"file_path":"PATH","new_string":"one\nTWO\nTHREE\n","old_string":"one\ntwo\nthree\n","replace_all":false}`,
		},
		{
			name: "rejected", act: "ClaudeDiffReject", shown: "  ⎿  rejected",
			sent: `"behavior":"deny","message":"` + rejectMessage + `"`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newChatEnv(t)
			path := e.nv.WriteFile("greet.txt", "one\ntwo\nthree\n")
			opened := e.nv.UserEvents("ClaudeDiffOpened")
			e.nv.Cmd("ClaudeChat")
			e.prompt("make an edit")
			nvimtest.Next(t, opened, "the diff of the proposed edit", waitTimeout)
			e.waitTranscript("? Edit(greet.txt): review the proposed change in the diff")
			e.nv.Cmd("ClaudeDiffFocus")
			e.nv.Cmd(tt.act)
			e.waitTranscript(tt.shown)
			e.recorded(strings.ReplaceAll(tt.sent, "PATH", path))
			var asked []any
			e.nv.Lua(&asked, `return _G.asked`)
			if len(asked) != 0 {
				t.Errorf("an edit was asked about with vim.ui.select too: %v", asked)
			}
			if got := readFile(t, path); got != "one\ntwo\nthree\n" {
				t.Errorf("the file holds %q; Neovim must leave writing it to the CLI", got)
			}
		})
	}
}

// A host that exits with Neovim takes its chats' CLIs with it, mid-turn or not.
func TestAnExitingHostEndsItsChatsCLIs(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Cmd("ClaudeChat")
	e.prompt("slow")
	e.waitTranscript("Working")
	var pids []int
	e.host.chats.mu.Lock()
	for _, st := range e.host.chats.byDir {
		if st.session != nil {
			pids = append(pids, st.session.PID())
		}
	}
	e.host.chats.mu.Unlock()
	if len(pids) != 1 || pids[0] <= 0 {
		t.Fatalf("chat CLI pids %v, want one", pids)
	}
	e.host.Exit()
	if err := syscall.Kill(pids[0], 0); err == nil {
		t.Errorf("the chat's CLI (pid %d) still runs after the host exited", pids[0])
	}
}

func TestClaudeChatModeAndShiftTabSwitchTheModeTheWinbarShows(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Cmd("ClaudeChat")
	winbar := func() string {
		var s string
		e.nv.Lua(&s, `return vim.b[require('claude.chat').buffers().transcript].claude_chat_status or ''`)
		return s
	}
	steps := []struct {
		how  string
		mode string
	}{
		{":ClaudeChatMode acceptEdits", "acceptEdits"},
		{"<S-Tab> in the input", "plan"},
		{"<S-Tab> in the transcript", "default"},
		{":ClaudeChatMode plan", "plan"},
	}
	for i, step := range steps {
		switch step.how {
		case "<S-Tab> in the input":
			e.nv.Keys("<Esc><S-Tab>")
		case "<S-Tab> in the transcript":
			e.nv.Cmd("wincmd k")
			e.nv.Keys("<S-Tab>")
			e.nv.Cmd("wincmd j")
		default:
			e.nv.Cmd(strings.TrimPrefix(step.how, ":"))
		}
		nvimtest.Wait(t, step.how+" to reach the CLI", waitTimeout, func() bool {
			return strings.Count(e.recorded(), `"subtype":"set_permission_mode"`) == i+1
		})
		if got := e.recorded(); !strings.HasSuffix(got, `"request":{"mode":"`+step.mode+`","subtype":"set_permission_mode"}}`+"\n") {
			t.Fatalf("after %s the CLI read\n%s\nwant a switch to %s last", step.how, got, step.mode)
		}
		e.waitTranscript("_Mode: " + step.mode + "_")
		want := "Claude chat · " + step.mode
		if step.mode == "default" {
			want = "Claude chat"
		}
		nvimtest.Wait(t, "the winbar to show "+want, waitTimeout, func() bool { return winbar() == want })
	}
	got := commandMessages(t, e.nv, "ClaudeChatMode bogus")
	if !strings.Contains(got, "unknown chat mode bogus; use one of: default, acceptEdits, plan") {
		t.Errorf(":ClaudeChatMode bogus said %q; want the modes it takes", got)
	}
}

func TestClaudeModelPicksFromTheCLIsListAndLaterStartsUseIt(t *testing.T) {
	wantLabels := []string{"Default (recommended) — The best model", "Sonnet — Fast"}
	checkAsked := func(t *testing.T, e *chatEnv) {
		t.Helper()
		var asked []map[string]any
		e.nv.Lua(&asked, `return _G.asked`)
		if len(asked) != 1 || asked[0]["prompt"] != "Claude model" {
			t.Fatalf("asked %v, want one question: Claude model", asked)
		}
		labels := asked[0]["labels"].([]any)
		if len(labels) != 2 || labels[0] != wantLabels[0] || labels[1] != wantLabels[1] {
			t.Errorf("the picker offered %v, want %q", labels, wantLabels)
		}
	}
	argsLine := func(record string, terminal bool) string {
		for _, l := range strings.Split(record, "\n") {
			if strings.HasPrefix(l, "ARGS ") && strings.Contains(l, " -p ") != terminal && strings.Contains(l, "--model sonnet") {
				return l
			}
		}
		return ""
	}

	t.Run("a running chat switches at once and :ClaudeOpen gets --model", func(t *testing.T) {
		e := newChatEnv(t)
		e.nv.Lua(nil, `_G.pick = 2`)
		e.nv.Cmd("ClaudeChat")
		e.nv.Cmd("ClaudeModel")
		e.recorded(`"request":{"model":"sonnet","subtype":"set_model"}`)
		e.waitTranscript("_Model: sonnet_")
		checkAsked(t, e)
		var winbar string
		e.nv.Lua(&winbar, `return vim.b[require('claude.chat').buffers().transcript].claude_chat_status`)
		if winbar != "Claude chat · sonnet" {
			t.Errorf("winbar = %q, want the new model", winbar)
		}
		e.nv.Cmd("ClaudeOpen")
		nvimtest.Wait(t, "the terminal's CLI to start with --model sonnet", waitTimeout, func() bool {
			return argsLine(e.recorded(), true) != ""
		})
	})

	t.Run("with no chat the choice waits for the next chat", func(t *testing.T) {
		e := newChatEnv(t)
		e.nv.Lua(nil, `_G.pick = 2`)
		e.nv.Cmd("ClaudeModel")
		nvimtest.Wait(t, "the picker", waitTimeout, func() bool {
			var n int
			e.nv.Lua(&n, `return #_G.asked`)
			return n == 1
		})
		checkAsked(t, e)
		if got := e.recorded(`"subtype":"initialize"`); strings.Contains(got, "set_model") || argsLine(got, false) != "" {
			t.Errorf("before any chat the CLI read\n%s\nwant no model switch", got)
		}
		e.nv.Cmd("ClaudeChat")
		e.prompt("stream")
		e.waitTranscript("Hello from the stand-in.")
		if got := e.recorded(); argsLine(got, false) == "" || strings.Contains(got, "set_model") {
			t.Errorf("the chat's CLI read\n%s\nwant it started with --model sonnet, and no set_model", got)
		}
	})
}

func TestTheChatInputRecallsEarlierPrompts(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Cmd("ClaudeChat")
	e.prompt("stream one")
	e.waitTranscript("> stream one")
	e.nv.Lua(nil, `vim.api.nvim_buf_set_lines(require('claude.chat').buffers().input, 0, -1, false, { ... })`, "stream two", "second line")
	e.nv.Keys("<Esc><CR>")
	e.waitTranscript("> stream two", "> second line")
	e.nv.Lua(nil, `vim.api.nvim_buf_set_lines(require('claude.chat').buffers().input, 0, -1, false, { 'a draft' })`)
	input := func() string {
		var lines []string
		e.nv.Lua(&lines, `return vim.api.nvim_buf_get_lines(require('claude.chat').buffers().input, 0, -1, false)`)
		return strings.Join(lines, "\n")
	}
	steps := []struct{ keys, want string }{
		{"<Up>", "stream two\nsecond line"},
		{"<Up>", "stream one"}, // from the first line of the recalled prompt
		{"<Up>", "stream one"}, // the oldest stays
		{"<Down>", "stream two\nsecond line"},
		{"<Down>", "a draft"}, // from its last line, past the newest: the draft again
		{"<C-p><C-p>", "stream one"},
		{"<C-n>", "stream two\nsecond line"},
		{"gg<Down>", "stream two\nsecond line"}, // not on the last line: the cursor moves
	}
	e.nv.Keys("<Esc>")
	for _, step := range steps {
		e.nv.Keys(step.keys)
		if got := input(); got != step.want {
			t.Fatalf("after %s the input holds %q, want %q", step.keys, got, step.want)
		}
	}
	var row int
	e.nv.Lua(&row, `return vim.api.nvim_win_get_cursor(0)[1]`)
	if row != 2 {
		t.Errorf("<Down> on the first of two lines left the cursor on line %d, want 2", row)
	}
	e.nv.Keys("<Up><Up><CR>")
	nvimtest.Wait(t, "the recalled prompt to be sent again", waitTimeout, func() bool {
		return strings.Count(e.recorded(), `"text":"stream one"`) == 2
	})
}

func TestAChatFoldsThinkingAndEachToolUseIntoOneLineThatUnfolds(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Cmd("ClaudeChat")
	e.prompt("think first")
	e.waitTranscript("Read it.", "  ⎿  Error: Exit code 1")
	want := []string{
		"_∴ Thinking…_",
		"  │ Let me look",
		"  │ at the file.",
		"",
		"● Read(/tmp/x/notes.txt)",
		"  │ file_path: /tmp/x/notes.txt",
		"  │ limit: 3",
		"  ⎿  1\tone … (3 lines)",
		"  │ 2\ttwo",
		"  │ 3\tthree",
		"● Bash(false)",
		"  │ command: false",
		"  ⎿  Error: Exit code 1",
	}
	if got := e.transcript(); !strings.Contains(got, strings.Join(want, "\n")) {
		t.Fatalf("transcript =\n%s\nwant it to hold\n%s", got, strings.Join(want, "\n"))
	}
	// What the window shows: each fold closed on its first line.
	var transcript int
	e.nv.Lua(&transcript, `return require('claude.chat').buffers().transcript`)
	got := strings.Join(e.nv.ShownLines(transcript), "\n")
	for _, line := range []string{"_∴ Thinking…_", "● Read(/tmp/x/notes.txt)", "  ⎿  1\tone … (3 lines)", "● Bash(false)", "  ⎿  Error: Exit code 1", "Read it."} {
		if !strings.Contains("\n"+got+"\n", "\n"+line+"\n") {
			t.Errorf("the window shows\n%s\nwant the line %q", got, line)
		}
	}
	if strings.Contains(got, "│") {
		t.Errorf("the window shows\n%s\nwant every input, result and thinking body folded", got)
	}
}

// :ClaudeAsk and :ClaudeSendText go to the chat open in the current tab
// page, as :ClaudeSend does, never to a terminal.
func TestClaudeAskAndSendTextGoToTheChatOpenInThisTabPage(t *testing.T) {
	e := newChatEnv(t)
	path := e.nv.WriteFile("ask.txt", "one\ntwo\nthree\n")
	e.nv.Cmd("edit " + path)
	e.nv.Cmd("ClaudeChat")
	e.nv.Lua(nil, `vim.api.nvim_set_current_win(vim.fn.bufwinid(vim.fn.bufnr(...)))`, path)
	e.nv.Cmd("ClaudeSendText draft words")
	var input string
	e.nv.Lua(&input, `return table.concat(vim.api.nvim_buf_get_lines(require('claude.chat').buffers().input, 0, -1, false), "\n")`)
	if input != "draft words" {
		t.Errorf("after :ClaudeSendText the chat input holds %q, want the text", input)
	}
	e.nv.Lua(nil, `vim.api.nvim_buf_set_lines(require('claude.chat').buffers().input, 0, -1, false, {})`)
	e.nv.Lua(nil, `vim.api.nvim_set_current_win(vim.fn.bufwinid(vim.fn.bufnr(...)))`, path)
	e.nv.Cmd("2,3ClaudeAsk what do these do?")
	e.recorded(`@ask.txt#L2-3 what do these do?`)
	e.waitTranscript("> @ask.txt#L2-3 what do these do?")
	var terminal bool
	e.nv.Lua(&terminal, `return require('claude.terminal').buf() ~= nil`)
	if terminal {
		t.Errorf(":ClaudeAsk opened the Claude terminal while a chat was open")
	}
}

// A chat whose CLI exited starts the next one in the mode the user had
// switched to, not the CLI's default.
func TestAChatCLIStartedAgainKeepsTheMode(t *testing.T) {
	e := newChatEnv(t)
	e.nv.Cmd("ClaudeChat")
	e.nv.Cmd("ClaudeChatMode acceptEdits")
	e.waitTranscript("_Mode: acceptEdits_")
	e.nv.Cmd("ClaudeChatStop")
	e.waitTranscript("_Claude exited (code 0)._")
	e.prompt("stream")
	e.waitTranscript("Hello from the stand-in.")
	got := e.recorded()
	var starts []string
	for _, l := range strings.Split(got, "\n") {
		if strings.HasPrefix(l, "ARGS ") {
			starts = append(starts, l)
		}
	}
	// The first in permission_mode's default (issue 21), the second in the user's.
	if len(starts) != 2 || !strings.Contains(starts[0], "--permission-mode default") ||
		!strings.Contains(starts[1], "--permission-mode acceptEdits") || strings.Count(starts[1], "--permission-mode") != 1 {
		t.Errorf("the CLI starts were\n%s\nwant the first with --permission-mode default, the second with only --permission-mode acceptEdits", strings.Join(starts, "\n"))
	}
}
