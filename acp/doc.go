// Package acp is a client of the Agent Client Protocol (ACP, version 1): JSON-RPC 2.0, one
// message per line, over an agent's stdin and stdout, with requests both ways. It knows
// nothing of Neovim or of the chat: it runs an agent, speaks to it, and hands what the agent
// says and asks to a Client the caller implements.
//
// Files, one job each: wire.go (codes, encoding), decode.go (one line to a message),
// lines.go (the bounded line reader), conn.go (the connection: calls, writes, the reader),
// dispatch.go (the agent's requests and notifications), toolong.go (lines past the limit),
// calls.go (the typed client API), client.go (the Client interfaces and the agent's request
// types), update.go, content.go, types_*.go (the protocol's types), agent.go, stderr.go,
// proc_*.go (the stdio transport: the agent process). acptest/ is a scripted agent for tests.
//
// # Connection model
//
// [NewConn] serves any reader and writer; [Start] runs an agent and serves its pipes. One
// reader goroutine reads the agent's lines in order. Session updates go to
// Client.SessionUpdate on the reader itself, in order, and before the answer to any call
// that followed them is handed over: a turn's updates have all been delivered when Prompt
// returns. The agent's requests each run on a goroutine of their own (a permission waits
// for the user) and are answered when their handler returns. Writes are whole lines, one at
// a time; a write honours its context (the pipe takes deadlines), and one cut short ends the
// connection rather than garble the next message. When the connection ends, every call
// waiting returns why: for an agent process, an [ExitError] with its exit status or signal
// and the last lines of its stderr.
//
// # Decisions
//
//   - Bad input never ends the connection: a line that is not JSON is answered -32700 with
//     id null, a batch or a malformed message -32600 (with its id when it could be read), a
//     request we do not serve -32601 (the methods of an interface the Client does not
//     implement included), a handler's panic -32603. An update of a kind we do not decode
//     (a newer protocol's: notice, compaction_update, …) or that does not decode is
//     delivered as an [UnknownUpdate] holding the raw object. Other notifications go to a
//     [NotificationHandler] if the Client is one, else are dropped.
//   - A line may be up to [DefaultMaxLine] (32 MiB; Options.MaxLine): a 10 MiB update is
//     normal. A longer one is skipped without being held, and what its first 4 KiB say it
//     was gets a [TooLongError]: a request is answered with it, a call it answers fails
//     with it, an update becomes an UnknownUpdate of its session and kind.
//   - The agent may make requests only for sessions open on this connection (created,
//     loaded or resumed here, not closed): any other is refused -32002 before a handler
//     sees it. So a permission request for a session that ended never reaches the user.
//   - Initialize advertises exactly what the Client implements (fs.readTextFile:
//     [FileReader], fs.writeTextFile: [FileWriter], terminal: [Terminals]), and refuses an
//     agent that answers with a protocol version other than 1. session/load, session/list
//     and session/resume are sent only where the agent's capabilities offer them
//     ([ErrUnsupported] otherwise); CloseSession always closes our side and tells the agent
//     where it offers session/close.
//   - Permissions are answered by the option's kind ([PermissionRequest.Option]), never its
//     place. An option the agent did not offer is never sent: the request is answered with
//     an error. When the handler's context ends (Cancel of the turn, the agent withdrawing
//     the request with $/cancel_request, the connection or session ending) the answer is
//     "cancelled", whatever the handler returns, as the schema requires.
//   - [Conn.Cancel] sends session/cancel, then answers the session's pending permissions
//     "cancelled". "Cancelled" alone does not stop a turn (below): a user who refuses where
//     no reject option is offered is answered with Cancel. A Prompt whose context ends
//     cancels its turn the same way (and withdraws the request): a turn nobody waits for
//     must not go on running tools.
//   - The agent runs in a process group of its own, killed as a whole once the agent has
//     exited, so nothing it started (its Claude CLI, MCP servers) outlives it. Close closes
//     its stdin and kills it after CloseGrace (5 s) if it stays; an agent that closes its
//     stdout but stays is killed after the same grace. Its stderr is logged at debug level
//     and its last 8 KiB kept for the ExitError.
//
// # The protocol, as relied on
//
// Checked against the published schema (schema/v1/schema.json of @agentclientprotocol/sdk
// 2.4.0, the SDK claude-agent-acp 0.101.0 ships; the same types as docs.rs
// agent-client-protocol-schema):
//
//   - Client → agent: initialize {protocolVersion, clientCapabilities {fs {readTextFile,
//     writeTextFile}, terminal}, clientInfo {name, title?, version}} → {protocolVersion,
//     agentCapabilities {loadSession, promptCapabilities {image, audio, embeddedContext},
//     mcpCapabilities {http, sse}, sessionCapabilities {list?, resume?, close?, delete?,
//     additionalDirectories?: each an object when offered}}, authMethods, agentInfo?};
//     authenticate {methodId}; session/new {cwd (absolute), mcpServers (stdio: name,
//     command, args, env [{name, value}]; http/sse: type, name, url, headers)} →
//     {sessionId, modes? {currentModeId, availableModes [{id, name, description?}]},
//     configOptions?}; session/load and session/resume {sessionId, cwd, mcpServers} →
//     {modes?, configOptions?}; session/list {cwd?, cursor?} → {sessions [{sessionId, cwd,
//     title?, updatedAt?}], nextCursor?}; session/close {sessionId} → {}; session/prompt
//     {sessionId, prompt [ContentBlock]} → {stopReason: end_turn, max_tokens,
//     max_turn_requests, refusal, cancelled}; session/set_mode {sessionId, modeId} → {};
//     session/set_config_option {sessionId, configId, value (or type "boolean" and a
//     boolean value)} → {configOptions}. Notification: session/cancel {sessionId}.
//   - Agent → client: session/update {sessionId, update} with update.sessionUpdate one of
//     user_message_chunk, agent_message_chunk, agent_thought_chunk ({content, messageId?}),
//     tool_call ({toolCallId, title, kind, status, content, locations, rawInput,
//     rawOutput}), tool_call_update (the same, all but toolCallId optional, lists replacing
//     the call's), plan ({entries [{content, priority, status}]}, the whole plan each
//     time), available_commands_update ({availableCommands [{name, description, input?
//     {hint}}]}), current_mode_update ({currentModeId}), config_option_update
//     ({configOptions}), session_info_update ({title?, updatedAt?}), usage_update ({used,
//     size, cost? {amount, currency}}), and in 2.4.0's schema also notice,
//     compaction_update and compaction_summary_chunk (kept raw here). Tool call content is
//     {type: content, content}, {type: diff, path, oldText (null: a new file), newText}
//     or {type: terminal, terminalId}. Requests: session/request_permission {sessionId,
//     toolCall (a tool_call_update), options [{optionId, name, kind: allow_once,
//     allow_always, reject_once, reject_always}]} → {outcome: {outcome: "selected",
//     optionId} or {outcome: "cancelled"}}; fs/read_text_file {sessionId, path, line?,
//     limit?} → {content}; fs/write_text_file {sessionId, path, content} → {};
//     terminal/create {sessionId, command, args, env, cwd?, outputByteLimit?} →
//     {terminalId}; terminal/output → {output, truncated, exitStatus? {exitCode, signal}};
//     terminal/wait_for_exit → {exitCode, signal}; terminal/kill, terminal/release → {}.
//   - Either way: $/cancel_request {requestId} withdraws a request; the error code for a
//     withdrawn request is -32800, for a missing resource (session) -32002, for
//     authentication required -32000. Unknown fields are ignored (the schema marks most
//     as "default on error"); request ids are numbers, strings or null.
//
// # claude-agent-acp 0.101.0, as observed
//
// Run by the tests (claude_test.go) on the Claude CLI 2.1.332 and 2.1.197 against the API
// stand-in (e2e/fakeapi), in an isolated CLI environment (e2e/clienv);
// testdata/claude-agent-acp-0.101.0.jsonl holds one message of each kind it sent.
//
//   - It is a node script (#!/usr/bin/env node; its package asks for node 22, 0.101.0 runs
//     on 20). It runs the Claude CLI named by CLAUDE_CODE_EXECUTABLE, else the one its SDK
//     (@anthropic-ai/claude-agent-sdk 0.3.318) ships as an optional platform package (CLI
//     2.1.318, 320 MiB; scripts/install-acp-agent leaves it out and the tests name the CLI
//     under test). The CLI gets the agent's environment: ANTHROPIC_BASE_URL and
//     ANTHROPIC_API_KEY point it at the stand-in, CLAUDE_CONFIG_DIR holds its conversations
//     (its own session index reads it too), HOME and the XDG dirs keep the rest in the
//     test's tree. It writes its progress to stderr ("[session/create] … phase=…"), exits 0
//     within a tenth of a second when its stdin closes, and numbers its requests from 0.
//   - initialize answers {"protocolVersion":1,"agentCapabilities":{"_meta":{"claudeCode":
//     {"promptQueueing":true},"authStatus":{}},"promptCapabilities":{"image":true,
//     "embeddedContext":true},"mcpCapabilities":{"http":true,"sse":true},"auth":{"logout":
//     {}},"providers":{},"loadSession":true,"sessionCapabilities":{"additionalDirectories":
//     {},"close":{},"delete":{},"fork":{},"list":{},"resume":{},"systemPrompt":{"mode":
//     {"override":{}}}}},"agentInfo":{"name":"@agentclientprotocol/claude-agent-acp",
//     "title":"Claude Agent","version":"0.101.0"},"authMethods":[],"_meta":{"steering":
//     {"supported":true}}}, then sends the notification _auth/status_update {authStatus
//     {kind: "api_key", label, detail: "ANTHROPIC_API_KEY"}} ("none" without a key). A
//     client asking for version 2 would get the draft v2; we ask for 1.
//   - session/new answers {sessionId (a UUID), modes {currentModeId: "auto",
//     availableModes: default "Manual", acceptEdits, plan, auto}, configOptions: mode,
//     model (default, opus, fable, sonnet, haiku), effort, fast, ultracode, each a select
//     with category}. The session starts in "auto" (Claude decides; nothing is asked)
//     unless settings.json has permissions.defaultMode: a client that wants the user asked
//     sets the mode right after session/new. set_mode answers {} after a
//     config_option_update; set_config_option of "mode" sends current_mode_update and
//     answers the whole configOptions.
//   - A turn: available_commands_update (44 commands; input {hint} or null) at the first
//     prompt, usage_update {used, size: 1000000, cost, _meta {"_claude/model"}},
//     agent_thought_chunk and agent_message_chunk {content {type: text}, messageId: the
//     API's message id}, one chunk per streamed delta; then {stopReason, usage
//     {inputTokens, outputTokens, cachedReadTokens, cachedWriteTokens, totalTokens}, _meta
//     {quota}}. A tool call: tool_call {toolCallId: the API's tool_use id, name, status
//     pending, title "Preparing file…"/"Edit"/"Read File", kind (edit, read, other),
//     rawInput {}, content [], _meta {claudeCode {toolName}}} while its input streams;
//     tool_call_update with rawInput, title ("Write new.txt", "Edit notes.txt"), content
//     [diff] and locations; tool_call_update with _meta.claudeCode.toolResponse; then
//     status completed or failed with rawOutput. session_info_update {title, updatedAt}
//     once the session has a title. TaskCreate (and, by its code, TodoWrite) becomes plan
//     {entries [{content, status, priority: "medium"}]}.
//   - session/request_permission came in mode "default" (in "auto" the same Write ran
//     unasked; acceptEdits says it accepts edits): {toolCall {toolCallId, name, status: pending, rawInput, title, kind,
//     content [diff], locations}, options [{"optionId":"allow-once","name":"Yes","kind":
//     "allow_once"}, {"optionId":"allow-with-updates","name":"Yes, allow all edits during
//     this session","kind":"allow_always"}, {"optionId":"reject","name":"No","kind":
//     "reject_once"}], sessionId}. A refusal fails the tool call ("User refused permission
//     to run tool") and the turn goes on to end_turn; so does the outcome "cancelled" on
//     its own. session/cancel while a permission waits makes the agent withdraw it with
//     $/cancel_request and end the turn "cancelled"; while streaming, the same.
//   - It makes no fs/* or terminal/* request, even with fs and terminal advertised: its
//     tools (Read, Write, Edit, Bash) read and write the disk themselves, and show
//     commands only through _meta terminal_info to clients declaring
//     _meta.terminal_output. An edit reaches the client as the tool call's diff, asked
//     before (mode default) or not, and as the file on disk after.
//   - So an edit reviewed per hunk cannot become a proposal written through
//     fs/write_text_file: none comes. claude.nvim allows the edit whole (allow_once) and,
//     once its tool call completed, gives the file the text the user kept, if the file
//     still holds what the agent proposed (else it is left and the transcript says so);
//     the agent hears of it ahead of the next prompt, as of a revert (acpchat/keep.go).
//     The other ways lose something: refusing the edit and writing the kept text
//     ourselves tells the agent its edit failed, so it redoes or abandons it; refusing
//     it to ask for a smaller one loses the user's decision; and ACP has no answer that
//     changes a tool's input. The ledger's turn holds the file as the user left it.
//   - session/list answers {sessions [{sessionId, cwd, title, updatedAt}]}. session/load
//     replays the conversation (user_message_chunk with a UUID messageId, the thinking,
//     the answers, tool_call with its full rawInput and tool_call_update, plan) before it
//     answers {sessionId, modes, configOptions}; session/resume answers the same without a
//     replay and the next prompt carries the conversation. session/close answers {}.
package acp
