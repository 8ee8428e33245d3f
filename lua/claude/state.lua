-- The first server's state as Lua knows it, so statuslines and
-- :Claude status-like queries never wait on RPC: the server's from
-- ClaudeHostStart's answer and the host's exit (server.lua, host.lua), the
-- clients' pushed by the Go host (handlers.update_client).
local M = {
  server_running = false,
  port = nil,
  lockfile = nil,
  clients = 0,
  token = nil,
  -- The port and token of the last server that ran, kept after it stops:
  -- the next one resumes them (see server.lua start_options).
  last = {},
}

local events = require("claude.events")

--- Called by server.lua when the server started or was stopped, and by
--- host.lua when the Go host exited.
---@param info table { running, port, lockfile }
---@param cli_running boolean|nil whether session 1's CLI runs (and keeps
--- the port and token for a server that comes back)
function M._server(info, cli_running)
  M.server_running = info.running and true or false
  if M.server_running then
    M.last = { port = info.port, token = info.token }
  elseif M.clients == 0 and not cli_running then
    -- No CLI holds them: the next server gets a new port and token.
    M.last = {}
  end
  M.port, M.lockfile, M.token = info.port, info.lockfile, info.token
  if not M.server_running then
    M.clients = 0
  end
  events.fire(M.server_running and "ClaudeServerStarted" or "ClaudeServerStopped", info)
  vim.cmd.redrawstatus({ bang = true })
end

--- Called by the Go host (nvimapi.Editor.ClientChanged, through
--- handlers.update_client, which counts the session's clients first) when
--- a CLI finished connecting or went away.
---@param info table { connected = bool, clients = n, pid, name, version }
function M._client(info)
  local session = (info.session or 0) > 0 and info.session or 1
  if session == 1 then
    M.clients = info.clients or 0
  end
  events.fire(info.connected and "ClaudeConnected" or "ClaudeDisconnected", info)
  vim.cmd.redrawstatus({ bang = true })
end

return M
