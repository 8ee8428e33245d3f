// Package chat is the core of the native chat (:ClaudeChat, issue 10): it runs the Claude Code
// CLI in its stream-json mode, writes user turns and control messages to it, parses what it
// prints, and hands a renderer batches of typed events. It knows nothing about Neovim (a test
// checks that it imports neither go-client nor nvimapi); the editor side drives a Process.
//
// # Use
//
//	s, err := chat.Start(chat.Options{Dir: root, Env: env, Logger: log})
//	init, err := s.Initialize(ctx)       // slash commands, models: for completion and pickers
//	err = s.Send(ctx, "fix the test", chat.Image{MediaType: "image/png", Data: png})
//	for {
//		events, err := s.Next(ctx)        // one batch: render it with one call into the editor
//		if err == io.EOF { break }         // after Exited
//		for _, e := range events {
//			switch e := e.(type) {
//			case chat.TextDelta: …
//			case chat.PermissionRequest: // later: s.Allow(ctx, e.Ticket, edited) or s.Deny(…)
//			}
//		}
//	}
//	s.Interrupt(ctx); s.SetPermissionMode(ctx, "acceptEdits"); s.SetModel(ctx, "sonnet")
//	s.Close(ctx)                          // stdin closed: the CLI exits 0; killed after a grace period
//	chat.ListConversations(chat.ConfigDir(env), root) // then Start(Options{Resume: id})
//
// Batching: Next hands out at most one batch per Options.BatchWindow (16 ms by default); the
// first event after a quiet window, a permission request and the end of a turn go at once.
// Consecutive text, thinking and tool-input deltas are merged into one event. The reader
// never waits for the consumer: a slow renderer gets bigger batches, not a stalled CLI.
//
// # What the real CLI does (2.1.197 and 2.1.332, against the API stand-in in e2e/fakeapi)
//
// Beyond ../shared/STREAM-JSON.md, or differing from it:
//
//   - initialize can be sent before any turn and is answered at once (commands, agents,
//     output_style, available_output_styles, models, account, pid). system/init comes only
//     with the first turn, and again before every turn (with the current model and mode).
//   - Control subtypes checked: initialize, interrupt (success with no payload), set_model
//     (success with no payload; the CLI also prints a replayed user line
//     "<local-command-stdout>Set model to M</local-command-stdout>" with isReplay, and the next
//     request goes to M), set_permission_mode (answers {"mode": M}, followed by a system/status
//     line with status null and permissionMode M). set_permission_mode accepts ANY string,
//     "bogus" included, so SetPermissionMode checks against PermissionModes (the choices of
//     --permission-mode: default, acceptEdits, plan, auto, dontAsk, bypassPermissions). An
//     unknown subtype is answered {"subtype":"error","error":"Unsupported control request
//     subtype: X"}.
//   - interrupt mid-stream: the partial assistant line (the text streamed so far), a user line
//     with text "[Request interrupted by user]", then result subtype "error_during_execution",
//     is_error true. The process lives on; the next turn works, and the model sees the note.
//   - interrupt while a permission request is pending: control_cancel_request {request_id},
//     an error tool_result ("The user doesn't want to proceed …"), the text "[Request
//     interrupted by user for tool use]", then the same error result.
//   - deny: the tool_result is is_error true with our message as its content, and that is what
//     the model gets in the next API request; the result lists it in permission_denials.
//   - allow with updatedPermissions [{"type":"setMode","mode":"acceptEdits","destination":
//     "session"}] (a permission_suggestions entry) switches the mode: a system/status line
//     says so and later edits are not asked about.
//   - A Read of a file in the workspace and a read-only Bash command ("echo hi") run without a
//     permission request in default mode.
//   - result.total_cost_usd is the cost of the whole process so far, not of the turn (usage is
//     the turn's); after --resume it starts again from zero.
//   - With a thinking block: system lines of subtype thinking_tokens between thinking deltas
//     (not shown), and signature_delta deltas.
//   - Assistant lines: one per content block, each written right after the block's last delta
//     and before its content_block_stop; the parser counts streamed bytes per block so the
//     text is not shown twice.
//   - Tool results' content is a string (Read: numbered lines "1\thello"), or blocks.
//   - Sessions: <config dir>/projects/<dir>/<id>.jsonl where every byte of the absolute
//     directory that is not an ASCII letter or digit becomes "-" ("/tmp/x/my_proj.v2 x" →
//     "-tmp-x-my-proj-v2-x"). Lines carry type, timestamp, cwd, sessionId, gitBranch ("HEAD"
//     outside a repository), version; the first prompt is the first user line that is not
//     isMeta nor a <command-…>/<local-command-…> echo; the file ends with a last-prompt line.
//     --resume ID keeps the session id and appends to the same file.
//   - --mcp-config with a server of type "http" (streamable HTTP; JSON answers, 202 for
//     notifications, 405 for the GET stream are enough) is connected before the first turn;
//     its tools reach the model as mcp__<server>__<tool>, and --allowedTools=<those names>
//     lets them run without a can_use_tool request (host/chat_mcp.go serves getDiagnostics so).
//   - Closing stdin of an idle CLI makes it exit 0 at once (mid-turn is not checked: Close
//     kills after the grace period if need be).
//
// What changed in 2.1.332 (the same checks, and a capture of both CLIs' lines for one turn
// with a 529 answer first):
//
//   - --permission-mode lists "manual" where 2.1.197 had "default"; it still takes
//     "default", and system/init reports "default" for either. Print mode starts in
//     "default" (the interactive CLI starts in "auto"); a settings defaultMode applies to
//     both. An unknown --permission-mode is refused with the list of choices.
//   - MCP tools (mcp__nvim__getDiagnostics) are no longer in the request's tools: the model
//     loads them with ToolSearch first. --allowedTools still lets them run unasked.
//   - system/api_retry (attempt, max_retries, retry_delay_ms, error_status, error) comes
//     before each retry of a failed API request, as in 2.1.197 (where retry_delay_ms was
//     fractional); up to ten retries with growing pauses, during which nothing else comes.
//     The parser makes it a Status (RetryingPrefix) and the chat shows it. stream_event lines
//     carry api_message_id. initialize answers with more fields (capabilities,
//     current_permission_mode, session_state, …); system/init and result too
//     (additional_directories, view_mode; result_index, safety_stops, …). None of these
//     changes what the parser reads.
//
// How the peer chat's agent runs the same CLI (claude-agent-acp 0.101.0 through its SDK
// 0.3.318, seen with 2.1.332 in peerbench/chatpeer):
//
//   - CLAUDE_CODE_EXECUTABLE picks the binary instead of the SDK's bundled 2.1.318. It runs
//     `claude --output-format stream-json --verbose --input-format stream-json
//     --permission-prompt-tool=stdio --disallowedTools=AskUserQuestion --tools=default
//     --setting-sources=user,project,local --permission-mode=auto --include-partial-messages
//     --session-id=<uuid> --replay-user-messages`: no -p, the id chosen by the client, auto
//     mode.
//   - With prompt suggestions asked for (the SDK's promptSuggestions), the CLI sends one
//     more request after every turn: the conversation with its tools, and a last user message
//     opening "[SUGGESTION MODE: Suggest what the user might naturally type next into Claude
//     Code.]". fakeapi answers it as a side request. We do not ask for suggestions.
//
// Not checked against the real CLI: subagent (Task) output, whose stream_event lines carry
// parent_tool_use_id (partial text of a subagent is dropped, its tool calls are kept), and
// control requests other than can_use_tool (hook_callback, mcp_message: we register neither,
// so they are answered with an error rather than left waiting).
package chat
