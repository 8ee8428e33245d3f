-- Claude's terminals: windows running the CLI of a terminal session
-- (sessions.lua keeps the sessions; servers.lua here their servers; one
-- file per terminal.provider: native.lua, snacks.lua, external.lua;
-- window.lua places the windows).
-- The functions below act on the current session (sessions.current).
local M = {}

local sessions = require("claude.sessions")
local servers = require("claude.terminal.servers")
local window = require("claude.terminal.window")

-- The current session, or an empty record (no session here: a new one
-- starts) so callers can read its fields.
local term = {}

-- Points term at the current session; returns it (nil when none).
local function select_current()
  local s = sessions.current()
  term = s or {}
  return s
end

-- Kept for callers of the terminal module from before the split (the
-- session registry, the CLI's command and the window placement moved
-- out); the functions are the same.
M.program = require("claude.cli").program
M.count = sessions.count
M.sessions = sessions.list
M.label = sessions.label
M.is_here = sessions.is_here
M.session_cwd = sessions.new_cwd
M.window_in_tab = window.in_tab

--- The permission mode session id's CLI (the current session's by
--- default) runs in (see permission.now: as started, or as its hooks said
--- since a switch in the CLI), or nil when none runs.
---@param id integer|nil
function M.permission(id)
  local s
  if id then
    s = sessions.get(id)
  else
    local list = sessions.live()
    -- One session is the current one: no lookup (the statusline asks often).
    s = #list == 1 and list[1] or sessions.current()
  end
  if not (s and sessions.alive(s)) then
    return nil
  end
  local attention = package.loaded["claude.attention"]
  return require("claude.permission").now(s.permission, attention and attention.mode(s.id))
end

--- The current session's id, or nil.
function M.current_id()
  local s = sessions.current()
  return s and s.id or nil
end

--- Types data into the running CLI, as keys typed in its terminal.
---@param data string
function M.send(data)
  select_current()
  if M.is_running() then
    vim.api.nvim_chan_send(term.job, data)
  end
end

--- Whether Claude was started by terminal.provider in a terminal that is
--- not Neovim's (nothing of ours to show, focus or type into).
function M.elsewhere()
  select_current()
  return term.elsewhere == true
end

--- The directory the running CLI was started in, or nil.
function M.cwd()
  return M.is_running() and term.cwd or nil
end

function M.is_running()
  select_current()
  return sessions.cli_running(term)
end

--- The terminal buffer of session id (the current session by default),
--- or nil.
---@param id integer|nil
function M.buf(id)
  local s = id and sessions.get(id) or (not id and select_current()) or {}
  if s.buf and vim.api.nvim_buf_is_valid(s.buf) then
    return s.buf
  end
  return nil
end

--- How many CLIs are connected to the current session's server.
function M.clients()
  return sessions.clients_of(select_current())
end

local function shown()
  local buf = term.buf and vim.api.nvim_buf_is_valid(term.buf) and term.buf or nil
  return buf and window.in_tab(buf) or nil
end

local function on_exit(job, code)
  local s
  for _, live in ipairs(sessions.live()) do
    if live.job == job then
      s = live
    end
  end
  if not s then
    return
  end
  s.job = nil
  local buf = s.buf
  require("claude.events").fire("ClaudeTerminalExited", { code = code, session = s.id })
  if vim.v.exiting == vim.NIL then
    if code == 0 then
      require("claude.notify").info("Claude exited")
    else
      require("claude.notify").warn(
        string.format("Claude exited with code %d; its terminal keeps what it printed (:Claude open starts a new one)", code)
      )
    end
  end
  if code == 0 and buf and vim.api.nvim_buf_is_valid(buf) then
    -- A clean exit (/exit, Ctrl-D): close its windows, like closing a tab.
    for _, win in ipairs(vim.fn.win_findbuf(buf)) do
      if #vim.api.nvim_list_wins() > 1 then
        pcall(vim.api.nvim_win_close, win, true)
      end
    end
    pcall(vim.api.nvim_buf_delete, buf, { force = true })
    s.buf = nil
    servers.stop(s)
  end
end

-- Starts session s's CLI in a terminal: ours, or the provider's.
local function start_in_terminal(s, info, args)
  -- The mode it starts in: shown by :Claude status, warned about when its
  -- edits skip the review.
  local permission = require("claude.permission")
  local cli = require("claude.cli")
  -- The cli options' flags first: one of them may choose the mode
  -- (--dangerously-skip-permissions), which permission.args then respects.
  args = cli.with_flags(args or {}, "terminal")
  args, s.permission = permission.args(args, s.cwd)
  permission.warn_no_review(s.permission)
  local provider = require("claude.config").get().terminal.provider
  args = cli.with_tools(cli.with_hooks(args, info), info)
  local cmd, env = cli.command(args), cli.env(info.port)
  env[cli.HOOK_ORIGIN_ENV] = info.hook_origin
  if provider == "snacks" then
    return require("claude.terminal.snacks").start(s, cmd, env, on_exit)
  elseif provider ~= "native" then
    return require("claude.terminal.external").start(s, cmd, env, provider)
  end
  return require("claude.terminal.native").start(s, cmd, env, on_exit)
end

local function start(args)
  servers.follow_current()
  local id = sessions.new_id()
  local s = { id = id, cwd = sessions.new_cwd() }
  local info = servers.start_server(s)
  if not info then
    return false
  end
  s.port = info.port
  local old = sessions.get(id)
  if old and old.buf and vim.api.nvim_buf_is_valid(old.buf) then
    pcall(vim.api.nvim_buf_delete, old.buf, { force = true })
  end
  sessions.add(s)
  term = s
  -- Alive while its window and job come up (their WinEnter asks).
  s.starting = true
  vim.t.claude_session = id
  local ok = start_in_terminal(s, info, args)
  s.starting = nil
  if not ok then
    sessions.forget(id)
  end
  servers.sync()
  return ok
