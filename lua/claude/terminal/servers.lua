-- The terminal sessions' servers: started with their terminal, the
-- current one told to the Go host as the user moves, stopped with it,
-- started again after the Go host restarted.
local M = {}

local sessions = require("claude.sessions")

-- The last session the Go host was told is current.
local told_host

--- Tells the Go host which session is current (where selections and
--- mentions go), when that changed. Cheap: runs on TabEnter and WinEnter.
function M.sync()
  local host = require("claude.host")
  if not host.running() or not sessions.any() then
    return
  end
  -- 0: a tab page of no session (another directory): its selections go
  -- to no CLI.
  local s = sessions.current()
  local id = s and s.id or 0
  -- Per host process: a restarted host knows nothing yet.
  local key = tostring(host.channel()) .. ":" .. id
  if key == told_host then
    return
  end
  told_host = key
  host.set_current_session(id)
end

--- Keeps the Go host told which session is current as the user moves.
function M.follow_current()
  local group = vim.api.nvim_create_augroup("ClaudeSessions", { clear = true })
  vim.api.nvim_create_autocmd({ "TabEnter", "WinEnter", "DirChanged" }, {
    group = group,
    desc = "claude.nvim: selections and mentions go to this tab page's session",
    callback = function()
      M.sync()
    end,
  })
end

--- Ends a session other than the first with its CLI: its server and lock
--- file go too (the first one's server stays for :Claude server start users).
function M.stop(s)
  if s.id == 1 then
    return
  end
  sessions.forget(s.id)
  require("claude.host").stop_server(s.id, true)
  pcall(vim.cmd.redrawstatus, { bang = true })
end

--- Starts (or finds running) session s's server; returns its info.
function M.start_server(s)
  local server = require("claude.server")
  if s.id == 1 then
    return server.start()
  end
  local info = server.start_for_session(s.id, s.cwd, s.port, s.token)
  if info then
    s.port, s.token = info.port, info.token
  end
  return info
end

--- Starts the servers of the sessions other than the first again, on
--- their ports, after the Go host restarted: their CLIs reconnect.
function M.restart_servers()
  for _, s in ipairs(sessions.live()) do
    if s.id ~= 1 and (sessions.cli_running(s) or s.elsewhere) then
      M.start_server(s)
    end
  end
end

-- After the first server started again (a host restart), the other
-- sessions' CLIs wait for theirs.
vim.api.nvim_create_autocmd("User", {
  group = vim.api.nvim_create_augroup("ClaudeSessionServers", { clear = true }),
  pattern = "ClaudeServerStarted",
  desc = "claude.nvim: start the other sessions' servers again",
  callback = function()
    M.restart_servers()
  end,
})

return M
