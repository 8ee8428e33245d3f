-- claude.nvim: Claude Code inside Neovim. This module is the public Lua
-- API (:help claude-lua); the :Claude* commands in plugin/claude.lua call it.
local M = {}

local config_state = { cfg = nil, setup_called = false }

-- ClaudeHostStart's options, from the configuration, and the port and
-- token of the server this Neovim ran last: a CLI that was connected to it
-- reconnects by itself when the new one takes them over. Also what the
-- host needs to know about this Neovim (host/server.go startOptions), so
-- it never calls back for it: the lock file's pid and workspace folders,
-- and where the user is, which the first CLI to connect is told.
local function start_options(cfg)
  local last = require("claude.state").last
  return {
    ide_name = cfg.ide_name,
    port_min = cfg.port_range and cfg.port_range[1] or 0,
    port_max = cfg.port_range and cfg.port_range[2] or 0,
    port = last.port or 0,
    token = last.token or "",
    pid = vim.fn.getpid(),
    folders = require("claude.tools").workspace_folders(),
    where = require("claude.selection").editor_state(),
  }
end

-- How long a CLI that was connected gets to reconnect to a restarted
-- server before we say it will not. The CLI (2.1.197) retries at once and
-- then after about 1, 2, 4 and 8 s; after that it has given up, and even
-- its /ide command fails to connect again ("Failed to connect to Neovim").
local RECONNECT_WAIT_MS = 10000

-- What brings back a CLI that gave up on us: a new one, on the same
-- conversation.
local RESTART_ADVICE = "restart it with :ClaudeClose, then :ClaudeOpen --continue (keeps the conversation)"

-- After the server came back while Claude's terminal runs: make sure its
-- CLI finds it again, or say how to get it back.
local function watch_reconnect(info, previous_port)
  local terminal = require("claude.terminal")
  local state = require("claude.state")
  if not terminal.session_running(1) or state.clients > 0 then
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
    if terminal.session_running(1) and state.server_running and state.port == info.port and state.clients == 0 then
      require("claude.notify").warn("Claude has stopped retrying and will not reconnect: " .. RESTART_ADVICE)
    end
  end, RECONNECT_WAIT_MS)
end

-- Must equal host.Version in the Go code; a mismatch means bin/claude-nvim
-- comes from another version and must be replaced (scripts/install-binary).
-- scripts/install-binary and scripts/dist read the version from this line:
-- keep it one line, `M.version = "x.y.z"`.
M.version = "0.1.0"

--- Configures the plugin. Safe to call more than once; each call starts
--- again from the defaults. Raises an error naming any key with a bad value.
---@param opts table|nil see :help claude-config
function M.setup(opts)
  local cfg, unknown = require("claude.config").resolve(opts)
  config_state.cfg, config_state.setup_called = cfg, true
  if #unknown > 0 then
    require("claude.notify").notify("claude.nvim: unknown option(s) ignored: " .. table.concat(unknown, ", "), vim.log.levels.WARN)
  end
  if cfg.auto_start then
    -- After startup, and without waiting for the Go host to come up, so
    -- auto_start never delays the first screen nor freezes the editor.
    local function start()
      require("claude.host").start_async(start_options(cfg))
    end
    if vim.v.vim_did_enter == 1 then
      vim.schedule(start)
    else
      vim.api.nvim_create_autocmd("VimEnter", {
        group = vim.api.nvim_create_augroup("ClaudeAutoStart", { clear = true }),
        once = true,
        desc = "claude.nvim: start the server (auto_start)",
        callback = function()
          vim.schedule(start)
        end,
      })
    end
  end
end

--- The active configuration (the defaults until setup() is called).
---@return claude.Config
function M.config()
  if not config_state.cfg then
    config_state.cfg = require("claude.config").resolve({})
  end
  return config_state.cfg
end

function M.setup_called()
  return config_state.setup_called
end

--- Starts the WebSocket server (and the Go host) if it is not running.
---@return table|nil info { port, lockfile } or nil after reporting an error
function M.start()
  -- :ClaudeSend and :ClaudeOpen start the server each time; once it runs,
  -- the state the host pushed answers without a round trip.
  local state = require("claude.state")
  if state.server_running and require("claude.host").running() then
    return { running = true, port = state.port, lockfile = state.lockfile }
  end
  local info = require("claude.host").call("ClaudeHostStart", start_options(M.config()))
  if type(info) ~= "table" or not info.port then
    return nil
  end
  M._server_started(info)
  return info
end

--- Starts the server of a session other than the first (terminal.lua):
--- bound to cwd, on port with token when they are free (a restart).
---@return table|nil info { port, token, lockfile } or nil after reporting an error
function M._start_session(id, cwd, port, token)
  local opts = start_options(M.config())
  opts.session, opts.cwd, opts.folders = id, cwd, { cwd }
  opts.port, opts.token = port or 0, token or ""
  local info = require("claude.host").call("ClaudeHostStart", opts)
  if type(info) ~= "table" or not info.port then
    return nil
  end
  return info
