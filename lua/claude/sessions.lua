-- The terminal sessions: a session is one Claude CLI run for the user in
-- a terminal (ours, a snacks one, or one of terminal.provider's), bound to
-- a working directory, with a server of its own (server.lua; session 1's
-- is the server :Claude server start starts, the others start with their terminal
-- and stop with it). Lua creates, numbers and ends sessions; the Go host
-- only learns which one is current (where selections and mentions go).
--
-- A session belongs to the tab page it was opened in (t:claude_session).
-- The current session is the one whose terminal the cursor is in, else
-- the tab page's, else the one running in the directory a new one would
-- start in. This module keeps the records; terminal/ starts, shows and
-- ends them (and their servers).
local M = {}

-- id -> session: { id, cwd, buf (kept while hidden), job (while the CLI
-- runs), elsewhere (terminal.provider runs it), port, token, clients,
-- snacks (its snacks window), starting }
local sessions = {}

--- Session id's record, or nil.
function M.get(id)
  return sessions[id]
end

--- Records s under s.id (replacing an ended session of that id).
function M.add(s)
  sessions[s.id] = s
end

--- Forgets session id at once (its CLI never started, or it ended).
function M.forget(id)
  sessions[id] = nil
end

--- Whether any session was recorded (ended ones too, until forgotten).
function M.any()
  return next(sessions) ~= nil
end

--- Whether session s still has something: a CLI, a terminal, a provider's.
function M.alive(s)
  return s.starting or s.job ~= nil or s.elsewhere == true or (s.buf ~= nil and vim.api.nvim_buf_is_valid(s.buf))
end

--- Whether session s's CLI runs in a terminal of ours.
function M.cli_running(s)
  return s.job ~= nil and s.buf ~= nil and vim.api.nvim_buf_is_valid(s.buf)
end

--- Whether session id's CLI runs in a terminal of ours.
function M.running(id)
  return sessions[id] ~= nil and M.cli_running(sessions[id])
end

--- The live sessions, by id.
function M.live()
  local list = {}
  for _, s in pairs(sessions) do
    if M.alive(s) then
      table.insert(list, s)
    end
  end
  table.sort(list, function(a, b)
    return a.id < b.id
  end)
  return list
end

--- How many sessions run (cheap: no current-session lookup).
function M.count()
  return #M.live()
end

--- The directory a new CLI starts in (the cwd option): a function's
--- answer, the git repository of the current file ("git_root"), a
--- directory, or Neovim's working directory.
function M.new_cwd()
  local opt = require("claude.config").get().cwd
  local dir
  if type(opt) == "function" then
    local ok, got = pcall(opt)
    if not ok then
      require("claude.notify").error("the cwd function failed: " .. tostring(got) .. "; using " .. vim.fn.getcwd())
    end
    dir = ok and got or nil
  elseif opt == "git_root" then
    local file = vim.api.nvim_buf_get_name(0)
    local from = (file ~= "" and require("claude.buffers").is_file_buf(0)) and vim.fs.dirname(file) or vim.fn.getcwd()
    dir = vim.fs.root(from, ".git")
  elseif type(opt) == "string" then
    dir = vim.fn.expand(opt)
  end
  if type(dir) ~= "string" or vim.fn.isdirectory(dir) ~= 1 then
    return vim.fn.getcwd()
  end
  return vim.fs.normalize(vim.fn.fnamemodify(dir, ":p"))
end

--- The current session (see the top of this file), or nil.
function M.current()
  local here = vim.api.nvim_get_current_buf()
  for _, s in pairs(sessions) do
    if s.buf == here and M.alive(s) then
      return s
    end
  end
  local id = vim.t.claude_session
  if id and sessions[id] and M.alive(sessions[id]) then
    return sessions[id]
  end
  -- A tab page of no session: the one running where a new one would start
  -- (so a tab page with another cwd, a worktree say, gets its own).
  local list = M.live()
  local cwd = #list > 0 and M.new_cwd() or nil
  for _, s in ipairs(list) do
    if s.cwd == cwd then
      return s
    end
  end
  return nil
end

--- Whether the current session's CLI runs in a terminal of ours.
function M.current_running()
  local s = M.current()
  return s ~= nil and M.cli_running(s)
end

--- The id a new session in this tab page takes: the session it had (its
--- CLI exited), else 1 when free (the server :Claude server start runs), else the
--- next free one.
function M.new_id()
  local id = vim.t.claude_session
  if id and sessions[id] and not M.alive(sessions[id]) then
    return id
  end
  if not (sessions[1] and M.alive(sessions[1])) then
    return 1
  end
  id = 2
  while sessions[id] and M.alive(sessions[id]) do
    id = id + 1
  end
  return id
end

--- How many CLIs are connected to session s's server. The first session's
--- server runs without a terminal too (:Claude server start): state.lua counts its.
function M.clients_of(s)
  if not s or s.id == 1 then
    return require("claude.state").clients
  end
  return s.clients or 0
end

--- Records how many CLIs the Go host says are connected to session id's
--- server.
function M.set_clients(id, n)
  if sessions[id] then
    sessions[id].clients = n
  end
end

--- The live sessions, by id: { id, cwd, running, elsewhere, clients,
--- port, current }.
function M.list()
  local cur = M.current()
  local out = {}
  for _, s in ipairs(M.live()) do
    table.insert(out, {
      id = s.id,
      cwd = s.cwd,
      running = M.cli_running(s),
      elsewhere = s.elsewhere == true,
      clients = M.clients_of(s),
      port = s.port,
      current = cur == s,
    })
  end
  return out
end

--- A short name for session id: its directory's, or its id.
function M.label(id)
  local s = sessions[id]
  return s and s.cwd and vim.fn.fnamemodify(s.cwd, ":t") or ("session " .. tostring(id))
end

--- Whether the user is in session id's place: its terminal, or a tab page
--- of its own. With one session, everywhere is.
function M.is_here(id)
  if #M.live() <= 1 then
    return true
  end
  local s = M.current()
  return s ~= nil and s.id == id and (vim.t.claude_session == id or s.buf == vim.api.nvim_get_current_buf())
end

return M
