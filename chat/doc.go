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
//			case chat.PermissionRequest: // later: s.Allow(ctx, e.Ticket, edited) or s.Deny(…);
//				// AskUserQuestion: s.AnswerQuestions(…); ExitPlanMode: s.ApprovePlan(…)
//			}
//		}
//	}
//	s.Interrupt(ctx); s.SetPermissionMode(ctx, "acceptEdits"); s.SetModel(ctx, "sonnet")
//	u, err := s.ContextUsage(ctx)         // after a turn: how full the window is
//	s.SetEffort(ctx, "high"); effort, err := s.Effort(ctx)
//	s.Close(ctx)                          // stdin closed: the CLI exits 0; killed after a grace period
//	chat.ListConversations(chat.ConfigDir(env), root) // then Start(Options{Resume: id})
//
// Batching: Next hands out at most one batch per Options.BatchWindow (4 ms by default); the
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
//   - deny with "interrupt": true (both CLIs) stops the turn as the terminal's "No" (Esc in its
//     dialog: "Interrupted · What should Claude do instead?", the model asked no more) does:
//     the tool_result is is_error true but carries the CLI's own words, not our message ("The
//     user doesn't want to proceed with this tool use. The tool use was rejected (…). STOP
//     what you are doing and wait for the user to tell you how to proceed."), then the text
//     "[Request interrupted by user for tool use]" and a result with is_error true; the model
//     is not asked again, and gets both with the user's next message.
//   - allow with updatedPermissions [{"type":"setMode","mode":"acceptEdits","destination":
//     "session"}] (a permission_suggestions entry) switches the mode: a system/status line
//     says so and later edits are not asked about.
//   - A Read of a file in the workspace and a read-only Bash command ("echo hi") run without a
//     permission request in default mode.
//   - In acceptEdits mode an Edit and a Bash `sed -i` on files of the workspace both run
//     without a permission request; the CLI writes the files itself and says nothing of them
//     but the tool_result ("The file P has been updated successfully." — 2.1.332 adds "(file
//     state is current in your context …)"; Bash with no output: "(Bash completed with no
//     output)"). The editor learns of such writes only from the tool use and its result.
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
//   - Stored conversations and the history browser (stored.go; 2.1.332, and 2.1.197 where
//     said): a title is a line {"type":"custom-title","customTitle":T,"sessionId":ID}
//     appended to the file (the CLI's /rename writes the same, its code reads the last one;
//     checked: the --resume picker shows the one Rename appended). The CLI's interactive --resume picker (both versions) shows the title, but it lists
//     print-mode conversations (lines with entrypoint "sdk-cli") only when it runs with
//     CLAUDE_CODE_ENTRYPOINT=sdk-cli itself: plain `claude --resume` says "No sessions in
//     this project yet". An assistant message is one line per content block with the same
//     message.id (counted once). A tool result's line records the permission answer
//     (2.1.332 only): "permissionDecision": {"decision": "accept", "source":
//     "user_temporary", "grantScope": "once"} or {"decision": "reject", "source":
//     "user_reject"} with "holdsPersonsWords": true when the result's text is the user's
//     reason. Most lines are bookkeeping (queue-operation, attachment, api-request and
//     its blobs, tools-used, atis-latch, last-prompt): not searched. 2.1.197 wrote the
//     running conversation's last answer to its file late (a search right after the first
//     turn of a `:ClaudeChat new` did not find it; it was there once the CLI exited).
//   - --mcp-config with a server of type "http" (streamable HTTP; JSON answers, 202 for
//     notifications, 405 for the GET stream are enough) is connected before the first turn;
//     its tools reach the model as mcp__<server>__<tool>, and --allowedTools=<those names>
//     lets them run without a can_use_tool request (host/chat_mcp.go serves getDiagnostics so).
//   - On a remote's side (Options.Remote, remote.go; e2e over the relay rig and over SSH):
//     the CLI runs through the transport as sh -c 'cd DIR && exec env … claude ARGS', and
//     everything of the chat but --mcp-config travels on its stdin and stdout (stream-json,
//     the stdio permission prompt, the hooks registered with initialize), so nothing here
//     needs to reach it. --mcp-config names the relay's file there (relay/mcpconfig.go): its
//     "http" server is the relay's loopback port, carried to the host. The CLI names files by
//     its own paths (tool inputs, results, hook inputs): chatctl/remote.go maps them.
//   - AskUserQuestion comes as can_use_tool with tool_name AskUserQuestion, the model's input
//     as it is ({"questions": [{question, header, multiSelect, options: [{label,
//     description, preview}]}]}; 1 to 4 questions of 2 to 4 options each: the CLI refuses a
//     question with one option before asking; preview, optional, is content its dialog
//     shows for the focused option) and no permission_suggestions. The answer the CLI
//     expects: allow with updatedInput = that input plus "answers", a map from each
//     question's text to the label chosen (several joined with ", ") or the user's own
//     text. The model gets the tool_result `Your questions have been answered:
//     "Q1"="A1", "Q2"="A2". You can now continue with these answers in mind.` (AnswerQuestions).
//     Allow without answers tells it "The user did not answer the questions".
//   - ExitPlanMode: in plan mode the CLI tells the model (system prompt) "You should create
//     your plan at <config dir>/plans/<slug>.md using the Write tool"; that Write runs
//     unasked. The model calls ExitPlanMode with {} (its schema takes no plan); the
//     can_use_tool request carries {"plan": <the file's text>, "planFilePath": <path>} and no
//     permission_suggestions (the terminal's "auto-accept edits" choice is ours to offer).
//     Allow leaves plan mode for "default" (system/status says so); allow with
//     updatedPermissions [{"type":"setMode","mode":"acceptEdits","destination":"session"}]
//     goes on in acceptEdits instead, and the next edit is not asked about (ApprovePlan).
//     The model gets "User has approved your plan. You can now start coding. …"; an
//     updatedInput whose plan differs from the file's is used, the model getting "## Approved
//     Plan (edited by user):" and that text. Deny with a message: the model gets the message
//     as an error tool_result, the result lists ExitPlanMode in permission_denials, and the
//     mode stays plan (the next turn's system/init says plan).
//   - A Bash tool use makes the CLI create $TMPDIR/claude-<uid>/<project dir name, as in
//     ProjectDir>/<session id>/tasks (2.1.332 also .../started), all empty directories, and it
//     leaves them when it exits; a turn without Bash makes none (chatctl/clitemp.go removes
//     them).
//   - Closing stdin of an idle CLI makes it exit 0 at once. Mid-turn it does not stop the
//     turn: with a permission request waiting, both CLIs take the closed stream as a failed
//     request ("Tool permission request failed: AbortError: Tool permission stream closed
//     before response received" reaches the model) and ask the model again; a message
//     waiting behind the turn runs after an interrupt too. So Close withdraws the waiting
//     messages (cancel_async_message) and interrupts before it closes stdin: then neither
//     CLI asks the model anything more (TestCLIClosedMidTurnAsksTheModelNothingMore).
//   - Its host SIGKILLed mid-turn (stdin and stdout closed at once), 2.1.332 goes on with the
//     turn unseen: still running 20 s later, 75 s into a slowly streamed answer. So
//     lua/claude/reap.lua ends the chat CLIs of a dead host: SIGTERM, the group's SIGKILL after
//     5 s. A Bash command runs in a session of its own (its pgid and sid its own pid), which
//     a kill of the CLI's group misses; on SIGTERM 2.1.332 ends it and exits (2.2 s, 3.6 s on
//     a loaded machine), while 2.1.197 leaves it running (it outlived the SIGTERM and the
//     group's SIGKILL 14 s later), so what ran below the CLI is killed by pid too.
//   - --resume ID after the CLI was killed mid-turn: the same session id; the next request
//     carries the earlier turns and the cut turn's prompt, not the text streamed before the
//     kill (both CLIs).
//   - In a terminal (the IDE bridge, same versions): after a Read with offset/limit of a
//     1.8 MiB file (a partial read is enough for the Edit), an Edit with replace_all (600
//     replacements) reaches the editor as one openDiff whose new_file_contents is the whole new
//     file, in one tools/call; accepted unchanged, the CLI writes exactly that text
//     (e2e TestAManyHunkEditOfALargeFileIsWrittenExactlyAsProposed).
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
//   - ExitPlanMode (with EnterPlanMode, the Cron and Worktree tools, NotebookEdit, …) is
//     deferred: not in the request's tools but named in a "deferred tools are now available
//     via ToolSearch" list; the model loads it with ToolSearch (the CLI runs a direct call
//     anyway). AskUserQuestion is not deferred. With an answer that is the user's own text
//     the AskUserQuestion result reads "The user answered: "Q"="A". Read the answers
//     carefully — …" (2.1.197 says "Your questions have been answered" for any answer).
//   - An Edit allowed with an updatedInput that is not the request's input (the review after
//     the user changed the proposal or took hunks of it back: an Edit of the whole file, old
//     text to new) is written as updatedInput says by both CLIs. 2.1.332's tool_result then
//     reads "The file P has been updated successfully.  The user modified your proposed
//     changes before accepting them. ." (sic: two spaces, a lone period), the words both CLIs
//     use in the terminal's diff flow; 2.1.197's reads "… has been updated successfully.
//     (file state is current in your context — no need to Read it back)" as for an edit
//     allowed unchanged (e2e TestAHunkTakenBackInTheChatsEditReviewIsNotWritten). So the
//     chat's own note (chatctl modifiedMessage) is still needed for 2.1.197. An updatedInput
//     Edit that changes nothing (old_string equal to new_string, every hunk taken back) fails
//     in 2.1.332 with the error tool_result "String not found in file. Failed to apply
//     edit."; in a terminal, an openDiff answered FILE_SAVED with the file's own text is a
//     rejection ("Rejected update to P" on its screen, the turn stops; 2.1.332 and
//     2.1.197), so the chat answers that case as a rejection too (e2e
//     TestEveryHunkTakenBackIsARejection).
//   - system/api_retry (attempt, max_retries, retry_delay_ms, error_status, error) comes
//     before each retry of a failed API request, as in 2.1.197 (where retry_delay_ms was
//     fractional); up to ten retries with growing pauses, during which nothing else comes.
//     The parser makes it a Status (RetryingPrefix) and the chat shows it. stream_event lines
//     carry api_message_id. initialize answers with more fields (capabilities,
//     current_permission_mode, session_state, …); system/init and result too
//     (additional_directories, view_mode; result_index, safety_stops, …). None of these
//     changes what the parser reads.
//
// API errors, diagnostics lines and queued messages (2.1.332, and 2.1.197 where said; the
// stand-in answering with an API error body and a status):
//
//   - A turn that ends on an API error ends with result subtype "success" (sic) and is_error
//     true, api_error_status (the HTTP status; null otherwise), api_error_type (2.1.332
//     only), terminal_reason "api_error" (2.1.197: "completed") and result the CLI's message
//     "API Error: 400 <the API's error.message>" (for a 500: "API Error: 500 Internal server
//     error. This is a server-side issue, …" whatever the API's message). Before it comes a
//     made-up assistant line (model "<synthetic>") with that text as its content and error
//     (a string: "server_error", "unknown"; 2.1.332 also is_api_error_message true): the
//     parser drops it, so the message is shown once, as the error, not as the model's text.
//   - Retried (with api_retry lines): 5xx, 529, 429 (its retry-after is honoured:
//     "Retry-After: 3" gave retry_delay_ms 3228) and, oddly, 401 (error
//     "authentication_failed"). CLAUDE_CODE_MAX_RETRIES=N (the CLI's environment) sets
//     max_retries; the turn ends as above once they are spent. Not retried: 413 (result
//     "Request too large (max 32MB). …", terminal_reason "image_error") and 400, which gets
//     no api_retry: 2.1.332 sends the same request again at once twice, then three times
//     more with more tools offered, and gives up within ~100 ms (six requests per message).
//     The texts differ by status: 401 "Invalid API key · Fix external API key", 429 "API
//     Error: Request rejected (429) · <message>". The CLI stays usable: the next message is
//     a normal turn.
//   - Every interrupted turn's result has errors ["[ede_diagnostic] result_type=user
//     last_content_type=n/a stop_reason=null"] (both CLIs) and terminal_reason
//     "aborted_streaming" (or "aborted_tools"). Such lines (and "[session_crash] …") are the
//     CLI's internal diagnostics; its own SDK adapter filters them out of errors, and so does
//     the parser (TurnEnd.Diagnostics, logged at debug).
//   - A user line written while a turn runs is queued, not mixed in. If the running turn
//     reaches a tool result, the CLI takes it in there: the next request's tool_result
//     message also carries the text "The user sent a new message while you were working:\n
//     <text>\n\n…"; no result of its own. Otherwise it runs after the turn's result as a
//     turn of its own, and several waiting messages are merged into one turn (one request,
//     their texts as separate blocks, one result).
//   - 2.1.332: a user line with a "uuid" gets command_lifecycle lines {command_uuid, state}:
//     "queued" on reading it, "started" when a turn takes it in (before that turn's
//     system/init, or after the tool result it joins), then "completed" (after the result)
//     or "cancelled". system/status "requesting" lists user_message_uuids. The
//     cancel_async_message control request {message_uuid} withdraws a queued one ({"cancelled":
//     true, "message_uuid": …}, and a "cancelled" lifecycle line); the interrupt's answer
//     lists still_queued (uuids that survive the interrupt). With --replay-user-messages each
//     message is echoed (isReplay) when a turn takes it, not when it is read. 2.1.197 prints
//     no command_lifecycle lines (a uuid is accepted), answers cancel_async_message with
//     {"cancelled": true} and answers an interrupt with no payload.
//
// The context window, compaction and effort (2.1.332, and 2.1.197 where said; the stand-in
// scripting each answer's usage):
//
//   - get_context_usage (both CLIs, answered at once, mid-turn too) answers totalTokens,
//     maxTokens (1000000 for both default models), percentage (an integer, rounded),
//     autoCompactThreshold (967000), categories (system_prompt, system_tools, skills,
//     messages, autocompact_buffer, free_space, with their tokens), gridRows (a picture of
//     it), messageBreakdown and apiUsage. After a turn totalTokens is the last answer's
//     input_tokens + cache_read + cache_creation (an answer claiming 300000 in gives 300000,
//     30%; output is not counted) and apiUsage is that usage; before the first turn and right
//     after a compaction, apiUsage is null and the total the CLI's estimate (10746 tokens,
//     1%, in an empty project). Right after --resume (before any turn) it is the stored
//     conversation's last usage again (300000 after an answer of 300000 in); 2.1.197 then
//     reports the model without its "[1m]" (claude-opus-4-8, maxTokens 200000, percentage
//     150) until the next turn. ContextUsage reads it when the CLI starts and after each
//     turn.
//   - /compact sent as a user message: system/status "compacting", then status null with
//     compact_result "success", system/init, system/compact_boundary {compact_metadata:
//     {trigger "manual", pre_tokens (the last answer's input + output, 500005 after an
//     answer of 500000 in and 5 out), post_tokens, duration_ms, preserved_segment}}, a user
//     line with isSynthetic true holding the summary ("This session is being continued from a
//     previous conversation …"), a replayed "<local-command-stdout>Compacted
//     </local-command-stdout>", and a result with num_turns 0, usage 0 (2.1.332 adds
//     local_command "compact"). The summary is the model's answer to a request of the whole
//     conversation with its tools whose last user text opens "CRITICAL: Respond with TEXT
//     ONLY." and asks for an <analysis> block then a <summary> block (2.1.197 puts it as the
//     last block of the last user message); an answer without <summary> is asked for again
//     once. The next request starts from that summary alone. 2.1.197 refuses with one
//     exchange only ("Not enough messages to compact."); 2.1.332 compacts it.
//   - The CLI's own compaction (2.1.332): after an answer of 980000 tokens in (over
//     autoCompactThreshold), the next message is preceded by the same summary request and a
//     compact_boundary with trigger "auto" (pre_tokens 980007). 2.1.197 in print mode did
//     not compact by itself at that fill: its next request carried the whole conversation.
//   - Effort: --effort low|medium|high|xhigh|max (both CLIs). Every main request carries
//     output_config {"effort": E} and thinking {"type": "adaptive"} (2.1.332 adds "display":
//     "updates"); the default E is "medium" on 2.1.332 (claude-opus-5-5) and "high" on
//     2.1.197 (claude-opus-4-8[1m]). initialize lists per model supportsEffort,
//     supportedEffortLevels (all five; 2.1.197's haiku none), supportsAdaptiveThinking and
//     supportsThinkingOff (false for all). No control request sets the effort by name, but
//     apply_flag_settings {"settings": {"effortLevel": E}} does, from the next request on,
//     in the same process (both CLIs); {"effortLevel": null} goes back to the default. It
//     is merged into the --settings file's settings, not put in their place: with --settings
//     holding hooks, get_settings' flagSettings keeps them beside effortLevel, and a
//     UserPromptSubmit hook there still ran on each later turn (2.1.332). Any
//     string is taken silently ("bogus" leaves the default), hence SetEffort's check.
//     get_settings answers applied.effort (what the next request gets) with effective and
//     sources. The thinking budget is gone with adaptive thinking: set_max_thinking_tokens
//     {max_thinking_tokens: 8000} is answered success, and --max-thinking-tokens 8000 (no
//     longer in --help, still taken) and MAX_THINKING_TOKENS=0 in the environment are
//     taken too, and none changes the request (thinking adaptive, effort medium: 2.1.332).
//
// Checkpoints (2.1.332, and 2.1.197 where said; two turns editing a file against the
// stand-in, in acceptEdits mode):
//
//   - The uuid of a user line we write is the stored message's uuid (its jsonl line), and the
//     id every checkpoint request takes. Each prompt gets a file-history-snapshot line
//     (messageId, trackedFileBackups: the backups of the files edited since, by path), and
//     file-history-delta lines follow each edit.
//   - rewind_files {user_message_id, dry_run} needs CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING=
//     true in the CLI's environment (no flag or setting of print mode does it); without it
//     the answer is {"canRewind": false, "error": "File rewinding is not enabled."}. An
//     unknown id: {"canRewind": false, "error": "No file checkpoint found for this
//     message."}. The dry run answers {"canRewind": true, "filesChanged": [absolute paths],
//     "insertions": N, "deletions": N} (the lines the rewind adds and removes: 2 and 3 for a
//     file edited one→TWO then three→"THREE\nfour", rewound to before the first prompt). The
//     real rewind answers {"canRewind": true, "skippedLinks": 0} (2.1.197: {"canRewind":
//     true}) and puts the files back as they were just before that prompt, byte for byte; it
//     says nothing of which files, hence a dry run first.
//   - rewind_conversation {target_message_uuid} cuts the live conversation just before that
//     prompt: {"rewound": true, "targetMessageUuid", "prefillText": the prompt's text,
//     "precedingAssistantUuid"}; the next turn's request lacks the prompt and everything after
//     it, and the file gets a last-prompt line with rewound true and cutUuid. 2.1.332 refuses
//     ({"rewound": false, "error": "stale target", "reason": "stale_target"}) to cut turns
//     after the target unless last_seen_user_message_uuid names the newest prompt (the turns
//     the caller has seen); then it cuts at any prompt, the first too. 2.1.197 has no
//     last_seen: it cuts only at the last prompt ("stale target" for an earlier one) and
//     never at the first ("no preceding assistant"). Both refuse while a turn runs ("turn
//     running"), checked; the bundles also name "commands queued".
//   - The fork: --resume ID --fork-session --resume-session-at <entry uuid> (hidden in
//     --help; "only messages up to and including the chain entry with <message.id>") starts
//     a conversation under a new session id, its own jsonl, holding the entries up to that
//     one: the parentUuid of a prompt's line forks just before the prompt (both CLIs). The
//     original's file only gets, when its CLI is closed, a last-prompt and a cost-state line.
//     The jsonl of the fork appears with its first turn. The fork_conversation control
//     request answers {"forked": false, "error": "unsupported", "reason": "unsupported"} in
//     print mode (2.1.197: "Unsupported control request subtype").
//   - After --resume of such a conversation (a new process, checkpointing on), the dry run
//     and the cut to its first prompt work with the uuids of the earlier process (2.1.332).
//     The uuids History reads from the prompts' stored lines do it too, from a new Neovim
//     and Go host: the dry run (+2 −3), the rewind of the files byte for byte, and the cut
//     with last_seen the newest stored prompt; the next request lacked both turns (2.1.197:
//     the dry run too, the cut at the first prompt refused as ever).
//   - 2.1.197 writes a turn's last assistant line to the jsonl after the turn's result line
//     reached us.
//
// Workspace trust (2.1.332 and 2.1.197, checked with strace, tmux and a hook writing a
// marker; see also ../claudeconfig):
//
//   - Print mode never asks for trust and runs an untrusted folder's .claude/settings.json
//     hooks at once: a SessionStart hook ran (system/hook_started, hook_response lines)
//     before system/init, and a UserPromptSubmit hook with the first turn. The interactive
//     CLI in the same folder shows its dialog first and runs nothing before a yes.
//   - The dialog (2.1.332): "Accessing workspace: <folder>. Quick safety check: Is this a
//     project you created or one you trust? (Like your own code, a well-known open source
//     project, or work from your team). If not, take a moment to review what's in this
//     folder first. Claude Code'll be able to read, edit, and execute files here." with
//     "❯ No, exit" first and "Yes, I trust this folder"; 2.1.197 has the same text with
//     "1. Yes, I trust this folder" first. In a folder with hooks, 2.1.332 adds "⚠ This folder
//     configures hooks that can run commands without asking, declared in
//     .claude/settings.json".
//   - A yes is projects[<folder>].hasTrustDialogAccepted = true in the global config
//     ($CLAUDE_CONFIG_DIR/.claude.json, else ~/.claude.json), recorded at the git root when
//     the folder is inside a repository. A trusted folder (the home directory too) covers
//     every folder below it; a key spelt with a trailing "/" does not count (the dialog
//     asked again). Print mode adds no projects entry of its own.
//   - The CLI rewrites the whole config file (two-space JSON; 1.50 becomes 1.5, "\u00e9"
//     becomes "é", unknown fields stay) under a mkdir lock <file>.lock, re-reading it under
//     the lock, through a temp file renamed over it with the old file's mode.
//   - A host can have the CLI record a yes itself (2.1.332; trust_cli_test.go). initialize's
//     workspaceTrust {accepted: true, directory} (honoured on the first initialize, from the
//     process that holds the CLI's stdin) records the trust when directory resolves to the
//     trust key of the CLI's working directory (the git root: the folder itself or the root
//     both do; for a linked worktree, its main repository's root, which is where it
//     records), and the answer's workspace_trust_recorded says true (recorded, or it was);
//     for the home directory it says false and writes nothing (trusted for the session
//     only), as for a path with invisible characters or another folder. The CLI writes the
//     folder's whole projects entry (allowedTools, mcpServers, … and the key). set_cwd
//     {path} moves a running CLI: to an untrusted folder it answers {status: needs_trust,
//     directory[, trust_root]} and changes nothing; again with trust_accepted: true and
//     trusted_directory echoing that directory it records the trust and moves ({status: ok,
//     cwd, changed, transcript_relocated}); mid-turn it answers rejected/busy. The chat
//     starts its CLI in the workspace after the user's yes, so it sends workspaceTrust
//     (Options.WorkspaceTrust; chatctl records the yes itself when the answer lacks the
//     field, or when the CLI's key is not where claudeconfig.Trusted looks).
//   - 2.1.197 has neither: initialize ignores workspaceTrust (its answer has no
//     workspace_trust_recorded, nor claude_code_version) and set_cwd is refused
//     ("Unsupported control request subtype: set_cwd").
//
// Hooks for the change ledger (2.1.332 and 2.1.197, terminal and chat, hooks from
// --settings; e2e TestATerminalTurnWrittenUnreviewed…, TestAChatTurnInAcceptEdits…):
//
//   - In auto (terminal) and acceptEdits (terminal and chat) the Edits and a Bash
//     `sed -i s/c1/C1/ c.txt` in the project run without a question (no PermissionRequest
//     hook, no can_use_tool), and UserPromptSubmit, PreToolUse (each tool) and Stop fire all
//     the same: the hooks, not the permission flow, are where every change can be seen.
//   - PreToolUse waits for the hook's answer before the tool runs, so a snapshot taken there
//     is the file's "before"; Stop comes after the turn's last tool result.
//   - The chat's CLI (-p, stream-json) runs UserPromptSubmit hooks from --settings for every
//     user line, and what the hook prints reaches the model in that turn's request, as in
//     the terminal.
//
// What the attention list relies on (issue 26; 2.1.332, and 2.1.197 alike, e2e/attention*_test.go):
//
//   - A chat's state comes from its stream alone: a turn runs from the user's message to its
//     result; a can_use_tool request (a tool, AskUserQuestion, ExitPlanMode, an edit under
//     review) waits for the user until answered or cancelled. Its CLI's hooks also reach the
//     host (origin chat:<dir>) and are not needed for it.
//   - An interactive `claude --resume ID` (a terminal brought back) keeps ID: its hooks carry
//     session_id ID, and its first request carries the earlier conversation's prompts.
//   - A terminal's Edit in default mode with the editor's diff open (openDiff) is also a
//     permission asked in the CLI's own prompt: its permission hooks fire (PermissionRequest,
//     Notification permission_prompt) as for Bash (2.1.332 and 2.1.197,
//     e2e/attention_diff_test.go), so "a diff waits" needs no hook of its own.
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
// The task list and subagents (2.1.332, and 2.1.197 where said; the CLI run by hand in
// stream-json mode against the stand-in, whose Server.Agent scripts a subagent by its prompt):
//
//   - The task list is kept with TaskCreate {subject, description, activeForm}, TaskUpdate
//     {taskId, status (pending, in_progress, completed, deleted), subject, activeForm},
//     TaskGet and TaskList; TodoWrite is not offered. 2.1.332 offers them only to older
//     models (claude-sonnet-4-6, haiku-4-5, …) or with CLAUDE_CODE_ENABLE_TODO_TOOLS=1, and
//     then deferred (loaded with ToolSearch); not to its default model (claude-opus-5-5).
//     2.1.197 offers them always, not deferred (with TaskOutput). No line carries the list:
//     the user line of each result has tool_use_result, {"task": {"id": "1", "subject", …}}
//     for TaskCreate (its text "Task #1 created successfully: <subject>"), {"success",
//     "taskId", "updatedFields", "statusChange": {"from", "to"}} for TaskUpdate ("Updated
//     task #1 status"), {"tasks": [{id, subject, status, blockedBy}]} for TaskList. The
//     parser rebuilds the list from these (todo.go).
//   - The Agent tool (system/init lists it as "Task") {description, prompt, subagent_type,
//     run_in_background}: 2.1.332 runs it in the background unless run_in_background is
//     false (2.1.197 ran the same call, without it, in the foreground). In the background the tool_result
//     comes at once ("Async agent launched successfully. … agentId: …") and the turn goes on;
//     the subagent's requests to the API race the main conversation's. Its end makes the
//     CLI start a turn of its own (the notification as the user's message, a result of its
//     own), without any message from us.
//   - A subagent's lines: system/task_started {task_id, tool_use_id (the Agent call),
//     description, subagent_type, task_type "local_agent", prompt, is_backgrounded
//     (2.1.332 only)}; system/background_tasks_changed {tasks} (2.1.332, background only);
//     its assistant and user lines with parent_tool_use_id = the Agent call and agent_id (a
//     foreground one also echoes its prompt as a user text line); system/task_progress
//     {description "Running <the tool's description>", last_tool_name, usage {total_tokens,
//     tool_uses, duration_ms}} before each of its tool calls; system/task_updated {patch
//     {status, end_time}}; system/task_notification {status completed|stopped|failed,
//     summary (2.1.332: the report, summary_is_report; 2.1.197: the description), usage
//     (none when stopped), output_file}. A foreground Agent's tool_result is the report in a
//     "[Subagent hand-back]" frame with <usage>.
//   - stop_task {task_id} works in print mode on both CLIs, on a background and a foreground
//     subagent: answered success {} at once; task_updated (status "killed"),
//     task_notification (status "stopped"), a user line "[Request interrupted by user]"
//     with its parent_tool_use_id. StopTask sends it.
//
// Hooks over the control channel (2.1.332 and 2.1.197, chat TestCLIHooksAreAnswered…):
// initialize's "hooks" (event → [{matcher, hookCallbackIds, timeout}]) registers them; the
// CLI then sends hook_callback {callback_id, input, tool_use_id} for UserPromptSubmit,
// PreToolUse and PostToolUse (and the others) and waits for the answer; a success whose
// response is {"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":
// …}} puts that text in the request to the model, as a command hook's stdout does. The
// chat uses them instead of --settings command hooks: no shell and no process per event.
//
// Checked against the real CLI since: the control requests of issue 39 (below).
// mcp_message: we register no SDK MCP server, so it is answered with an error rather than
// left waiting.
//
// Long outputs, long conversations and the first token (2.1.332 and 2.1.197, issue 27, seen
// in peerbench/chatpeer and by hand against fakeapi):
//
//   - Bash printing 10 MiB: the output is kept in <config dir>/projects/<dir>/<session>/
//     tool-results/<id>.txt and the tool_result's content (for the model and on stdout) is
//     "<persisted-output>\nOutput too large (10MB). Full output saved to: <path>\n\nPreview
//     (first 2KB):\n…"; tool_use_result carries stdout cut to BASH_MAX_OUTPUT_LENGTH (the
//     line is about 33 KB by default, 156 KB with BASH_MAX_OUTPUT_LENGTH=20000000),
//     persistedOutputPath and persistedOutputSize. So no 10 MiB line reaches a chat from
//     Bash; the parser's cutter (big.go) is for lines that do (a Read, an MCP tool).
//   - --resume takes a session file written by hand (chat/chattest: lines with parentUuid,
//     uuid, sessionId, cwd, version, gitBranch, type, message, timestamp, then a last-prompt
//     line): 2,000 messages resumed, the first request carried 2,003 messages (2.1.197:
//     2,002); system/init's session_id is the resumed id.
//   - Cold start, from :ClaudeChat (debug log, peerbench/chatpeer BenchmarkChatColdBreakdown,
//     2 shared cores at load 14): our host runs after ~40-60 ms, the CLI is spawned at
//     ~80-100 ms; the CLI answers initialize, then connects to the --mcp-config http server
//     (MCP initialize 20-35 ms later), then sends its first API request; a message written
//     at once waits in the pipe meanwhile. The CLI's start-up is most of the first token:
//     chat.prestart starts it before the chat opens (lua/claude/chat/prestart.lua).
//   - claude-agent-acp 0.101.0 advertises agentCapabilities.loadSession and replays a
//     stored conversation as session/update notifications on session/load; codecompanion
//     (f1afd025) rebuilds its buffer from them (its /resume).
//
// The control requests of issue 39 (2.1.332's code lists 195 subtypes in its schemas: the
// host's requests, the CLI's own, and system lines; each below checked against both CLIs,
// by hand and in e2e/chat_*_test.go, against the stand-in). "Both" means 2.1.197, the oldest
// CLI supported, has it already; "2.1.332" that it came after 2.1.197 (which answers
// "Unsupported control request subtype: X"):
//
//   - set_permission_mode {mode} (both): 2.1.332 titles the modes Manual (default), Accept
//     edits, Plan, Auto, Don't Ask and Bypass Permissions, and takes "manual" for default
//     (answers {"mode": "default"}; 2.1.197 echoes {"mode": "manual"} and leaves the mode).
//     Its shift+tab goes default, acceptEdits, plan, then bypassPermissions where the CLI
//     was launched to allow it, then auto where available, then default; dontAsk and auto go
//     back to default. bypassPermissions is refused unless the CLI was launched with
//     --allow-dangerously-skip-permissions (or --dangerously-skip-permissions): {"subtype":
//     "error", "error": "Cannot set permission mode to bypassPermissions because the session
//     was not launched with --dangerously-skip-permissions", "error_code":
//     "bypass_not_launched"} (2.1.197: the same words, no error_code). Launched so as root,
//     both exit 1 at once with "--dangerously-skip-permissions cannot be used with root/sudo
//     privileges for security reasons" on stderr unless IS_SANDBOX=1 (Exited.Stderr).
//   - Auto mode's safety check runs on Anthropic's servers in 2.1.332. Through the stand-in
//     (any ANTHROPIC_BASE_URL that does not pass it on) an action that needs it (a Bash
//     `curl … | sh`; a `touch` in the workspace is allowed by the mode itself) gets, at once,
//     system/informational {content: "Auto mode can't check actions in this session. Its
//     safety check runs on the server, and your requests go through 127.0.0.1:PORT, which
//     doesn't pass it through. …", level "warning", tag "auto_mode_no_server_check"} (once),
//     then system/permission_denied {tool_name, tool_use_id, decision_reason_type
//     "classifier", decision_reason_code "auto_mode_no_check_in_session", decision_reason
//     "Classifier unavailable", message (what the model gets)} and an error tool_result; no
//     can_use_tool. 2.1.197 asks the API itself (ten side requests with the transcript) and,
//     given no verdict, sends permission_denied with decision_reason "Auto mode could not
//     evaluate this action and is blocking it for safety — run with --debug for details" (no
//     code). A check waiting over about four seconds sends system/permission_check_status
//     {tool_use_id, status "checking"}, then "done" (2.1.332's schema; not seen against the
//     stand-in). In dontAsk both send permission_denied with decision_reason_type "mode".
//     notices.go turns these into Informational, Denied and Checking.
//   - list_permission_rules {} (2.1.332; 2.1.197: "Unsupported control request subtype")
//     answers {state: {rules: [{behavior, source (userSettings, projectSettings,
//     localSettings, flagSettings, policySettings, cliArg, command, session, …), rule (the
//     stored text, e.g. "Bash(npm run *)"), description {prefix, emphasis, suffix} ("Any
//     Bash command starting with " + "npm run"; absent where the terminal shows none),
//     editability (persistent, session, readonly), notInEffect}], workspaceDirectories
//     [{path, source}], originalCwd, managedOnly, errors}}. The chat's --allowedTools shows
//     as a cliArg rule. An "always" answer (updatedPermissions addRules with destination
//     localSettings, as can_use_tool suggests for Bash "npm run build") is written by the CLI
//     to .claude/settings.local.json and listed at once. No control request changes rules
//     ("this request never changes rules"; update_settings takes outputStyle and effortLevel
//     only; a removeRules update goes only with a permission answer): a rule taken out of
//     its settings file is dropped by the CLI on its own (it watches the files; the next list
//     and the next tool call went without it), which rules.go relies on.
//   - get_usage {skip_behaviors, detached} (both; detached is 2.1.332's, which lets a
//     message sent meanwhile go first) answers {session: {total_cost_usd,
//     total_api_duration_ms, total_duration_ms, total_lines_added, total_lines_removed,
//     model_usage: {<model>: {inputTokens, outputTokens, cacheReadInputTokens,
//     cacheCreationInputTokens, costUSD, contextWindow, …}}}, subscription_type (null with an
//     API key), rate_limits_available (false with an API key), rate_limits (null, or
//     {five_hour, seven_day, seven_day_opus, seven_day_sonnet: {utilization, resets_at},
//     model_scoped: [{display_name, utilization, resets_at}], extra_usage}), behaviors (null
//     when skipped)}. The session's figures are the process's, as result.total_cost_usd
//     (the same number): they start from zero after --resume. The plan's windows come from
//     the claude.ai usage endpoint with an OAuth sign-in, so never through the stand-in.
//     get_session_cost (both) answers the same as /usage's text ("Estimated cost: $0.0001
//     …"; 2.1.197: "Total cost: …"): not used.
//   - mcp_status {} (both) answers {mcpServers: [{name, status (connected, failed,
//     needs-auth, pending, disabled), serverInfo {name, version} once connected, error (a
//     failed one's: "ECONNREFUSED: Unable to connect. …"; 2.1.197 without "ECONNREFUSED: "),
//     config, scope (user, project, local, dynamic for --mcp-config, …), transport (2.1.332),
//     source (2.1.332), tools}]}. An http server that answers 401 with OAuth metadata the CLI
//     can follow up to a client registration is needs-auth (both); one whose registration is
//     refused is failed ("Dynamic Client Registration rejected (HTTP 401)"). Right after
//     start a server may still be pending.
//   - mcp_toggle {serverName, enabled} (both): false answers success and the server is
//     disabled; true connects it, answering the connection's error when that fails (the
//     server then failed). mcp_reconnect {serverName} (both) answers success once connected,
//     else the error ("Server not found: X" for an unknown name).
//   - rename_session {title, session_id, source "host"} (both; 2.1.197 takes the request
//     and ignores the two fields it does not know) appends {"type": "custom-title",
//     "customTitle": T, "sessionId": ID} to the conversation's file, the line Rename writes;
//     2.1.332 also writes {"type": "agent-name", "agentName": T} and prints
//     system/session_title_changed {title} (Titled). Both CLIs write the newest custom-title
//     of the file again when they exit (a line appended by another process included), so the
//     title survives either way; through the CLI, the running process holds it too.
//   - file_suggestions {query} (both) answers {suggestions: [{path}], cwd (2.1.332)}: the
//     TUI's @ typeahead, fuzzy ("gr" gives greet.txt and sub/green.go, "green"
//     sub/green.go), a directory ending in "/", "" giving the workspace's top entries. The
//     first request of a process builds the file index and answers none (both CLIs); about
//     half a second later the same query answers (suggest.go asks again for a while). A file
//     created after the index was built was not found (2.1.332 and 2.1.197: "gra" for a new
//     grape.md a second later).
//   - background_tasks {tool_use_id?} (both; the CLI's Ctrl+B) while a Bash command runs
//     (task_started {task_id, tool_use_id, description, task_type "local_bash",
//     is_backgrounded false}): task_updated {task_id, patch {is_backgrounded: true}}
//     (2.1.332 first sends background_tasks_changed {tasks: [{task_id, task_type,
//     description}]}), the answer {} (with a tool_use_id, 2.1.332 says {backgrounded}), and
//     the tool_result "Command was manually backgrounded by user with ID: X. Output is being
//     written to: $TMPDIR/claude-<uid>/<project>/<session>/tasks/X.output …"; the turn goes
//     on. When it ends: task_updated {patch {status, end_time}}, task_notification {status,
//     output_file, summary "Background command "D" completed (exit code 0)"}, and 2.1.332
//     starts a turn of its own (result.origin {kind "task-notification"}). Sent with nothing
//     running, it answers {} too. get_task_output {task_id} (2.1.332; 2.1.197 unsupported)
//     answers {output (the last 8 KiB), total_bytes, truncated}. stop_task on a background
//     command: task_notification status "stopped".
//
// Not checked against the real CLI: subagent (Task) output, whose stream_event lines carry
// parent_tool_use_id (partial text of a subagent is dropped, its tool calls are kept), and
// the control requests not named in this comment.
package chat
