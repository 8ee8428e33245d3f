-- Remotes: a CLI on another machine or in a container, reached through
-- `claude-nvim relay` run there over the remote's transport command (the Go
-- host's remote.go). This module keeps each remote's state as the host
-- pushes it (handlers.update_remote), so the statusline never waits.
local M = {}

-- name -> { name, state, error, session, roots, pid, port, lockfile, clients }
local states = {}

local function config(name)
  local remotes = require("claude.config").get().remotes or {}
  return remotes[name]
end

--- The configured remotes' names, sorted (completion, :checkhealth).
function M.names()
  local names = vim.tbl_keys(require("claude.config").get().remotes or {})
  table.sort(names)
  return names
end

--- Connects remote name: the host starts its command and the relay there.
---@return boolean ok, string|nil err
function M.connect(name)
  local r = config(name)
  if not r then
    return false, string.format("no remote %q in setup({ remotes = ... })", name or "")
  end
  local map = {}
  for remote, l in pairs(r.map) do
    map[remote] = vim.fn.fnamemodify(vim.fn.expand(l), ":p"):gsub("/$", "")
  end
  local state = require("claude.host").connect_remote({
    name = name,
    command = r.command,
    exec = r.exec,
    reconnect = r.reconnect ~= false,
    map = map,
    ide_name = require("claude.config").get().ide_name,
  })
  if not state then
    return false -- host.call has said why
  end
  M.update(state)
  return true
end

--- Stops remote name: the relay removes its lock there.
function M.stop(name)
  return require("claude.host").stop_remote(name)
end

-- name -> functions waiting for its connection's outcome (when_connected).
local waiting = {}

--- Runs fn(state) once remote name is connected (at once if it is), or
--- with the state that ended the attempt (failed, stopped).
function M.when_connected(name, fn)
  local s = states[name]
  if s and s.state == "connected" then
    fn(s)
    return
  end
  waiting[name] = waiting[name] or {}
  table.insert(waiting[name], fn)
end

--- A remote's new state, from the host.
function M.update(state)
  local before = states[state.name]
  states[state.name] = state
  if state.state ~= "connecting" and waiting[state.name] then
    local fns = waiting[state.name]
    waiting[state.name] = nil
    for _, fn in ipairs(fns) do
      fn(state)
    end
  end
  -- Said once per drop: the tries to connect again that fail are not news.
  if state.state == "dropped" and (not before or before.state == "connected") then
    vim.notify(string.format("claude.nvim: remote %s dropped: %s", state.name, state.error or "the transport ended"), vim.log.levels.WARN)
  elseif state.state == "failed" then
    vim.notify(string.format("claude.nvim: remote %s: %s", state.name, state.error or "failed"), vim.log.levels.ERROR)
  end
  vim.cmd("redrawstatus")
end

--- Whether a remote is connected (its relay's lock is there).
function M.any_connected()
  for _, s in pairs(states) do
    if s.state == "connected" then
      return true
    end
  end
  return false
end

--- Every remote's last known state, by name.
function M.states()
  return states
end

--- One line per remote known to this Neovim (:Claude status), by name.
function M.status_lines()
  local lines = {}
  for _, name in ipairs(M.names()) do
    local s = states[name]
    local line
    if not s then
      line = "not connected (:Claude remote connect " .. name .. ")"
    elseif s.state == "connected" then
      line = string.format("connected, relay pid %d at its 127.0.0.1:%d, %d CLI%s", s.pid or 0, s.port or 0, s.clients or 0, (s.clients or 0) == 1 and "" or "s")
    elseif s.error and s.error ~= "" then
      line = s.state .. ": " .. s.error
    else
      line = s.state
    end
    table.insert(lines, string.format("remote %s: %s", name, line))
  end
  return lines
end

--- The statusline's part: "⇄ name ●" (a CLI connected), "○" (none yet),
--- "…" connecting, and the drop said in words.
function M.statusline()
  local parts = {}
  for _, name in ipairs(vim.tbl_keys(states)) do
    local s = states[name]
    if s.state == "connected" then
      table.insert(parts, string.format("⇄ %s %s", name, (s.clients or 0) > 0 and "●" or "○"))
    elseif s.state == "connecting" then
      table.insert(parts, string.format("⇄ %s …", name))
    elseif s.state == "dropped" then
      table.insert(parts, string.format("⇄ %s dropped", name))
    end
  end
  table.sort(parts)
  return table.concat(parts, " · ")
end

return M
