package chatctl_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/claude-nvim/claude.nvim/nvimapi/nvimtest"
)

// hostileCLI is a stand-in for a broken or hostile CLI (issue 23): it records what it reads
// and answers a user line by what the prompt asks for: "badnames" (a permission request
// whose tool name holds a newline, a NUL and an ESC, then a good one), "write PATH" (a
// Write of PATH that needs permission), "edit PATH" (an Edit of PATH, "two" to "TWO").
const hostileCLI = `#!/bin/sh
rec=RECORD
say() { printf '%s\n' "$1"; }
arg() { printf '%s' "$1" | sed -n 's/.*"text":"[a-z]* \([^"]*\)".*/\1/p'; }
while IFS= read -r line; do
  printf '%s\n' "$line" >> "$rec"
  case "$line" in
  *'"subtype":"initialize"'*)
    id=$(printf '%s' "$line" | sed -n 's/.*"request_id":"\([^"]*\)".*/\1/p')
    say '{"type":"control_response","response":{"subtype":"success","request_id":"'"$id"'","response":{"commands":[],"models":[]}}}' ;;
  *'"type":"user"'*)
    say '{"type":"system","subtype":"init","session_id":"s1","model":"fake-model","permissionMode":"default"}'
    case "$line" in
    *badnames*)
      say '{"type":"assistant","message":{"id":"m1","content":[{"type":"text","text":"odd\u0000text\u001b[31m"}]}}'
      say '{"type":"control_request","request_id":"r1","request":{"subtype":"can_use_tool","tool_name":"Ba\nsh\u0000\u001b[2J","input":{"command":"echo one\nrm -rf ~"},"tool_use_id":"t1"}}'
      say '{"type":"control_request","request_id":"r2","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"echo two"},"tool_use_id":"t2"}}' ;;
    *'"text":"write '*)
      say '{"type":"control_request","request_id":"w1","request":{"subtype":"can_use_tool","tool_name":"Write","input":{"file_path":"'"$(arg "$line")"'","content":"x"},"tool_use_id":"t1"}}' ;;
    *'"text":"edit '*)
      say '{"type":"control_request","request_id":"e1","request":{"subtype":"can_use_tool","tool_name":"Edit","input":{"file_path":"'"$(arg "$line")"'","old_string":"two","new_string":"TWO"},"tool_use_id":"t1"}}' ;;
    *floodasks*)
      i=0
      while [ $i -lt 5000 ]; do
        printf '{"type":"control_request","request_id":"f%d","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"echo %d"},"tool_use_id":"t%d"}}\n' $i $i $i
        i=$((i+1))
      done
      say '{"type":"assistant","message":{"id":"m9","content":[{"type":"text","text":"flood done"}]}}' ;;
    *bigline*)
      { printf '{"type":"control_request","request_id":"big1","request":{"subtype":"can_use_tool","tool_name":"Write","input":{"file_path":"/tmp/x","content":"'
        head -c 35651584 /dev/zero | tr '\0' x
        printf '"},"tool_use_id":"t1"}}\n'; }
      say '{"type":"control_request","request_id":"r2","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"echo two"},"tool_use_id":"t2"}}' ;;
    *bigtext*)
      { printf '{"type":"assistant","message":{"id":"m1","content":[{"type":"text","text":"'
        head -c 3145728 /dev/zero | tr '\0' Z
        printf '"}]}}\n'; }
      say '{"type":"result","subtype":"success","is_error":false,"duration_ms":1,"num_turns":1,"session_id":"s1","total_cost_usd":0,"usage":{"input_tokens":1,"output_tokens":1}}' ;;
    *bigstream*)
      say '{"type":"stream_event","event":{"type":"message_start","message":{"id":"m1"}}}'
      say '{"type":"stream_event","event":{"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":""}}}'
      i=0
      while [ $i -lt 48 ]; do
        printf '{"type":"stream_event","event":{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"'
        head -c 65536 /dev/zero | tr '\0' y
        printf '"}}}\n'
        i=$((i+1))
      done
      say '{"type":"stream_event","event":{"type":"content_block_stop","index":0}}'
      say '{"type":"result","subtype":"success","is_error":false,"duration_ms":1,"num_turns":1,"session_id":"s1","total_cost_usd":0,"usage":{"input_tokens":1,"output_tokens":1}}' ;;
    esac ;;
  esac
done
`

