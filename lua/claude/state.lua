-- State the Go host pushes to us, so statuslines and :ClaudeStatus-like
-- queries never wait on RPC.
local M = {
  server_running = false,
  port = nil,
  lockfile = nil,
  clients = 0,
}

local events = require("claude.events")

--- Called by the Go host when the server starts or stops.
---@param info table { running, port, lockfile }
function M._server(info)
  M.server_running = info.running and true or false
  M.port, M.lockfile = info.port, info.lockfile
  if not M.server_running then
    M.clients = 0
  end
  events.fire(M.server_running and "ClaudeServerStarted" or "ClaudeServerStopped", info)
  vim.cmd.redrawstatus({ bang = true })
end

--- Called by the Go host when a CLI finished connecting or went away.
---@param info table { connected = bool, clients = n, pid, name, version }
function M._client(info)
  M.clients = info.clients or 0
  events.fire(info.connected and "ClaudeConnected" or "ClaudeDisconnected", info)
  vim.cmd.redrawstatus({ bang = true })
end

return M
