-- The language-server tools' questions (nvimapi/lsp.go asks them through
-- handlers.lua): each is sent asynchronously to the servers attached to
-- its file, and answered to the Go host when they replied or the time is
-- up (host.answer_lsp). Nothing here waits on a server: the editor goes
-- on while they think, and a hung one costs the question its timeout.
local M = {}

local client = require("claude.lsp.client")
local gather = require("claude.lsp.gather")
local target = require("claude.lsp.target")

-- How long a file loaded for a question is given for its server to
-- attach (lspconfig and vim.lsp.enable attach at once, on FileType).
local ATTACH_WAIT_MS = 3000

local METHODS = {
  definition = "textDocument/definition",
  type_definition = "textDocument/typeDefinition",
  implementation = "textDocument/implementation",
  declaration = "textDocument/declaration",
  references = "textDocument/references",
  hover = "textDocument/hover",
  document_symbols = "textDocument/documentSymbol",
  workspace_symbols = "workspace/symbol",
  incoming_calls = "textDocument/prepareCallHierarchy",
  outgoing_calls = "textDocument/prepareCallHierarchy",
  code_actions = "textDocument/codeAction",
  rename = "textDocument/rename",
}

-- The questions under way, by the Go host's id: what cancels them.
local pending = {}

local function encoding(c)
  return c.offset_encoding or "utf-16"
end

local function names(clients)
  local out = {}
  for _, c in ipairs(clients) do
    table.insert(out, client.name(c))
  end
  return out
end

-- The failures among replies, one line each; the clients that answered.
local function sort_replies(replies, timeout_ms)
  local failures, answered = {}, {}
  for _, r in ipairs(replies) do
    local name = client.name(r.client)
    if r.timed_out then
      table.insert(failures, string.format("%s gave no answer within %g s", name, timeout_ms / 1000))
    elseif r.err then
      table.insert(failures, string.format("%s answered with an error: %s", name, r.err.message or vim.inspect(r.err)))
    else
      table.insert(answered, r)
    end
  end
  return failures, answered
end

local function position_params(c, t, pos)
  return {
    textDocument = { uri = vim.uri_from_bufnr(t.buf) },
    position = { line = pos.row, character = target.char_index(pos.text, pos.byte, encoding(c)) },
  }
end

-- The LSP diagnostics on rows a..b of buf, for a code action's context.
local function lsp_diagnostics(buf, a, b)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.lnum >= a and d.lnum <= b and d.user_data and d.user_data.lsp then
      table.insert(out, d.user_data.lsp)
    end
  end
  return out
end

