// Package acpchat runs an Agent Client Protocol agent (package acp) as a chat backend: it
// implements chatctl.Backend over acp.Agent, so the chat controller and the Lua side show
// any ACP agent as they show the Claude CLI, from the same chat.Events.
//
// What maps to what:
//
//   - Start runs the agent; initialize, session/new (or session/resume, else session/load,
//     for a conversation to continue) and session/set_mode to the user's mode run in the
//     background (claude-agent-acp starts in "auto", which asks nothing: the mode is set
//     to "default" unless the user chose another). The first turn waits for them.
//   - session/update: agent_message_chunk and agent_thought_chunk are TextDelta and
//     ThinkingDelta (merged per batch, queue.go); tool_call and tool_call_update fold into
//     one call, shown as a ToolUse once its input is known and a ToolResult (its text, its
//     diffs as lines out and in) once it completed or failed; plan is the TaskList;
//     available_commands_update the / completion (chat.Commands); current_mode_update a
//     Status with the mode; config options are the model and effort; usage_update is what
//     ContextUsage answers; a kind not understood is a Notice, never lost silently.
//   - session/request_permission is the chat's own PermissionRequest: Allow answers
//     allow_once (allow_always for the "always" choice, the one suggestion offered), Deny
//     reject_once, DenyAndStop session/cancel first and then "cancelled" (a refusal alone
//     does not stop an ACP turn, and the agent must not act on it before the cancel).
//     Nothing is allowed without the user. A changed input is refused: ACP cannot
//     change a tool's input. An edit (Edit, MultiEdit, Write) opens in the chat's diff
//     review; one accepted in part is allowed whole and its file then given what the
//     user kept, the agent told with the next prompt (AllowKeeping, keep.go).
//   - SendAs is session/prompt; a message sent while a turn runs is queued here (ACP has
//     one prompt at a time) and can be withdrawn until its turn starts. Interrupt is
//     session/cancel. SetPermissionMode is session/set_mode; SetModel and SetEffort set
//     the config option of category model and thought_level.
//   - ListConversations is session/list (every page), for the history browser of the
//     agent's chat (chatctl/agent_history.go); an agent that does not offer it gets a
//     line saying so. Continuing one is Options.Resume.
//   - What ACP v1 has no request for (questions, plan approval, background tasks, the
//     CLI's file checkpoints and conversation rewind, a note without a turn) is not
//     implemented: chatctl's optional interfaces say so in the transcript.
//   - Options.Turns sees each turn start before its prompt goes and end at its answer:
//     chatctl hands them to the hook bus as UserPromptSubmit and Stop of origin chat:DIR,
//     so the change ledger snapshots the workspace around an ACP turn as around Claude's
//     (claude-agent-acp's tools write the disk themselves; no fs/* request comes).
//   - Options.Tools sees a tool asked about before the user is (chatctl hands it to the
//     hook bus as PreToolUse): outside git the ledger records the files the tools named,
//     and a generic ACP agent's only this way: an edit it runs unasked (a mode other than
//     "default") reaches the ledger outside git only through its turn's snapshots, which
//     there hold only files named before. Options.SessionMeta goes with session/new, load
//     and resume: chatctl puts in it the PreToolUse hook's --settings file as
//     claudeCode.options.settings, which claude-agent-acp 0.101.0 hands to the Claude it
//     runs (read in its code; other agents ignore _meta), with the hook's origin in the
//     agent's environment, which that Claude inherits: its tools reach the ledger before
//     they run, asked or not (e2e TestAnACPAgentsUnaskedEditOutsideGitIsInTheLedger).
//   - Options.MCPServers (the editor's tools, chatctl/agent_mcp.go) go to session/new,
//     resume and load, an http or sse one only where the agent's mcpCapabilities say so.
//   - Close closes the session first (session/close, where sessionCapabilities.close is
//     offered) and lets the agent's child processes exit (Linux; at most 3 s and half
//     the caller's time) before the agent's stdin closes. claude-agent-acp 0.101.0 ends
//     its Claude's stdin on session/close, and that Claude writes the turn's last messages
//     as it ends, tens of milliseconds after the answer's text; an agent whose stdin
//     closes exits at once and SIGTERMs it (its SDK's exit handler), and a conversation
//     left right after an answer was lost (acpchat
//     TestAChatClosedAsSoonAsTheAnswerShowsKeepsTheConversation).
//   - The agent's exit is the chat's Exited (MidTurn when a turn ran), after a Notice
//     with its status and the end of its stderr; its pending permissions are withdrawn.
package acpchat
