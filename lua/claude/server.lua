-- The terminal bridge's servers, as Lua starts and stops them: the first
-- (the one :Claude server start runs, session 1's) and one per other terminal
-- session. Each is a WebSocket server in the Go host with a lock file
-- that tells the CLI where it is; Go creates, names (by port) and removes
-- them, Lua asks for them (host.lua) and keeps their state (state.lua).
local M = {}

-- ClaudeHostStart's options, from the configuration, and the port and
-- token of the server this Neovim ran last: a CLI that was connected to it
-- reconnects by itself when the new one takes them over. Also what the
-- host needs to know about this Neovim (host/server.go startOptions), so
-- it never calls back for it: the lock file's pid and workspace folders,
-- and where the user is, which the first CLI to connect is told.
function M.start_options()
  local cfg = require("claude.config").get()
  local last = require("claude.state").last
  return {
    ide_name = cfg.ide_name,
    port_min = cfg.port_range and cfg.port_range[1] or 0,
    port_max = cfg.port_range and cfg.port_range[2] or 0,
    port = last.port or 0,
    token = last.token or "",
    pid = vim.fn.getpid(),
    no_lsp_tools = not cfg.tools.lsp,
    folders = require("claude.tools").workspace_folders(),
    where = require("claude.selection").editor_state(),
    execute_code = cfg.tools.execute_code,
    python = cfg.tools.python,
    execute_timeout = cfg.tools.execute_timeout,
  }
end

-- How long a CLI that was connected gets to reconnect to a restarted
-- server before we say it will not. The CLI (2.1.197) retries at once and
-- then after about 1, 2, 4 and 8 s; after that it has given up, and even
-- its /ide command fails to connect again ("Failed to connect to Neovim").
local RECONNECT_WAIT_MS = 10000

-- What brings back a CLI that gave up on us: a new one, on the same
-- conversation.
local RESTART_ADVICE = "restart it with :Claude close, then :Claude open --continue (keeps the conversation)"

-- After the server came back while Claude's terminal runs: make sure its
-- CLI finds it again, or say how to get it back.
local function watch_reconnect(info, previous_port)
  local sessions = require("claude.sessions")
  local state = require("claude.state")
  if not sessions.running(1) or state.clients > 0 then
    return
  end
  if previous_port and info.port ~= previous_port then
    require("claude.notify").warn(
      string.format(
        "the server could not take port %d again (now %d), so Claude cannot reconnect: %s",
        previous_port,
        info.port,
        RESTART_ADVICE
      )
    )
    return
  end
  vim.defer_fn(function()
    if sessions.running(1) and state.server_running and state.port == info.port and state.clients == 0 then
      require("claude.notify").warn("Claude has stopped retrying and will not reconnect: " .. RESTART_ADVICE)
    end
  end, RECONNECT_WAIT_MS)
end

-- The first server's hooks, as the host gave them with it (ClaudeHostStart's
-- hook_settings and hook_origin): a terminal's CLI started while the server
-- runs gets them too. nil until a start said, and again once the host exits
-- (the next one has its own settings file).
local hooks

--- Records a started first server (from M.start or an asynchronous start).
function M.started(info)
  if info.hook_settings and info.hook_settings ~= "" then
    hooks = { settings = info.hook_settings, origin = info.hook_origin, mcp_config = info.mcp_config, mcp_allowed = info.mcp_allowed }
  end
  local previous_port = require("claude.state").last.port
  require("claude.state")._server(info)
  require("claude.reload").enable(require("claude.config").get().auto_reload)
  watch_reconnect(info, previous_port)
  -- After a host restart, the other sessions' CLIs wait for their servers:
  -- terminal/ starts them again on the ClaudeServerStarted this fired.
end

--- Starts the first server (and the Go host) if it is not running.
---@return table|nil info { port, lockfile } or nil after reporting an error
function M.start()
  -- :Claude send and :Claude open start the server each time; once it runs,
  -- the state the host pushed answers without a round trip.
  local state = require("claude.state")
  local host = require("claude.host")
  if state.server_running and host.running() and hooks then
    return {
      running = true,
      port = state.port,
      lockfile = state.lockfile,
      hook_settings = hooks.settings,
      hook_origin = hooks.origin,
      mcp_config = hooks.mcp_config,
      mcp_allowed = hooks.mcp_allowed,
    }
  end
  -- Not running, or running without its hooks known here (started for the
  -- chat, say): ClaudeHostStart is idempotent and says them.
  local info = host.start_server(M.start_options())
  if type(info) ~= "table" or not info.port then
    return nil
  end
  M.started(info)
  return info
end

--- Starts the first server without waiting for the Go host (auto_start,
--- a restart after the host died).
function M.start_async()
  if not require("claude.host").start_async(M.start_options()) then
    M.start()
  end
end

-- The Go host died (host.lua): start the first server again when it says
-- so. Only a server this module started is restarted, so listening from
-- when it loads is soon enough.
vim.api.nvim_create_autocmd("User", {
  group = vim.api.nvim_create_augroup("ClaudeServerRestart", { clear = true }),
  pattern = "ClaudeHostExit",
  desc = "claude.nvim: start the server again after the Go host died",
  callback = function(ev)
    hooks = nil
    if ev.data and ev.data.restart and ev.data.server ~= false then
      M.start_async()
    end
  end,
})

--- Starts the server of a session other than the first: bound to cwd, on
--- port with token when they are free (a restart).
---@return table|nil info { port, token, lockfile } or nil after reporting an error
function M.start_for_session(id, cwd, port, token)
  local opts = M.start_options()
  opts.session, opts.cwd, opts.folders = id, cwd, { cwd }
  opts.port, opts.token = port or 0, token or ""
  local info = require("claude.host").start_server(opts)
  if type(info) ~= "table" or not info.port then
    return nil
  end
  return info
end

--- Stops the first server: disconnects Claude and removes the lock file.
function M.stop()
  local notify = require("claude.notify")
  local host = require("claude.host")
  if not host.running() or not require("claude.state").server_running then
    notify.info("the server is not running")
    return
  end
  host.stop_server()
  require("claude.state")._server({ running = false }, require("claude.sessions").running(1))
  require("claude.reload").enable(false)
  if require("claude.sessions").current_running() then
    notify.info(
      "server stopped: Claude is disconnected. :Claude server start (or :Claude open) within about 15 s reconnects it; later, Claude has to be restarted"
    )
  else
    notify.info("server stopped; lock file removed")
  end
end

--- The first server's state: { running, port, lockfile, clients = { {pid, name, version} } }.
function M.status()
  local host = require("claude.host")
  if not host.running() then
    return { running = false, clients = {} }
  end
  return host.server_status() or { running = false, clients = {} }
end

return M