-- The params of q's request for client c at t (pos: the position).
local function params_for(q, t, pos)
  return function(c)
    if q.op == "document_symbols" then
      return { textDocument = { uri = vim.uri_from_bufnr(t.buf) } }
    elseif q.op == "workspace_symbols" then
      return { query = q.query }
    end
    local p = position_params(c, t, pos)
    if q.op == "references" then
      p.context = { includeDeclaration = q.include_declaration == true }
    elseif q.op == "rename" then
      p.newName = q.new_name
    elseif q.op == "code_actions" then
      local last = math.max(q.end_line or 0, q.line) - 1
      local line = vim.api.nvim_buf_get_lines(t.buf, last, last + 1, false)[1] or ""
      p = {
        textDocument = p.textDocument,
        range = { start = p.position, ["end"] = { line = last, character = target.char_index(line, #line, encoding(c)) } },
        context = { diagnostics = lsp_diagnostics(t.buf, pos.row, last), triggerKind = 1 },
      }
    end
    return p
  end
end

-- Sends q to clients and answers through finish once gathered.
local function send(id, q, t, pos, clients, ans, timeout_ms, finish)
  local method = METHODS[q.op]
  if q.op == "rename" then
    clients = { clients[1] } -- one server's edit: two would clash
  end
  ans.servers = names(clients)
  pending[id] = client.ask(clients, method, params_for(q, t, pos), t.buf, timeout_ms, function(replies)
    local failures, answered = sort_replies(replies, timeout_ms)
    vim.list_extend(ans.failures, failures)
    gather.answer(q, t, pos, answered, ans, timeout_ms, pending, id, finish)
  end)
end

-- Finds the clients for q once t's are ready, then sends.
local function with_clients(id, q, t, pos, ans, timeout_ms, finish)
  local deadline = vim.uv.now() + timeout_ms
  t.deadline = deadline
  local attach_by = t.loaded_now and (vim.uv.now() + ATTACH_WAIT_MS) or 0
  client.when_ready(t.buf, deadline, attach_by, function(ready, starting)
    if pending[id] ~= "waiting" then
      return -- cancelled meanwhile
    end
    local method = METHODS[q.op]
    local able = {}
    for _, c in ipairs(ready) do
      if client.supports(c, method, t.buf) then
        table.insert(able, c)
      end
    end
    if #able == 0 then
      if #ready > 0 then
        ans.problem = string.format("%s (attached to %s) does not answer %s.", table.concat(names(ready), ", "), t.path, method)
      elseif #starting > 0 then
        ans.problem = string.format("%s is still starting for %s after %g s; ask again in a moment.", table.concat(starting, ", "), t.path, timeout_ms / 1000)
      else
        ans.problem = target.no_server(t.buf, t.path)
      end
      finish(ans)
      return
    end
    send(id, q, t, pos, able, ans, math.max(deadline - vim.uv.now(), 1), finish)
  end)
end

-- Workspace symbols from every running server (or those of q.path).
local function workspace_symbols(id, q, ans, timeout_ms, finish, folders)
  local clients = {}
  local stat = vim.uv.fs_stat(target.absolute(q.path))
  if stat and stat.type == "file" then
    local t, why = target.open(q.path, folders)
    if not t then
      ans.problem = why
      return finish(ans)
    end
    t.folders = folders
    return with_clients(id, q, t, nil, ans, timeout_ms, finish)
  end
  for _, c in ipairs(client.running()) do
    if c.initialized and client.supports(c, METHODS.workspace_symbols) then
      table.insert(clients, c)
    end
  end
  if #clients == 0 then
    ans.problem = "No language server that searches workspace symbols is running in Neovim; open a file of the language (or pass its path) so its server starts."
    return finish(ans)
  end
  send(id, q, { buf = 0, path = q.path, folders = folders, deadline = vim.uv.now() + timeout_ms }, nil, clients, ans, timeout_ms, finish)
end

--- Asks one question (nvimapi.Editor.AskLSP): q is { op, path, line,
--- column, symbol, end_line, query, new_name, include_declaration, limit }.
--- Returns the answer at once when no server needs asking; else nil, and
--- the answer goes to the Go host under id when it is ready.
---@param id integer
---@param q table
---@param timeout_ms integer
function M.ask(id, q, timeout_ms)
  local ans = { failures = {}, servers = {} }
  local answered_now
  local function finish(a)
    local was = pending[id]
    pending[id] = nil
    if was == nil then
      return -- cancelled
    end
    if answered_now == false then
      require("claude.host").answer_lsp(id, a)
    else
      answered_now = a
    end
  end
  pending[id] = "waiting"
  local folders = target.folders()
  q.limit = (q.limit and q.limit > 0) and q.limit or 50
  if not METHODS[q.op] then
    ans.problem = "unknown question " .. tostring(q.op)
    finish(ans)
  elseif q.op == "workspace_symbols" then
    workspace_symbols(id, q, ans, timeout_ms, finish, folders)
  else
    local t, why = target.open(q.path, folders)
    local pos
    if t and q.op ~= "document_symbols" then
      pos, why = target.position(t.buf, t.path, q)
    end
    if not t or (q.op ~= "document_symbols" and not pos) then
      ans.problem = why
      finish(ans)
    else
      if pos then
        ans.target = { path = t.path, line = pos.line, col = pos.col, text = pos.text }
        ans.symbol = pos.symbol
      else
        ans.target = { path = t.path, line = 1, col = 1, text = "" }
      end
      t.folders = folders
      with_clients(id, q, t, pos, ans, timeout_ms, finish)
    end
  end
  if answered_now then
    return answered_now
  end
  answered_now = false
  return nil
end

--- Drops question id (the Go host stopped waiting): requests still out
--- are cancelled, and no answer is sent.
function M.cancel(id)
  local p = pending[id]
  pending[id] = nil
  if type(p) == "function" then
    p()
  end
end

return M
