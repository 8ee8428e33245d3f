// Package relay lets a Claude Code CLI on another machine or in a container
// use the editor here (issue 41).
//
// Why a relay: the CLI (read in 2.1.197's and 2.1.332's code) looks for
// lock files only in its own config dir (CLAUDE_CONFIG_DIR or ~/.claude,
// then ide/), deletes every lock whose pid is not a live process in its own
// pid namespace (process.kill(pid, 0); pid 1 and below are never taken for
// dead), connects to the port on its own 127.0.0.1, and takes a lock whose
// workspaceFolders hold its cwd. An editor's lock written elsewhere is
// invisible or deleted. So `claude-nvim relay` (Run) runs next to the CLI,
// started by the host over any command that gives a stdio pipe (ssh HOST,
// docker exec -i C, kubectl exec -i …): it writes the lock with its own
// pid, listens on that side's loopback with a fresh token, and carries each
// accepted connection to the host over the pipe.
//
// The wire: frames of a 4-byte big-endian length, a 4-byte connection id, a
// kind byte and at most MaxPayload bytes. Connection 0 is the link: a hello
// each way first (the host's carries Proto, its version, the lock's folders
// and IDE name; the relay's its pid, port, lock path and token), or an
// error frame with the reason the relay refuses (a version mismatch says
// which version to install). Every other id is one TCP connection the relay
// accepted: open, then data frames carrying its bytes unchanged (the HTTP
// upgrade included), then close from either side. A malformed frame ends
// the link; nothing is resynchronised.
//
// Decisions:
//   - The relay checks each upgrade with mcp.VetUpgrade (loopback Host, no
//     Origin, the token, an upgrade) before anything crosses the pipe; the
//     host's mcp.Server, serving the Link as its listener, checks it again
//     and does everything else (WebSocket, MCP, limits), exactly as for a
//     local CLI.
//   - Bytes, not WebSocket messages, cross: the server's framing, ping and
//     size limits apply unchanged and the relay needs no MCP knowledge.
//   - One pipe for all connections: a connection whose reader stalls has
//     its stream closed once queueFrames frames wait, rather than stalling
//     the others; the host holds at most maxStreams relayed connections.
//   - Paths: Map maps remote prefixes to local directories both ways.
//     MapEditor wraps the editor the tools see: a path the remote names
//     outside the map, relative, or leading out of its local directory
//     through a symbolic link is refused (mcp.ErrInvalidParams); answers
//     name files in the remote's terms, and files outside the map are left
//     out of lists. The variant protocol's direct methods (readFile, …) are
//     not offered to a remote.
//   - The lock goes with the relay: at the pipe's end (the transport
//     closed), at SIGTERM or SIGHUP; a relay killed outright leaves a lock
//     whose pid is dead, which the CLI deletes.
//   - After a drop the host gives the next relay the last one's port and
//     token (HostHello.Port, Token; a token of lockfile.IsToken's form
//     only): the CLI, which retries the address it knew but never looks for
//     a new lock, comes back by itself (read with 2.1.332). The relay waits
//     up to reusePortWait for the old relay to let the port go, then takes
//     a fresh port and token.
//   - Hook events (Proto 2): the relay runs a hooks.Receiver there with a
//     --settings file beside its socket; each event crosses as one
//     kindHook frame (a Write's content left out past MaxPayload) and the
//     host's kindHookReply is what the hook prints (hookbridge.go). The
//     host maps the event's paths and drops those outside the map.
//   - A chat CLI there (Proto 3; :ClaudeChat remote=NAME, run by the host
//     through the remote's transport: chat.Remote) needs no lock and no
//     hooks file: its stream-json stdio carries the conversation, the
//     permission prompt (--permission-prompt-tool stdio) and the hooks
//     (registered with initialize). It does need the editor's tools, which
//     print mode takes only from --mcp-config. Relied on (2.1.332): a
//     server of type "http" in that file, connected before the first turn,
//     whose requests are plain POSTs with the configured headers. So the
//     relay writes that file (mcpconfig.go: 0600, in its 0700 directory,
//     beside the hook settings; the token in a file, never on a command
//     line there) naming its own port and path /mcp with the lock's token;
//     such a request, vetted as the host's endpoint vets (mcp.VetHTTP),
//     crosses as a connection whose open frame says "http", and the host
//     serves it (Link.HTTP) with an mcp.HTTPEndpoint of the remote's,
//     getDiagnostics on MapEditor and the language-server tools on
//     MapLanguageServers. Nothing more listens anywhere.
package relay
