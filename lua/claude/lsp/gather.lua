-- The servers' replies to one question, made into its answer (lsp/init.lua
-- sends, this gathers). Two questions need a second request: the call
-- hierarchy (prepare, then the calls) and a hover that came back empty
-- (the signature help instead); it goes to the same server, within what
-- is left of the question's time.
local M = {}

local client = require("claude.lsp.client")
local convert = require("claude.lsp.convert")
local target = require("claude.lsp.target")

local LOCATIONS = { definition = true, type_definition = true, implementation = true, declaration = true, references = true }

local function encoding(c)
  return c.offset_encoding or "utf-16"
end

local FILE_OPS = { create = "creates", rename = "renames", delete = "deletes" }

-- A rename's WorkspaceEdit as the files it changes: { path, text,
-- outside, encoding, edits }; or nil and why it cannot be shown.
local function edit_files(edit, enc, folders)
  if type(edit) ~= "table" then
    return {}
  end
  local files, order = {}, {}
  local function add(uri, edits)
    local path = vim.uri_to_fname(uri)
    local f = files[path]
    if not f then
      f = { path = path, encoding = enc, edits = {}, outside = false, text = "" }
      files[path] = f
      table.insert(order, f)
    end
    for _, e in ipairs(edits or {}) do
      local r = e.range
      table.insert(f.edits, { sl = r.start.line, sc = r.start.character, el = r["end"].line, ec = r["end"].character, text = e.newText or "" })
    end
  end
  if edit.documentChanges then
    for _, change in ipairs(edit.documentChanges) do
      if change.kind then
        return nil, string.format("Not proposed: the rename also %s files, which the diff review cannot show; nothing was opened.", FILE_OPS[change.kind] or change.kind)
      end
      add(change.textDocument.uri, change.edits)
    end
  else
    for uri, edits in pairs(edit.changes or {}) do
      add(uri, edits)
    end
  end
  for _, f in ipairs(order) do
    if target.inside(f.path, folders) then
      f.text = require("claude.buffers").current_text(f.path)
      if not f.text then
        return nil, string.format("Not proposed: %s, which the rename changes, cannot be read; nothing was opened.", f.path)
      end
    else
      f.outside = true
    end
  end
  return order
end

-- A second request to one server, then finish.
local function again(c, method, params, t, timeout_ms, pending, id, then_)
  if pending[id] == nil then
    return -- cancelled
  end
  local left = math.max((t.deadline or 0) - vim.uv.now(), 1)
  pending[id] = client.ask({ c }, method, function()
    return params
  end, t.buf, math.min(left, timeout_ms), then_)
end

local function first_result(answered)
  for _, r in ipairs(answered) do
    if r.result ~= nil and r.result ~= vim.NIL and not (type(r.result) == "table" and vim.tbl_isempty(r.result)) then
      return r
    end
  end
  return nil
end

--- Makes ans from the answered replies to q and calls finish(ans).
function M.answer(q, t, pos, answered, ans, timeout_ms, pending, id, finish)
  local read = target.line_reader(t.folders)
  if LOCATIONS[q.op] then
    local found, seen = {}, {}
    for _, r in ipairs(answered) do
      convert.locations(r.result, encoding(r.client), read, found, seen)
    end
    ans.locations, ans.total = convert.finish_locations(found, q.limit, read)
  elseif q.op == "hover" then
    local texts = {}
    for _, r in ipairs(answered) do
      local text = type(r.result) == "table" and convert.hover_text(r.result.contents) or ""
      if vim.trim(text) ~= "" then
        table.insert(texts, text)
      end
    end
    ans.hover = table.concat(texts, "\n\n")
    local r = answered[1]
    if ans.hover == "" and r and client.supports(r.client, "textDocument/signatureHelp", t.buf) then
      local params = { textDocument = { uri = vim.uri_from_bufnr(t.buf) }, position = { line = pos.row, character = target.char_index(pos.text, pos.byte, encoding(r.client)) } }
      return again(r.client, "textDocument/signatureHelp", params, t, timeout_ms, pending, id, function(replies)
        local s = replies[1]
        ans.hover = (s and not s.err and not s.timed_out) and convert.signature_text(s.result) or ""
        finish(ans)
      end)
    end
  elseif q.op == "document_symbols" then
    local r = first_result(answered)
    ans.symbols, ans.total = {}, 0
    if r then
      ans.symbols, ans.total = convert.document_symbols(r.result, t.path, encoding(r.client), read, q.limit)
    end
  elseif q.op == "workspace_symbols" then
    local counted = { n = 0 }
    ans.symbols = {}
    for _, r in ipairs(answered) do
      convert.workspace_symbols(r.result, encoding(r.client), read, ans.symbols, q.limit, counted)
    end
    ans.total = counted.n
  elseif q.op == "code_actions" then
    ans.actions = {}
    for _, r in ipairs(answered) do
      convert.actions(r.result, ans.actions)
    end
  elseif q.op == "incoming_calls" or q.op == "outgoing_calls" then
    local r = first_result(answered)
    if not r then
      ans.calls, ans.total = {}, 0
    else
      local incoming = q.op == "incoming_calls"
      local method = incoming and "callHierarchy/incomingCalls" or "callHierarchy/outgoingCalls"
      local item = r.result[1]
      return again(r.client, method, { item = item }, t, timeout_ms, pending, id, function(replies)
        local s = replies[1]
        ans.calls, ans.total = {}, 0
        if s and s.timed_out then
          table.insert(ans.failures, string.format("%s gave no answer to %s in time", client.name(r.client), method))
        elseif s and s.err then
          table.insert(ans.failures, string.format("%s answered %s with an error: %s", client.name(r.client), method, s.err.message or ""))
        elseif s then
          ans.calls, ans.total = convert.calls(s.result, incoming, item.uri, encoding(r.client), read, q.limit)
        end
        finish(ans)
      end)
    end
  elseif q.op == "rename" then
    local r = answered[1]
    if r then
      local files, why = edit_files(r.result, encoding(r.client), t.folders)
      ans.files, ans.refused = files or {}, why
    end
  end
  finish(ans)
end

return M