// newHostileEnv is a child Neovim whose chat CLI is hostileCLI.
func newHostileEnv(t *testing.T) *chatEnv {
	t.Helper()
	e := newEnv(t)
	dir := t.TempDir()
	record := filepath.Join(dir, "record")
	script := filepath.Join(dir, "claude")
	if err := os.WriteFile(script, []byte(strings.Replace(hostileCLI, "RECORD", record, 1)), 0o755); err != nil {
		t.Fatal(err)
	}
	e.nv.Lua(nil, `require('claude').setup({ terminal_cmd = { ... } })`, script)
	nvimtest.TrustWorkspaces(t, e.nv)
	return &chatEnv{env: e, record: record}
}

// A bad item (a tool name with a newline made set_lines fail) took the rest of its batch with
// it, so the next permission request was never asked and the CLI waited for ever (issue
// 23.5). Each item renders on its own, its text made fit for a buffer line.
func TestAToolNameWithANewlineStillLetsTheNextRequestBeAsked(t *testing.T) {
	e := newHostileEnv(t)
	e.nv.Cmd("ClaudeChat")
	e.prompt("badnames")
	e.waitTranscript("odd?text?[31m",
		"? Ba⏎sh??[2J(echo one) asks for permission",
		"? Bash(echo two) asks for permission")
	var waiting int
	e.nv.Lua(&waiting, `return require('claude.chat').waiting()`)
	if waiting != 2 {
		t.Fatalf("%d requests wait for the user, want both", waiting)
	}
	e.nv.Cmd("ClaudeChatAnswer deny")
	e.nv.Cmd("ClaudeChatAnswer allow")
	e.recorded(`"request_id":"r1","response":{"behavior":"deny"`, `"request_id":"r2","response":{"behavior":"allow"`)
}

// An item that fails to render, whatever the reason, shows an error line, and the rest of its
// batch is rendered: the request after it still waits for the user's answer (issue 23.5).
func TestAnItemThatFailsToRenderLeavesTheRestOfItsBatch(t *testing.T) {
	e := newHostileEnv(t)
	e.nv.Cmd("ClaudeChat")
	e.nv.Lua(nil, `require('claude.chat').show_events(vim.b.claude_chat_dir, {
		{ kind = "tool", id = "t1", name = "Read", summary = "x", body = 42 },
		{ kind = "permission", id = "r9#1", name = "Bash", input = { command = "echo after" } },
	})`)
	e.waitTranscript("? Bash(echo after) asks for permission")
	if got := e.transcript(); !strings.Contains(got, "**Error:** could not show a tool item: ") {
		t.Errorf("the transcript is\n%s\nwant an error line for the tool item", got)
	}
	var waiting int
	e.nv.Lua(&waiting, `return require('claude.chat').waiting()`)
	if waiting != 1 {
		t.Errorf("%d requests wait for the user, want the one after the bad item", waiting)
	}
}

// A review read the file an edit names whole, whatever it was (issue 23.3): /dev/stdin froze
// Neovim (the host read its own RPC pipe), /dev/zero ran the host out of memory, a FIFO
// stopped the chat for good. Only a regular file of at most 64 MiB is read; the rest is
// denied with the reason, shown in the transcript, and the chat goes on.
func TestAnEditOfAFileNoReviewReadsIsDeniedWithTheReason(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 65<<20); err != nil { // sparse: costs no disk
		t.Fatal(err)
	}
	tests := []struct {
		name, path, why string
	}{
		{"a FIFO", fifo, "cannot review " + fifo + ": it is a FIFO, not a regular file"},
		{"/dev/zero", "/dev/zero", "cannot review /dev/zero: it is a device, not a regular file"},
		{"/dev/stdin", "/dev/stdin", "cannot review "},
		{"a file over 64 MiB", big, "cannot review " + big + ": it has 65.0 MiB, over the 64 MiB the diff view takes"},
		{"a directory", dir, "cannot review " + dir + ": it is a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newHostileEnv(t)
			e.nv.Cmd("ClaudeChat")
			e.prompt("write " + tt.path)
			e.waitTranscript("? Write(" + tt.path + "): review the proposed change in the diff")
			nvimtest.Wait(t, "the transcript to say why it was denied", waitTimeout, func() bool {
				return strings.Contains(e.transcript(), "  ⎿  denied: "+tt.why)
			})
			e.recorded(`"request_id":"w1","response":{"behavior":"deny","message":"The editor refused to review this change: ` + tt.why)
			// The chat goes on: the next request is asked.
			e.prompt("badnames")
			e.waitTranscript("? Bash(echo two) asks for permission")
		})
	}
}

