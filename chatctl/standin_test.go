package chatctl_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/claude-nvim/claude.nvim/claudeconfig"
	"github.com/claude-nvim/claude.nvim/host"
	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// chatCLI is a stand-in for `claude -p --input-format stream-json …`: it records its
// arguments, its pid and every line it reads, and answers as the CLI does, by what the
// prompt asks for: "stream" (an answer in three deltas), "bash" (a Bash call that needs
// permission), "edit" (an Edit of greet.txt that needs permission), "think" (thinking and
// two tool uses), "collide" (two permission requests under one request_id: echo hi, then
// rm -rf ~/work), "slow" (a turn that runs until interrupted), "crash" (exit 3 mid-turn),
// "questions" (an AskUserQuestion request), "plan" (an ExitPlanMode request), "subagent" (a
// background subagent whose Bash call comes while the answer streams), "tasks" (a task
// created). It refuses every rewind, as a CLI does without checkpoints and mid-turn. With
// STANDIN_TRUST_RECORDED set (true or false), it answers an initialize that carries
// workspaceTrust with that workspace_trust_recorded, as 2.1.332 does (writing nothing).
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
printf 'PID %s\n' "$$" >> "$rec"
while IFS= read -r line; do
  printf '%s\n' "$line" >> "$rec"
  case "$line" in
  *'"subtype":"initialize"'*)
    wt=''
    case "$line" in *'"workspaceTrust"'*) [ -n "$STANDIN_TRUST_RECORDED" ] && wt=',"workspace_trust_recorded":'"$STANDIN_TRUST_RECORDED" ;; esac
    say '{"type":"control_response","response":{"subtype":"success","request_id":"'"$(idof "$line")"'","response":{"commands":[],"models":[{"value":"default","displayName":"Default (recommended)","description":"The best model"},{"value":"sonnet","displayName":"Sonnet","description":"Fast"}]'"$wt"'}}}' ;;
  *'"subtype":"get_context_usage"'*)
    say '{"type":"control_response","response":{"subtype":"error","request_id":"'"$(idof "$line")"'","error":"the stand-in does not count"}}' ;;
  *'"subtype":"set_model"'*)
    say '{"type":"control_response","response":{"subtype":"success","request_id":"'"$(idof "$line")"'"}}' ;;
  *'"subtype":"rewind_files"'*)
    say '{"type":"control_response","response":{"subtype":"success","request_id":"'"$(idof "$line")"'","response":{"canRewind":false,"error":"No file checkpoint found for this message."}}}' ;;
  *'"subtype":"rewind_conversation"'*)
    say '{"type":"control_response","response":{"subtype":"success","request_id":"'"$(idof "$line")"'","response":{"rewound":false,"prefillText":null,"precedingAssistantUuid":null,"error":"turn running","reason":"turn_running"}}}' ;;
  *'"subtype":"set_permission_mode"'*)
    m=$(printf '%s' "$line" | sed -n 's/.*"mode":"\([^"]*\)".*/\1/p')
    say '{"type":"control_response","response":{"subtype":"success","request_id":"'"$(idof "$line")"'","response":{"mode":"'"$m"'"}}}'
    say '{"type":"system","subtype":"status","status":null,"permissionMode":"'"$m"'","session_id":"s1"}' ;;
  *'"subtype":"interrupt"'*)
    say '{"type":"control_response","response":{"subtype":"success","request_id":"'"$(idof "$line")"'"}}'
    say '{"type":"user","message":{"role":"user","content":[{"type":"text","text":"[Request interrupted by user]"}]}}'
    say '{"type":"result","subtype":"error_during_execution","is_error":true,"terminal_reason":"aborted_streaming","errors":["[ede_diagnostic] result_type=user last_content_type=n/a stop_reason=null"],"duration_ms":1500,"num_turns":1,"session_id":"s1","total_cost_usd":0.0123,"usage":{"input_tokens":10,"output_tokens":5}}' ;;
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
      say '{"type":"assistant","message":{"id":"m3","content":[{"type":"tool_use","id":"t2","name":"Read","input":{"file_path":"/tmp/x/notes.txt"}}]}}'
      say '{"type":"user","message":{"role":"user","content":[{"tool_use_id":"t2","type":"tool_result","content":"1\tone\n2\ttwo\n3\tthree\n4\t"}]}}'
      say '{"type":"assistant","message":{"id":"m4","content":[{"type":"tool_use","id":"t3","name":"Bash","input":{"command":"false"}}]}}'
      say '{"type":"user","message":{"role":"user","content":[{"tool_use_id":"t3","type":"tool_result","is_error":true,"content":"Exit code 1"}]}}'
      text "Read it."; result ;;
    *slow*)
      se '{"type":"content_block_start","index":0,"content_block":{"type":"text"}}'
      se '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Working"}}' ;;
    *collide*)
      ask() { say '{"type":"control_request","request_id":"r1","request":{"subtype":"can_use_tool","tool_name":"Bash","display_name":"Bash","input":{"command":"'"$1"'"},"permission_suggestions":[],"tool_use_id":"'"$2"'"}}'; }
      ask 'echo hi' t1; ask 'rm -rf ~/work' t2 ;;
    *questions*)
      say '{"type":"control_request","request_id":"r3","request":{"subtype":"can_use_tool","tool_name":"AskUserQuestion","display_name":"AskUserQuestion","input":{"questions":[{"question":"Which colour?","header":"Colour","multiSelect":false,"options":[{"label":"Red","description":"warm"},{"label":"Blue","description":"cold"}]}]},"permission_suggestions":[],"tool_use_id":"t1"}}' ;;
    *plan*)
      say '{"type":"control_request","request_id":"r4","request":{"subtype":"can_use_tool","tool_name":"ExitPlanMode","display_name":"ExitPlanMode","input":{"plan":"# Plan\n\n1. Shout\n","planFilePath":"/tmp/plans/p.md"},"permission_suggestions":[],"tool_use_id":"t1"}}' ;;
    *tasks*)
      say '{"type":"assistant","message":{"id":"m8","content":[{"type":"tool_use","id":"t7","name":"TaskCreate","input":{"subject":"One","activeForm":"Doing one"}}]}}'
      say '{"type":"user","message":{"role":"user","content":[{"tool_use_id":"t7","type":"tool_result","content":"Task #1 created successfully: One"}]},"tool_use_result":{"task":{"id":"1","subject":"One"}}}'
      text "Planned."; result ;;
    *subagent*)
      say '{"type":"assistant","message":{"id":"m5","content":[{"type":"tool_use","id":"t5","name":"Agent","input":{"description":"Look around","prompt":"P","subagent_type":"Explore"}}]}}'
      say '{"type":"system","subtype":"task_started","task_id":"k1","tool_use_id":"t5","description":"Look around","subagent_type":"Explore","task_type":"local_agent","is_backgrounded":true}'
      say '{"type":"user","message":{"role":"user","content":[{"tool_use_id":"t5","type":"tool_result","content":"Async agent launched successfully."}]}}'
      se '{"type":"message_start","message":{"id":"m6"}}'
      se '{"type":"content_block_start","index":0,"content_block":{"type":"text"}}'
      se '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Main text"}}'
      say '{"type":"system","subtype":"task_progress","task_id":"k1","tool_use_id":"t5","description":"Running ls","last_tool_name":"Bash","usage":{"total_tokens":9,"tool_uses":1,"duration_ms":80}}'
      say '{"type":"assistant","message":{"id":"m7","content":[{"type":"tool_use","id":"t6","name":"Bash","input":{"command":"ls"}}]},"parent_tool_use_id":"t5"}'
      say '{"type":"user","message":{"role":"user","content":[{"tool_use_id":"t6","type":"tool_result","content":"a.txt\nb.txt"}]},"parent_tool_use_id":"t5"}'
      se '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" goes on."}}'
      se '{"type":"content_block_stop","index":0}'
      say '{"type":"system","subtype":"task_notification","task_id":"k1","tool_use_id":"t5","status":"completed","summary":"Two files.","usage":{"total_tokens":20,"tool_uses":1,"duration_ms":2500}}'
      result ;;
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

func newChatEnv(t *testing.T, opts ...func(*host.Options)) *chatEnv {
	t.Helper()
	e := newUntrustedChatEnv(t, opts...)
	nvimtest.TrustWorkspaces(t, e.nv)
	return e
}

// cliConfig is the CLI config file of the environment the chat gives its CLI.
func cliConfig(t *testing.T, nv *nvimtest.Nvim) string {
	t.Helper()
	var env map[string]string
	nv.Lua(&env, `return require('claude.chat.state').start_args(vim.fn.getcwd()).env`)
	var list []string
	for k, v := range env {
		list = append(list, k+"="+v)
	}
	return claudeconfig.Path(list)
}

// newUntrustedChatEnv is newChatEnv in a workspace the CLI has not trusted.
func newUntrustedChatEnv(t *testing.T, opts ...func(*host.Options)) *chatEnv {
	t.Helper()
	e := newEnv(t, opts...)
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
