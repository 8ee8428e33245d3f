-- The server's state as Lua knows it, so statuslines and :ClaudeStatus-like
-- queries never wait on RPC: the server's from ClaudeHostStart's answer and
-- the host's exit (init.lua, host.lua), the clients' pushed by the Go host.
local M = {
  server_running = false,
  port = nil,
  lockfile = nil,
  clients = 0,
  token = nil,
  -- The port and token of the last server that ran, kept after it stops:
  -- the next one resumes them (see init.lua start_options).
  last = {},
}

local events = require("claude.events")

--- Called by init.lua when the server started or was stopped, and by
--- host.lua when the Go host exited.
---@param info table { running, port, lockfile }
function M._server(info)
  M.server_running = info.running and true or false
  if M.server_running then
    M.last = { port = info.port, token = info.token }
  elseif M.clients == 0 and not require("claude.terminal").session_running(1) then
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

--- Called by the Go host (nvimapi.Editor.ClientChanged) when a CLI
--- finished connecting or went away.
---@param info table { connected = bool, clients = n, pid, name, version }
function M._client(info)
  local session = (info.session or 0) > 0 and info.session or 1
  if session == 1 then
    M.clients = info.clients or 0
  end
  require("claude.terminal")._clients(session, info.clients or 0)
  events.fire(info.connected and "ClaudeConnected" or "ClaudeDisconnected", info)
  vim.cmd.redrawstatus({ bang = true })
end

return M