// An Edit through a symlink showed only the link's name (issue 23.3): the review diffs the
// file it points to, and the transcript says so.
func TestAnEditThroughASymlinkShowsTheFileItPointsTo(t *testing.T) {
	e := newHostileEnv(t)
	real := e.nv.WriteFile("real.txt", "one\ntwo\n")
	link := filepath.Join(t.TempDir(), "link.txt")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	opened := e.nv.UserEvents("ClaudeDiffOpened")
	e.nv.Cmd("ClaudeChat")
	e.prompt("edit " + link)
	got := nvimtest.Next(t, opened, "the diff of the edit", waitTimeout)
	if got["path"] != real {
		t.Errorf("the diff shows %v, want the file the link points to, %s", got["path"], real)
	}
	e.waitTranscript("  ⎿  " + link + " is a link to " + real + ": the diff shows that file")
}

// A line from the CLI over the 32 MiB limit is skipped with an error in the transcript (a
// 200 MiB tool input took the host to 2.2 GiB), and a permission request in it is denied
// unread, so the CLI does not wait for ever; the chat goes on (issue 23.7).
func TestALineOverTheLimitIsSkippedAndItsRequestDenied(t *testing.T) {
	e := newHostileEnv(t)
	e.nv.Cmd("ClaudeChat")
	e.prompt("bigline")
	e.waitTranscript("**Error:** skipped a line of 34.0 MiB from Claude: over the 32 MiB limit for one line; it was a permission request, denied unread",
		"? Bash(echo two) asks for permission")
	e.recorded(`"request_id":"big1","response":{"behavior":"deny","message":"The editor refused this request unread: it was 34.0 MiB, over its 32 MiB limit for one line."`)
}

// Text is shown up to 1 MiB a block, then "(cut: N MiB)": a 200 MiB assistant line stalled
// Neovim 17 s (issue 23.7). Whether it comes as one line or streamed.
func TestHugeTextIsCutWithAMarker(t *testing.T) {
	for _, tt := range []struct{ name, prompt, kind string }{
		{"an assistant line of 3 MiB", "bigtext", "Z"},
		{"3 MiB of streamed thinking", "bigstream", "y"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := newHostileEnv(t)
			e.nv.Cmd("ClaudeChat")
			e.prompt(tt.prompt)
			nvimtest.Wait(t, "the cut marker", waitTimeout, func() bool {
				return strings.Contains(e.transcript(), "(cut: 2.0 MiB)")
			})
			if got := strings.Count(e.transcript(), tt.kind); got != 1<<20 {
				t.Errorf("the transcript shows %d bytes of the text, want the first 1 MiB", got)
			}
		})
	}
}

// 10,000 permission requests answered through a synchronous vim.ui.select (the default)
// recursed into a Lua stack overflow at 3,816 (issue 23.7). An answer never opens the next
// prompt and reaches the host as a notification, so answering the waiting requests one
// after another in a loop holds no stack, and one :Claude chat answer answers one request. Of
// 5,000 requests, 1,000 wait at most; the rest are refused, the CLI told.
func TestAnsweringThousandsOfRequestsThroughASynchronousPickerDoesNotRecurse(t *testing.T) {
	const asks = 1000 // chat.maxPending
	e := newHostileEnv(t)
	e.nv.Lua(nil, `vim.ui.select = function(items, _, on_choice) on_choice(items[1]) end`) // Allow once, at once
	e.nv.Cmd("ClaudeChat")
	e.prompt("floodasks")
	e.waitTranscript("? Bash(echo 999) asks for permission", "flood done", // all read: no request comes after
		"**Error:** refused a Bash permission request without asking: 1000 requests are waiting for your answer already")
	waiting := func() (n int) {
		e.nv.Lua(&n, `return require('claude.chat').waiting()`)
		return n
	}
	if n := waiting(); n != asks {
		t.Fatalf("%d requests wait, want %d", n, asks)
	}
	e.nv.Cmd("ClaudeChatAnswer")
	if n := waiting(); n != asks-1 {
		t.Fatalf("one :Claude chat answer with a synchronous picker left %d waiting, want %d", n, asks-1)
	}
	var err string
	e.nv.Lua(&err, `
		local chat, n = require('claude.chat'), ...
		local ok, err = pcall(function()
			for _ = 1, n do chat.answer() end
		end)
		return ok and "" or tostring(err)`, asks-1)
	if err != "" || waiting() != 0 {
		t.Fatalf("answering in a loop: %q, %d left waiting", err, waiting())
	}
	e.recorded(`"request_id":"f0","response":{"behavior":"allow"`, `"request_id":"f999","response":{"behavior":"allow"`,
		`"request_id":"f1000","response":{"behavior":"deny","message":"Refused: too many permission requests are waiting for the user's answer."`)
}
