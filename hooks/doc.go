// Package hooks carries the Claude Code CLI's hook events to the plugin's Go process, for the
// CLIs the plugin starts: what each session is doing (a prompt sent, a tool about to run, a
// permission asked in the CLI's own prompt, a turn done) and when to snapshot the workspace
// for the change ledger.
//
// The CLI runs a hook as a shell command with the event as JSON on stdin. Settings writes the
// hooks for the CLI's --settings flag; each runs this plugin's own binary as
// `claude-nvim -hook SOCKET`, which Forward implements: it sends stdin to the Receiver
// listening on SOCKET (a Unix socket in a directory only the user can open), waits for the
// answer, prints what the answer says to print (a UserPromptSubmit hook's output is added to
// the model's context) and exits 0. When the plugin's process is gone it exits 0 at once:
// a hook of ours never stops or slows Claude.
//
// The channel is bounded both ways (issue 35). The Receiver serves at most maxServing
// connections at once and holds at most eventBudget bytes of events, being read or handled;
// an event past either is answered empty at once (logged once), so a flood of unfinished
// events costs the host tens of MiB, not GiB. An event is read up to maxEvent; past it the
// rest is drained and the members that came whole before the cut are read (a PostToolUse
// names its event, tool and input before the tool's result). Forward, for its part, never
// waits for a host that does not answer: while a handler runs the host sends a NUL every
// second, and the hook gives up after silenceTimeout (5 s) without a byte, or replyTimeout
// (55 s: past the handlers' 50 s, below the CLI's 60 s) in all, printing nothing. A stopped
// host (SIGSTOP) still accepts connections, so these, not the dial, are what end the hook.
//
// What the real CLI sends (2.1.332 and 2.1.197, interactive, default mode): SessionStart
// {source, model}; UserPromptSubmit {prompt}; PreToolUse {tool_name, tool_input,
// tool_use_id}; PermissionRequest {tool_name, tool_input, permission_suggestions} when it asks
// in its own prompt, then Notification {notification_type "permission_prompt", message
// "Claude needs your permission"}; answering it fires nothing until PostToolUse
// {tool_response, tool_use_id, duration_ms}; Stop {last_assistant_message} at each turn's
// end; Notification {notification_type "idle_prompt"} about 60 s after a Stop with no input;
// SessionEnd {reason}. Every event has session_id, transcript_path, cwd, hook_event_name;
// most have prompt_id and permission_mode. 2.1.197 sends SessionStart only once its prompt
// screen is up.
//
// permission_mode (2.1.332, seen): UserPromptSubmit, PreToolUse, PermissionRequest,
// PostToolUse and Stop carry it, SessionStart does not. It is the mode at that moment:
// "default" (the footer's "manual"), "acceptEdits", "plan", "auto", and "bypassPermissions"
// when the CLI was started with it; shift+tab cycles default → acceptEdits → plan → auto (→
// bypassPermissions when allowed) and fires no hook itself, so a switch shows with the next
// event.
package hooks
