// Package chatctl is the chat controller: it runs the native chats (:ClaudeChat) of one
// Neovim, between the CLI's stream protocol (package chat, which knows no editor) and the
// editor, which it reaches only through View (nvimapi.Editor implements it). It turns the
// CLI's events into transcript Items, keeps each workspace's conversation to resume, reviews
// proposed edits in the diff view and writes the user's answers back. The host registers
// Controller's methods as its ClaudeHostChat* handlers and wires nothing else.
//
// # Words
//
// "Session" once meant four things. Each has its own name now, in Go and in Lua:
//
//   - A bridge is one MCP WebSocket server on 127.0.0.1 and the lock file that advertises
//     it, which a CLI running in a terminal connects to. Go creates it (host, on
//     ClaudeHostStart) and ends it (ClaudeHostStop, or the host exiting; the lock file goes
//     first). Lua names it, by the number of the terminal it serves; 1 is the first, the
//     one :Claude server start starts.
//   - A terminal is the editor's view of one interactive CLI: a terminal buffer, its job
//     and the tab page it belongs to. Lua creates, numbers and ends it (its terminal
//     registry); Go knows only its number, as its bridge's.
//   - A chat is one workspace directory's native chat: the transcript and input buffers
//     (Lua, made by :ClaudeChat) and the controller's state for it (Go, made by the first
//     Controller.Start and kept while the host runs). The directory names it.
//   - A chat process (a Backend: chat.Process, or an ACP agent's acpchat.Backend) is one
//     running `claude -p` in stream-json mode, or one ACP agent, at most one per chat. Go creates it when Lua asks (Controller.Start) and ends it on
//     :Claude chat end, when :ClaudeChat new or resume replaces it, or when the host exits;
//     it may also end by itself, and the chat's next turn starts another.
//   - A conversation (chat.Conversation) is what the CLI stores of a chat's turns, one file
//     under its config directory. The CLI creates and names it (its id is what the CLI
//     calls the session id, session_id on the wire). Go lists it, reads it back for the
//     transcript, and resumes the chat's last one when it starts a chat process again
//     (--resume); Lua's history browser (history.go) chooses one to resume, and renames
//     or deletes one when the user asks it to.
//
// Names on the wire to the CLI and to Lua (session_id, "session" fields, the
// ClaudeHostChatSessions handler) stay as they are.
package chatctl
