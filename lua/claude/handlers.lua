-- The one way in from Go: every function the Go host calls in Lua (through
-- nvimapi's ExecLua strings and its autocmd eval expressions) is here,
-- named for what it does, verb first. (The one way out is host.lua.)
--
-- One convention for all: arguments are positional, as nvimapi passes
-- them, the thing acted on first (a directory, an id, a path, a buffer),
-- optional ones last and nil when absent; a handler returns one value (a
-- table Go decodes into a struct) or nothing. Each requires its module
-- when called, so Go's first call loads only what it needs; this module
-- sits on the top floor because it calls into every floor below.
local M = {}

-- The terminal bridge's server and its clients.

--- An asynchronous start finished (nvimapi.Editor.StartFinished).
---@param result table { info } or { error, version }
function M.finish_start(result)
  local info = require("claude.host").finish_start(result)
  if info then
    require("claude.server").started(info)
  end
end

--- A CLI finished connecting or went away (nvimapi.Editor.ClientChanged).
---@param info table { connected, clients, session, pid, name, version }
function M.update_client(info)
  local session = (info.session or 0) > 0 and info.session or 1
  require("claude.sessions").set_clients(session, info.clients or 0)
  require("claude.state")._client(info)
end

--- A remote's state changed (nvimapi.Editor.RemoteChanged).
---@param state table { name, state, error, session, roots, pid, port, lockfile, clients }
function M.update_remote(state)
  require("claude.remote").update(state)
end

--- Something the user must know about a remote (nvimapi.Editor.RemoteMessage).
function M.remote_message(msg)
  vim.notify("claude.nvim: " .. msg, vim.log.levels.WARN)
end

-- The MCP tools' reads and writes (nvimapi/tools.go, current.go,
-- selection.go).

--- openFile: { path, preview, start_text, end_text, select_to_end, make_frontmost }.
function M.open_file(args)
  return require("claude.tools").open_file(args)
end

--- The diagnostics of path (every file's when nil).
function M.read_diagnostics(path)
  return require("claude.tools").diagnostics(path)
end

--- Reloads what changed on disk, then reads path's diagnostics.
function M.refresh_and_diagnose(path)
  return require("claude.tools").refresh_and_diagnose(path)
end

--- checkDocumentDirty's answer for path.
function M.read_document_state(path)
  return require("claude.tools").document_state(path)
end

--- saveDocument: writes path's buffer.
function M.save_document(path)
  return require("claude.tools").save(path)
end

--- readFile: path's unsaved text, or nil when its buffer is saved or absent.
function M.read_unsaved_text(path, limit)
  return require("claude.tools").unsaved_text(path, limit)
end

--- The text and range of a selection (selection.read's arguments).
function M.read_selection(buf, kind, first, last, start, finish, to_eol)
  return require("claude.selection").read(buf, kind, first, last, start, finish, to_eol)
end

--- Whether buf holds a file (autocmd eval expressions: cheap, no RPC).
function M.is_file_buf(buf)
  return require("claude.buffers").is_file_buf(buf)
end

-- The generation page: what changed since Go last asked
-- (nvimapi/generation.go).

--- Maps the page Go made at path; { ok, why }.
function M.map_generation_page(path)
  return require("claude.generation").map(path)
end

--- The current window's state and 'selection' (getCurrentSelection reads
--- it every time: the cursor moves without an event; nvimapi/current.go).
function M.read_window_state()
  return { ev = require("claude.selection").current(), selection = vim.o.selection }
end

--- The open editors and file buffers, and the counters.
function M.read_buffers()
  return require("claude.generation").buffers()
end

--- The workspace folders and the counters.
function M.read_folders()
  return require("claude.generation").folders()
end

-- The diff view (nvimapi/diff.go).

--- Takes the next piece of a large proposal id, before open_diff.
function M.stage_diff(id, lines)
  return require("claude.diff.large").stage(id, lines)
end

--- Shows Claude's proposal id (openDiff).
function M.open_diff(id, spec)
  return require("claude.diff").open(id, spec)
end

--- Closes proposal id (the CLI closed it).
function M.close_diff(id)
  return require("claude.diff").close(id)
end

--- Closes proposal id as close_diff, answering before its windows and
--- buffers are torn down (on the next turn of the event loop).
function M.close_diff_later(id)
  return require("claude.diff").close(id, nil, true)
end

--- Closes every proposal of session (all without one); how many.
function M.close_diffs(session)
  return require("claude.diff").close_all(session)
end

--- Shows the model's code id (executeCode); { notebook, connection }.
function M.propose_code(id, lines)
  return require("claude.code").propose(id, lines)
end

--- Closes code proposal id unanswered (the CLI gave the call up).
function M.close_code(id)
  return require("claude.code").close(id)
end

-- The language-server tools (nvimapi/lsp.go, lsp_edits.go).

--- Asks the language servers question id; the answer now, or nil and
--- later through host.answer_lsp.
function M.ask_lsp(id, question, timeout_ms)
  return require("claude.lsp").ask(id, question, timeout_ms)
end

--- Drops question id: the Go host stopped waiting.
function M.cancel_lsp(id)
  require("claude.lsp").cancel(id)
end

--- Ends the review of a rename: writes its files once every one was
--- accepted (why nil), or tells the user why nothing was written.
function M.finish_edits(title, files, why)
  return require("claude.lsp.apply").finish(title, files, why)
end

-- The attention list (nvimapi/attention.go).

--- Takes the sessions whose state changed (attention/board.go's Session).
function M.update_attention(sessions)
  require("claude.attention").update(sessions)
  require("claude.attention.view").watch()
end

-- The chat (nvimapi/chat.go).

--- Renders a batch of dir's chat events.
function M.show_chat_events(dir, items)
  require("claude.chat").show_events(dir, items)
end

--- How recording the user's trust in dir's folder went ("" when it is).
function M.chat_trusted(dir, err)
  require("claude.chat.trust").recorded(dir, err)
end

--- Opens the :Claude model picker on the CLI's model list.
function M.show_models(dir, models, running, err)
  require("claude.chat.models").show(dir, models, running, err)
end

-- The change ledger (nvimapi/changes.go).

--- The answer to a :Claude changes request (host.request_changes).
function M.changes_reply(op, cwd, result, err)
  require("claude.changes").reply(op, cwd, result, err)
end

--- A workspace's unreviewed lines, for the signs.
function M.mark_changes(marks)
  require("claude.changes.signs").set(marks)
end

--- The ledger of root could not record a turn (reason), or records again ("").
function M.changes_trouble(root, reason)
  require("claude.changes").trouble(root, reason)
end

--- A list of stored conversations, or a preview of one, for the history
--- browser (:ClaudeChat resume; nvimapi.Editor.ChatHistory).
function M.show_history(dir, reply)
  require("claude.chat.history").show(dir, reply)
end

return M
