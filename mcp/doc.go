// Package mcp is the editor side of the Claude Code IDE protocol: a
// WebSocket server on the loopback interface that speaks MCP (JSON-RPC 2.0,
// one message per text frame) to the Claude Code CLI.
//
// The package knows nothing about Neovim. It serves a list of [Tool]s; the
// IDE tools the CLI calls (openDiff, close_tab, getDiagnostics, …) come from
// [IDETools], which drives a small [Editor] interface implemented elsewhere.
// Editor events go the other way through [Server.SendSelection],
// [Server.Mention] and [Server.Notify], which never block the caller.
//
// Connection model: one reader and one writer goroutine per WebSocket; only
// the writer writes. Every tools/call runs in its own goroutine with a
// context that ends when the client cancels the call
// (notifications/cancelled) or disconnects, or the server closes; a call
// whose context ended is never answered. So an openDiff waiting an hour for
// the user delays nothing else.
//
// Decisions worth knowing:
//
//   - Before the upgrade: a non-loopback Host or any Origin header is
//     refused with 403, a missing or wrong token with 401, in that order.
//   - Every answer but the 101 carries Connection: close, so a refused
//     request never keeps its connection. [Limits] bound the rest: a
//     silent or trickling connection is closed after Limits.Handshake; at
//     most Limits.PendingConns wait for their upgrade, and past that the
//     oldest idle one is closed, so the CLI gets in while another process
//     holds the rest; at most Limits.Clients are upgraded (503 past it).
//   - Refusals are logged one by one up to a burst per interval, then
//     counted in one summary line per interval.
//   - Clients are served leniently: requests before initialize are answered
//     (but a client must send initialize within Limits.Initialize, or it is
//     closed with 1008), a client without the "mcp" subprotocol is
//     accepted, unknown tool arguments are ignored (as the VS Code
//     extension does). The schema's required list and property types are
//     enforced (-32602).
//   - At most Limits.CallsInFlight tools/call per connection run or wait to
//     be written; past that a call is answered [CodeServerBusy] at once, so
//     the reader stays free for close_tab and cancellations. The reader
//     stops only while the client does not read our answers. When a
//     connection that hit the limit (or read a frame of 8 MiB or more)
//     ends, the heap is handed back to the OS.
//   - Binary frames are answered with -32600 (MCP over WebSocket is text).
//     A text frame that is not UTF-8 closes the connection with 1007.
//     A JSON-RPC batch is one -32600 error: MCP dropped batching.
//   - A client is "ready" when it has sent ide_connected (the CLI has
//     finished starting): [Config.OnClientReady] fires and its pid is
//     known. Selections and [Server.Notify] reach a client from
//     notifications/initialized on; at-mentions once it listens
//     ([Config.ListenDelay] after its tools/list answer, or a second after
//     it initialized if it never asks), and those sent while no client
//     listened are queued for the first that does. A selection sent before
//     the client listened goes again then.
//   - Per client, the newest unsent selection replaces older ones, and at
//     most 256 other notifications wait; past that the oldest is dropped
//     and logged. Responses are never dropped.
//   - With [Config.Workspace] set, the WebSocket variant's direct methods
//     (readFile, writeFile, listFiles, getWorkspaceInfo, getOpenFiles,
//     getCurrentFile; direct.go) are answered beside tools/call, checked
//     and run like tools but answered with their value itself. The CLI
//     never calls them.
//   - Frames up to [MaxMessageSize] are read; a larger one closes that
//     connection with 1009. permessage-deflate is off.
//
// What the Claude Code CLI does, which this package relies on (seen with
// 2.1.x; testdata/handshake.txtar replays its frames):
//
//   - It dials ws://127.0.0.1:<port> offering the subprotocol "mcp", with
//     the lock file's authToken in X-Claude-Code-Ide-Authorization and no
//     Origin header.
//   - On one connection it sends, in this order: initialize (with its
//     protocolVersion and clientInfo "claude-code"),
//     notifications/initialized, ide_connected {"pid": …}, tools/list,
//     then tools/call as the model uses the tools.
//   - It installs its selection_changed and at_mentioned handlers only once
//     the tools/list answer has reached its UI state, and silently drops
//     what comes earlier (see [DefaultListenDelay]).
//   - It leaves with close code 1000, and reconnects after a connection
//     we closed.
//
// What changed from 2.1.197 to 2.1.332, seen through a proxy between the
// real CLIs and this server (issue 21):
//
//   - initialize: the same protocolVersion (2025-11-25) and clientInfo
//     (name, title, version, description, websiteUrl); capabilities now
//     carry roots {"listChanged": true} and extensions
//     {"io.modelcontextprotocol/tasks": {}}, which we need not answer.
//   - Notifications, the header (X-Claude-Code-Ide-Authorization, the "mcp"
//     subprotocol, User-Agent "claude-code/<version> (cli)") and the lock
//     file it reads are unchanged; tools/call still carries
//     _meta.progressToken.
//   - Around an Edit: 2.1.197 calls getDiagnostics {} before openDiff (its
//     baseline); 2.1.332 does not, and after the edit calls getDiagnostics
//     {uri} then {} twice. It still reports new diagnostics to the model.
//     Both call close_tab twice for the same tab after FILE_SAVED.
//   - A new file accepted with FILE_SAVED: 2.1.197 wrote our text one
//     trailing newline short, 2.1.332 writes it as it is; savedText follows
//     the client's version ([ClientVersion]).
//   - Its MCP tools reach the model deferred: named in the system text and
//     loaded with ToolSearch (mcp__ide__getDiagnostics then comes with
//     defer_loading). A call works either way, and in default mode the CLI
//     asks the user before it, as 2.1.197 did.
//   - Its default permission mode is auto, which writes edits without
//     asking, so openDiff is never called: the plugin starts it with
//     --permission-mode (lua/claude/permission.lua).
package mcp