end

--- Makes sure the current session's server runs (a tab page of no session
--- while others run gets a session of its own, its CLI started) and that
--- the Go host sends it what the user mentions; returns whether it runs.
function M.ensure_server()
  local s = select_current()
  if s then
    local ok = servers.start_server(s) ~= nil
    servers.sync()
    return ok
  end
  if sessions.count() == 0 then
    return require("claude.server").start() ~= nil
  end
  return M.open()
end

local function show()
  local win = shown()
  if win then
    vim.api.nvim_set_current_win(win)
  elseif term.snacks then
    term.snacks:show():focus() -- where snacks puts it
  else
    window.open(term.buf)
  end
end

--- Hides the terminal if it floats in this tab page, where it would cover
--- a diff; reports whether it did.
function M.hide_float()
  select_current()
  local win = shown()
  if win and vim.api.nvim_win_get_config(win).relative ~= "" then
    vim.api.nvim_win_hide(win)
    return true
  end
  return false
end

--- Shows the floating terminal again after hide_float (unless the CLI has
--- exited or the user brought it back already).
function M.show_float()
  if M.is_running() and not shown() then -- is_running selects the session
    window.by_command(show)
  end
end

local open

--- Shows the Claude terminal and focuses it, starting the CLI if none runs.
--- The cursor lands in Normal mode unless insert (or terminal.focus_insert)
--- asks for Terminal mode (window.by_command).
---@param args string[]|nil passed to the CLI when it starts
---@param insert boolean|nil
function M.open(args, insert)
  return window.by_command(function()
    return open(args)
  end, insert)
end

function open(args)
  select_current()
  if term.elsewhere then
    if M.clients() > 0 then
      -- A terminal of the user's own (terminal.provider): not ours to show.
      servers.start_server(term)
      require("claude.notify").info("Claude runs in its own terminal (terminal.provider); it is connected")
      return true
    end
    term.elsewhere = nil -- it went away: start it again
  end
  if sessions.cli_running(term) then
    -- The server may have been stopped (:Claude server stop) while the CLI kept
    -- running: start it again, on the port the CLI knows.
    if not servers.start_server(term) then
      return false
    end
    if args and #args > 0 then
      require("claude.notify").notify("claude.nvim: Claude is already running; :Claude close it to start with new arguments", vim.log.levels.WARN)
    end
    show()
    servers.sync()
    return true
  end
  if term.buf and vim.api.nvim_buf_is_valid(term.buf) then
    -- The previous CLI exited with an error; its output stays readable
    -- until a new one replaces it.
    pcall(vim.api.nvim_buf_delete, term.buf, { force = true })
    term.buf = nil
  end
  return start(args)
end

local go_to

--- Goes to session id: its tab page, else shows its terminal here (and
--- this tab page becomes the session's); in Normal mode (by_command).
function M.go_to(id)
  return window.by_command(function()
    return go_to(id)
  end)
end

function go_to(id)
  local s = sessions.get(id)
  if not s or not sessions.alive(s) then
    return false
  end
  for _, tab in ipairs(vim.api.nvim_list_tabpages()) do
    local ok, owner = pcall(vim.api.nvim_tabpage_get_var, tab, "claude_session")
    if ok and owner == id then
      vim.api.nvim_set_current_tabpage(tab)
      servers.sync()
      return true
    end
  end
  vim.t.claude_session = id
  term = s
  if sessions.cli_running(s) then
    show()
  end
  servers.sync()
  return true
end

--- Focuses the terminal (showing it if hidden, starting it if needed), in
--- Terminal mode when insert (:Claude focus insert) or terminal.focus_insert.
---@param insert boolean|nil
function M.focus(insert)
  return M.open(nil, insert)
end

--- Hides a visible terminal (the CLI keeps running), shows a hidden one.
---@param args string[]|nil
function M.toggle(args)
  select_current()
  local win = shown()
  if not win then
    return M.open(args)
  end
  if #vim.api.nvim_tabpage_list_wins(0) > 1 then
    vim.api.nvim_win_hide(win)
  else
    -- The only window: show another buffer in it rather than failing.
    vim.api.nvim_win_call(win, function()
      local alt = vim.fn.bufnr("#")
      if alt > 0 and alt ~= term.buf and vim.api.nvim_buf_is_valid(alt) then
        vim.cmd.buffer(alt)
      else
        vim.cmd.enew()
      end
    end)
  end
  return true
end

--- Stops the current session's CLI and removes its buffer.
function M.close()
  -- A remote's terminal in the current window, or the only kind in this tab
  -- page: its CLI runs over there (terminal/remote.lua).
  local remote = require("claude.terminal.remote")
  local here = vim.b.claude_remote
  if here and remote.close(here) then
    return
  end
  local s = select_current()
  local there = not s and remote.shown_here()
  if there then
    remote.close(there)
    return
  end
  if not s then
    if sessions.count() > 0 then
      require("claude.notify").info("no Claude session in this tab page (:Claude sessions lists them)")
    end
    return
  end
  local buf = M.buf(s.id)
  if s.job then
    local job = s.job
    s.job = nil
    pcall(vim.fn.jobstop, job)
  end
  if buf then
    if #vim.api.nvim_list_wins() == #vim.fn.win_findbuf(buf) then
      -- Never leave Neovim without a window.
      vim.cmd.new()
    end
    pcall(vim.api.nvim_buf_delete, buf, { force = true })
  end
  s.buf, s.elsewhere = nil, nil
  servers.stop(s)
end

return M