end

--- Records a started server (from M.start or an asynchronous start).
function M._server_started(info)
  local previous_port = require("claude.state").last.port
  require("claude.state")._server(info)
  require("claude.reload").enable(M.config().auto_reload)
  watch_reconnect(info, previous_port)
  -- After a host restart, the other sessions' CLIs wait for their servers.
  require("claude.terminal").restart_sessions()
end

--- Starts the server again after its process died, without waiting for it.
function M._restart()
  require("claude.host").start_async(start_options(M.config()))
end

--- Stops the server: disconnects Claude and removes the lock file.
function M.stop()
  local notify = require("claude.notify")
  if not require("claude.host").running() or not require("claude.state").server_running then
    notify.info("the server is not running")
    return
  end
  require("claude.host").call("ClaudeHostStop")
  require("claude.state")._server({ running = false })
  require("claude.reload").enable(false)
  if require("claude.terminal").is_running() then
    notify.info(
      "server stopped: Claude is disconnected. :ClaudeStart (or :ClaudeOpen) within about 15 s reconnects it; later, Claude has to be restarted"
    )
  else
    notify.info("server stopped; lock file removed")
  end
end

--- Server state: { running, port, lockfile, clients = { {pid, name, version} } }.
function M.status()
  if not require("claude.host").running() then
    return { running = false, clients = {} }
  end
  return require("claude.host").call("ClaudeHostStatus") or { running = false, clients = {} }
end

--- Opens (or shows) the Claude terminal; args go to the CLI (e.g. "--resume").
---@param args string[]|nil
function M.open(args)
  require("claude.terminal").open(args)
end

function M.toggle(args)
  require("claude.terminal").toggle(args)
end

function M.focus()
  require("claude.terminal").focus()
end

function M.close()
  require("claude.terminal").close()
end

--- Sends lines line1..line2 (1-based, inclusive) of the current file to
--- Claude as an @-mention, or the whole file without a range.
---@param line1 integer|nil
---@param line2 integer|nil
function M.send(line1, line2)
  require("claude.mention").send_buffer(0, line1, line2)
end

--- Sends a file or directory to Claude as an @-mention.
---@param path string
---@param line1 integer|nil 1-based
---@param line2 integer|nil 1-based
function M.add(path, line1, line2)
  require("claude.mention").send_path(path, line1, line2)
end

--- A short state string for statuslines: "" when stopped, "Claude ○" while
--- waiting for the CLI, "Claude ●" when connected. With several sessions,
--- the current one's directory and how many there are ("Claude ● wt [2/3]"),
--- then each other session that waits for an answer ("· main waits").
function M.statusline()
  local s = require("claude.state")
  local terminal = require("claude.terminal")
  -- Redrawn often: a single session needs no lookup of the current one
  -- (which may read the file system, for the cwd option).
  if terminal.count() <= 1 then
    if not s.server_running then
      return ""
    end
    local head = s.clients > 0 and "Claude ●" or "Claude ○"
    -- Said only when edits skip the review: the usual case stays short.
    local permission = terminal.permission()
    if permission and require("claude.permission").bypasses_review(permission.mode) then
      head = head .. " " .. permission.mode
    end
    return head
  end
  local sessions = terminal.sessions()
  local diff = require("claude.diff")
  local current, waiting = nil, {}
  for i, session in ipairs(sessions) do
    if session.current then
      current = i
    elseif diff.waiting(session.id) > 0 then
      table.insert(waiting, terminal.label(session.id) .. " waits")
    end
  end
  local head
  if current then
    local cur = sessions[current]
    head = string.format("Claude %s %s [%d/%d]", cur.clients > 0 and "●" or "○", terminal.label(cur.id), current, #sessions)
  else
    head = string.format("Claude [%d]", #sessions)
  end
  return table.concat(vim.list_extend({ head }, waiting), " · ")
end

--- :ClaudeSessions: pick a session to go to (its tab page, or its
--- terminal here).
function M.sessions()
  local terminal = require("claude.terminal")
  local list = terminal.sessions()
  if #list == 0 then
    require("claude.notify").info("no Claude session runs (:ClaudeOpen starts one)")
    return
  end
  local diff = require("claude.diff")
  vim.ui.select(list, {
    prompt = "Claude sessions",
    format_item = function(item)
      local state = item.elsewhere and "own terminal" or (item.running and "running" or "exited")
      local parts = {
        string.format("%d %s", item.id, vim.fn.fnamemodify(item.cwd or "?", ":~")),
        state,
        item.clients > 0 and "connected" or "not connected",
      }
      local n = diff.waiting(item.id)
      if n > 0 then
        table.insert(parts, string.format("%d diff%s waiting", n, n == 1 and "" or "s"))
      end
      if item.current then
        table.insert(parts, "current")
      end
      return table.concat(parts, " · ")
    end,
  }, function(choice)
    if choice then
      terminal.go_to(choice.id)
    end
  end)
end

return M
