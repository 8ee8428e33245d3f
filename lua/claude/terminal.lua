-- The Claude terminals: splits running the CLI with the environment that
-- makes it connect to our server (CLAUDE_CODE_SSE_PORT).
--
-- Several can run, one per session: a session is one CLI bound to a
-- working directory, with a server of its own in the Go host (session 1
-- is the server :ClaudeStart starts; others start with their terminal and
-- stop with it). A session belongs to the tab page it was opened in
-- (t:claude_session). The functions below act on the current session: the
-- terminal the cursor is in, else the tab page's session, else the one
-- running in the directory a new one would start in, else the only one.
local M = {}

-- id -> session: { id, cwd, buf (kept while hidden), job (while the CLI
-- runs), elsewhere (terminal.provider runs it), port, token, clients }
local sessions = {}

-- The current session, or an empty record (no session here: a new one
-- starts) so callers can read its fields.
local term = {}

local LOOPBACK = { "127.0.0.1", "localhost", "::1" }

local function alive(s)
  return s.starting or s.job ~= nil or s.elsewhere == true or (s.buf ~= nil and vim.api.nvim_buf_is_valid(s.buf))
end

local function live_sessions()
  local list = {}
  for _, s in pairs(sessions) do
    if alive(s) then
      table.insert(list, s)
    end
  end
  table.sort(list, function(a, b)
    return a.id < b.id
  end)
  return list
end

-- The session of the current tab page (see the top of this file), or nil.
local function find_current()
  local here = vim.api.nvim_get_current_buf()
  for _, s in pairs(sessions) do
    if s.buf == here and alive(s) then
      return s
    end
  end
  local id = vim.t.claude_session
  if id and sessions[id] and alive(sessions[id]) then
    return sessions[id]
  end
  -- A tab page of no session: the one running where a new one would start
  -- (so a tab page with another cwd, a worktree say, gets its own).
  local list = live_sessions()
  local cwd = #list > 0 and M.session_cwd() or nil
  for _, s in ipairs(list) do
    if s.cwd == cwd then
      return s
    end
  end
  return nil
end

-- Points term at the current session; returns it (nil when none).
local function select_current()
  local s = find_current()
  term = s or {}
  return s
end

local function cfg()
  return require("claude").config()
end

-- Appends the loopback names to a NO_PROXY-style list, so a user's
-- http_proxy never captures the CLI's connection to us.
local function with_loopback(list)
  local have, out = {}, {}
  for item in (list or ""):gmatch("[^,%s]+") do
    if not have[item] then
      have[item] = true
      table.insert(out, item)
    end
  end
  for _, host in ipairs(LOOPBACK) do
    if not have[host] then
      table.insert(out, host)
    end
  end
  return table.concat(out, ",")
end

--- The environment the CLI is started with (exposed for tests and :checkhealth).
---@param port integer
function M.env(port)
  local env = {
    CLAUDE_CODE_SSE_PORT = tostring(port),
    ENABLE_IDE_INTEGRATION = "true",
    FORCE_CODE_TERMINAL = "true",
    NO_PROXY = with_loopback(vim.env.NO_PROXY),
    no_proxy = with_loopback(vim.env.no_proxy),
  }
  for k, v in pairs(cfg().env) do
    env[k] = tostring(v)
  end
  return env
end

local function command(args)
  local cmd = cfg().terminal_cmd
  args = require("claude.model").args(args or {})
  if type(cmd) == "table" then
    return vim.list_extend(vim.deepcopy(cmd), args)
  end
  -- A string is a shell command line ("npx claude", "claude --model x").
  local parts = { cmd }
  for _, a in ipairs(args) do
    table.insert(parts, vim.fn.shellescape(a))
  end
  return table.concat(parts, " ")
end

-- The program terminal_cmd runs, where that can be told without a shell:
-- a list's first item, or a string's first word unless it is shell syntax
-- (an assignment, a quote, a substitution).
function M.program()
  local cmd = cfg().terminal_cmd
  local first = type(cmd) == "table" and cmd[1] or cmd:match("^%s*(%S+)")
  if not first or first:find("[=$`'\"();|&<>\\]") then
    return nil
  end
  return first
end

--- Reports a terminal_cmd whose program is not on PATH (the same message
--- for :ClaudeOpen and :ClaudeChat); returns whether it can run.
function M.check_program()
  local prog = M.program()
  if prog and vim.fn.executable(prog) ~= 1 then
    require("claude.notify").notify(
      string.format(
        "claude.nvim: %s is not an executable on PATH. Install the Claude Code CLI (npm install -g @anthropic-ai/claude-code) or point terminal_cmd in setup() at it.",
        prog
      ),
      vim.log.levels.ERROR
    )
    return false
  end
  return true
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

local function running(s)
  return s.job ~= nil and s.buf ~= nil and vim.api.nvim_buf_is_valid(s.buf)
end

function M.is_running()
  select_current()
  return running(term)
end

--- The terminal buffer of session id (the current session by default),
--- or nil.
---@param id integer|nil
function M.buf(id)
  local s = id and sessions[id] or (not id and select_current()) or {}
  if s.buf and vim.api.nvim_buf_is_valid(s.buf) then
    return s.buf
  end
  return nil
end

--- How many CLIs are connected to the current session's server.
-- How many CLIs are connected to session s's server. The first session's
-- server runs without a terminal too (:ClaudeStart): state.lua counts its.
local function clients_of(s)
  if not s or s.id == 1 then
    return require("claude.state").clients
  end
  return s.clients or 0
end

function M.clients()
  return clients_of(select_current())
end

--- How many sessions run (cheap: no current-session lookup).
function M.count()
  return #live_sessions()
end

--- Called by state.lua when the Go host pushed a session's client count.
function M._clients(id, n)
  if sessions[id] then
    sessions[id].clients = n
  end
end

--- The running sessions, by id: { id, cwd, running, elsewhere, clients,
--- port, current }.
function M.sessions()
  local cur = find_current()
  local out = {}
  for _, s in ipairs(live_sessions()) do
    table.insert(out, {
      id = s.id,
      cwd = s.cwd,
      running = running(s),
      elsewhere = s.elsewhere == true,
      clients = clients_of(s),
      port = s.port,
      current = cur == s,
    })
  end
  return out
end

--- How the current session's CLI was started as to permissions (see
--- permission.resolve), or nil when none runs.
function M.permission()
  local list = live_sessions()
  -- One session is the current one: no lookup (the statusline asks often).
  local s = #list == 1 and list[1] or select_current()
  return s and alive(s) and s.permission or nil
end

--- The current session's id, or nil.
function M.current_id()
  local s = find_current()
  return s and s.id or nil
end

--- A short name for session id: its directory's, or its id.
function M.label(id)
  local s = sessions[id]
  return s and s.cwd and vim.fn.fnamemodify(s.cwd, ":t") or ("session " .. tostring(id))
end

--- Whether the user is in session id's place: its terminal, or a tab page
--- of its own. With one session, everywhere is.
function M.is_here(id)
  if #live_sessions() <= 1 then
    return true
  end
  local s = find_current()
  return s ~= nil and s.id == id and (vim.t.claude_session == id or s.buf == vim.api.nvim_get_current_buf())
end

-- The last session the Go host was told is current.
local told_host

--- Tells the Go host which session is current (where selections and
--- mentions go), when that changed. Cheap: runs on TabEnter and WinEnter.
function M.sync()
  local host = require("claude.host")
  if not host.running() or next(sessions) == nil then
    return
  end
  -- 0: a tab page of no session (another directory): its selections go
  -- to no CLI.
  local s = find_current()
  local id = s and s.id or 0
  -- Per host process: a restarted host knows nothing yet.
  local key = tostring(host.channel()) .. ":" .. id
  if key == told_host then
    return
  end
  told_host = key
  pcall(vim.fn.ClaudeHostSession, id)
end

--- The window showing buf in the current tab page, or nil.
---@param buf integer
function M.window_in_tab(buf)
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.api.nvim_win_get_buf(win) == buf then
      return win
    end
  end
  return nil
end

local function window()
  local buf = term.buf and vim.api.nvim_buf_is_valid(term.buf) and term.buf or nil
  return buf and M.window_in_tab(buf) or nil
end

-- A size option in cells: a fraction (< 1) of total, or a count (>= 1),
-- never more than total.
local function cells(s, total)
  if s < 1 then
    return math.max(1, math.floor(total * s))
  end
  return math.min(math.floor(s), total)
end

-- Where the floating terminal goes: centred, sized by terminal.float.
local function float_config()
  local f = cfg().terminal.float
  local lines = vim.o.lines - vim.o.cmdheight
  local width, height = cells(f.width, vim.o.columns), cells(f.height, lines)
  local bordered = f.border ~= "none" and f.border ~= ""
  -- The border takes a cell on each side.
  width = math.max(1, math.min(width, vim.o.columns - (bordered and 2 or 0)))
  height = math.max(1, math.min(height, lines - (bordered and 2 or 0)))
  return {
    relative = "editor",
    width = width,
    height = height,
    row = math.floor((lines - height) / 2) - (bordered and 1 or 0),
    col = math.floor((vim.o.columns - width) / 2) - (bordered and 1 or 0),
    border = f.border,
    title = bordered and " Claude " or nil,
    title_pos = bordered and "center" or nil,
  }
end

--- Opens a window for buf at position (terminal.position by default),
--- sized by terminal.size, and enters it; returns the window. The chat's
--- transcript opens the same way.
---@param buf integer
---@param position string|nil
function M.open_window(buf, position)
  local pos = position or cfg().terminal.position
  if pos == "tab" then
    vim.cmd("tab sbuffer " .. buf)
    return vim.api.nvim_get_current_win()
  elseif pos == "float" then
    return vim.api.nvim_open_win(buf, true, float_config())
  end
  local vertical = pos == "right" or pos == "left"
  local n = cells(cfg().terminal.size, vertical and vim.o.columns or vim.o.lines)
  local win = vim.api.nvim_open_win(buf, true, {
    split = pos,
    win = -1, -- relative to the whole editor: a full-height/width split
    width = vertical and n or nil,
    height = (not vertical) and n or nil,
  })
  vim.wo[win].winfixwidth = vertical
  vim.wo[win].winfixheight = not vertical
  return win
end

local function enter_insert()
  if cfg().terminal.auto_insert then
    vim.cmd.startinsert()
  end
end

-- Ends a session other than the first with its CLI: its server and lock
-- file go too (the first one's server stays for :ClaudeStart users).
local function end_session(s)
  if s.id == 1 then
    return
  end
  sessions[s.id] = nil
  if require("claude.host").running() then
    pcall(vim.fn.ClaudeHostStop, s.id)
  end
  pcall(vim.cmd.redrawstatus, { bang = true })
end

local function on_exit(job, code)
  local term
  for _, s in pairs(sessions) do
    if s.job == job then
      term = s
    end
  end
  if not term then
    return
  end
  term.job = nil
  local buf = term.buf
  require("claude.events").fire("ClaudeTerminalExited", { code = code, session = term.id })
  if vim.v.exiting == vim.NIL then
    if code == 0 then
      require("claude.notify").info("Claude exited")
    else
      require("claude.notify").warn(
        string.format("Claude exited with code %d; its terminal keeps what it printed (:ClaudeOpen starts a new one)", code)
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
    term.buf = nil
    end_session(term)
  end
end

--- The directory a new CLI starts in (the cwd option): a function's
--- answer, the git repository of the current file ("git_root"), a
--- directory, or Neovim's working directory.
function M.session_cwd()
  local opt = cfg().cwd
  local dir
  if type(opt) == "function" then
    local ok, got = pcall(opt)
    if not ok then
      require("claude.notify").error("the cwd function failed: " .. tostring(got) .. "; using " .. vim.fn.getcwd())
    end
    dir = ok and got or nil
  elseif opt == "git_root" then
    local file = vim.api.nvim_buf_get_name(0)
    local from = (file ~= "" and require("claude.tools").is_file_buf(0)) and vim.fs.dirname(file) or vim.fn.getcwd()
    dir = vim.fs.root(from, ".git")
  elseif type(opt) == "string" then
    dir = vim.fn.expand(opt)
  end
  if type(dir) ~= "string" or vim.fn.isdirectory(dir) ~= 1 then
    return vim.fn.getcwd()
  end
  return vim.fs.normalize(vim.fn.fnamemodify(dir, ":p"))
end

-- The command as a shell command line, with the environment in front:
-- for terminal.provider = "external", whose terminal (a tmux pane, say)
-- may not inherit Neovim's environment.
local function shell_command(cmd, env)
  local parts = { "env" }
  local names = vim.tbl_keys(env)
  table.sort(names)
  for _, k in ipairs(names) do
    table.insert(parts, vim.fn.shellescape(k .. "=" .. env[k]))
  end
  if type(cmd) == "table" then
    for _, a in ipairs(cmd) do
      table.insert(parts, vim.fn.shellescape(a))
    end
  else
    table.insert(parts, cmd)
  end
  return table.concat(parts, " ")
end

-- Starts the CLI through a provider that manages its own window.
local function start_elsewhere(provider, cmd, env, cwd)
  if type(provider) == "function" then
    local ok, err = pcall(provider, cmd, env, cwd)
    if not ok then
      require("claude.notify").error("terminal.provider failed: " .. tostring(err))
      return false
    end
  else
    local line = cfg().terminal.external_cmd
    if not line then
      require("claude.notify").error('terminal.provider = "external" needs terminal.external_cmd, e.g. "tmux split-window -h %s"')
      return false
    end
    local job = vim.fn.jobstart(line:gsub("%%s", function()
      return vim.fn.shellescape(shell_command(cmd, env))
    end), { cwd = cwd, env = env, detach = true })
    if job <= 0 then
      require("claude.notify").error("could not run terminal.external_cmd: " .. line)
      return false
    end
  end
  term.elsewhere = true
  return true
end

-- Where terminal.position puts a snacks window; "tab" is a tab page of
-- its own, the window filling it.
local SNACKS_POSITION = { right = "right", left = "left", above = "top", below = "bottom", float = "float" }

local function snacks_win()
  local t = cfg().terminal
  local pos = SNACKS_POSITION[t.position]
  if not pos then
    vim.cmd.tabnew()
    vim.bo.bufhidden = "wipe"
    return { position = "current" }
  elseif pos == "float" then
    return { position = pos, width = t.float.width, height = t.float.height, border = t.float.border }
  end
  local vertical = pos == "left" or pos == "right"
  return { position = pos, width = vertical and t.size or nil, height = (not vertical) and t.size or nil }
end

-- terminal.provider = "snacks": Snacks.terminal runs the CLI in a window
-- it makes (with its terminal style and keys). The session keeps the
-- buffer and the job as for a terminal of ours, so typing into Claude,
-- :ClaudeClose and the exit handling work the same; showing it again asks
-- snacks (see show).
local function start_snacks(s, cmd, env)
  local ok, snacks = pcall(require, "snacks")
  if not ok or type(snacks) ~= "table" or not snacks.terminal then
    require("claude.notify").error('terminal.provider = "snacks" needs folke/snacks.nvim, which is not installed; install it or use provider = "native"')
    return false
  end
  if not M.check_program() then
    return false
  end
  local insert = cfg().terminal.auto_insert
  local win
  ok, win = pcall(snacks.terminal.open, cmd, {
    cwd = s.cwd,
    env = env,
    -- on_exit closes it (and keeps it after a failure), as for ours.
    auto_close = false,
    start_insert = insert,
    auto_insert = insert,
    win = snacks_win(),
  })
  local buf = ok and type(win) == "table" and win.buf or nil
  local job = buf and vim.api.nvim_buf_is_valid(buf) and vim.b[buf].terminal_job_id or nil
  if not job then
    if buf then
      pcall(vim.api.nvim_buf_delete, buf, { force = true })
    end
    require("claude.notify").error("Snacks.terminal could not start " .. vim.inspect(cmd) .. (ok and "" or (": " .. tostring(win))))
    return false
  end
  s.buf, s.job, s.snacks = buf, job, win
  vim.t.claude_session = s.id
  vim.b[buf].claude_terminal = true
  -- For statusline plugins: the mode the CLI started in (nil: its arguments chose).
  vim.b[buf].claude_permission_mode = s.permission.mode
  require("claude.tools").set_buf_name(buf, "claude://" .. s.cwd, buf)
  vim.api.nvim_create_autocmd("TermClose", {
    group = vim.api.nvim_create_augroup("ClaudeTerminal" .. s.id, { clear = true }),
    buffer = buf,
    once = true,
    desc = "claude.nvim: Claude exited in its snacks terminal",
    callback = function()
      local code = vim.v.event.status
      vim.schedule(function()
        on_exit(job, code)
      end)
    end,
  })
  return true
end

-- The id a new session in this tab page takes: the session it had (its
-- CLI exited), else 1 when free (the server :ClaudeStart runs), else the
-- next free one.
local function new_session_id()
  local id = vim.t.claude_session
  if id and sessions[id] and not alive(sessions[id]) then
    return id
  end
  if not (sessions[1] and alive(sessions[1])) then
    return 1
  end
  id = 2
  while sessions[id] and alive(sessions[id]) do
    id = id + 1
  end
  return id
end

-- Starts (or finds running) session s's server; returns its info.
local function start_server(s)
  if s.id == 1 then
    return require("claude").start()
  end
  local info = require("claude")._start_session(s.id, s.cwd, s.port, s.token)
  if info then
    s.port, s.token = info.port, info.token
  end
  return info
end

--- Makes sure the current session's server runs (a tab page of no session
--- while others run gets a session of its own, its CLI started) and that
--- the Go host sends it what the user mentions; returns whether it runs.
function M.ensure_server()
  local s = select_current()
  if s then
    local ok = start_server(s) ~= nil
    M.sync()
    return ok
  end
  if #live_sessions() == 0 then
    return require("claude").start() ~= nil
  end
  return M.open()
end

--- Whether session id's CLI runs in a terminal of ours.
function M.session_running(id)
  return sessions[id] ~= nil and running(sessions[id])
end

--- Starts the servers of the sessions other than the first again, on
--- their ports, after the Go host restarted: their CLIs reconnect.
function M.restart_sessions()
  for _, s in ipairs(live_sessions()) do
    if s.id ~= 1 and (running(s) or s.elsewhere) then
      start_server(s)
    end
  end
end

-- Keeps the Go host told which session is current as the user moves.
local function follow_current()
  local group = vim.api.nvim_create_augroup("ClaudeSessions", { clear = true })
  vim.api.nvim_create_autocmd({ "TabEnter", "WinEnter", "DirChanged" }, {
    group = group,
    desc = "claude.nvim: selections and mentions go to this tab page's session",
    callback = function()
      M.sync()
    end,
  })
end

local start_in_terminal

local function start(args)
  follow_current()
  local id = new_session_id()
  local s = { id = id, cwd = M.session_cwd() }
  local info = start_server(s)
  if not info then
    return false
  end
  s.port = info.port
  local old = sessions[id]
  if old and old.buf and vim.api.nvim_buf_is_valid(old.buf) then
    pcall(vim.api.nvim_buf_delete, old.buf, { force = true })
  end
  sessions[id], term = s, s
  -- Alive while its window and job come up (their WinEnter asks).
  s.starting = true
  vim.t.claude_session = id
  local ok = start_in_terminal(s, info, args)
  s.starting = nil
  if not ok then
    sessions[id] = nil
  end
  M.sync()
  return ok
end

-- Starts session s's CLI in a terminal: ours, or the provider's.
start_in_terminal = function(s, info, args)
  local id, cwd = s.id, s.cwd
  -- The mode it starts in: shown by :ClaudeStatus, warned about when its
  -- edits skip the review.
  args, s.permission = require("claude.permission").args(args or {}, cwd)
  require("claude.permission").warn_no_review(s.permission)
  local provider = cfg().terminal.provider
  if provider == "snacks" then
    return start_snacks(s, command(args), M.env(info.port))
  elseif provider ~= "native" then
    return start_elsewhere(provider, command(args), M.env(info.port), cwd)
  end
  if not M.check_program() then
    return false
  end
  local buf = vim.api.nvim_create_buf(false, false)
  local win = M.open_window(buf)
  local opts = {
    cwd = cwd,
    env = M.env(info.port),
    on_exit = function(job, code)
      vim.schedule(function()
        on_exit(job, code)
      end)
    end,
  }
  local job
  vim.api.nvim_win_call(win, function()
    if vim.fn.has("nvim-0.11") == 1 then
      opts.term = true
      job = vim.fn.jobstart(command(args), opts)
    else
      job = vim.fn.termopen(command(args), opts)
    end
  end)
  if not job or job <= 0 then
    pcall(vim.api.nvim_buf_delete, buf, { force = true })
    require("claude.notify").notify("claude.nvim: could not start " .. vim.inspect(command(args)), vim.log.levels.ERROR)
    return false
  end
  s.buf, s.job = buf, job
  -- A tab page of its own (terminal.position = "tab") is the session's too.
  vim.t.claude_session = id
  vim.bo[buf].bufhidden = "hide"
  vim.bo[buf].buflisted = false
  vim.b[buf].claude_terminal = true
  -- A name and a filetype statusline plugins and autocmds can match on.
  local name = "claude://" .. opts.cwd
  require("claude.tools").set_buf_name(buf, name, buf)
  vim.bo[buf].filetype = "claude"
  local group = vim.api.nvim_create_augroup("ClaudeTerminal" .. id, { clear = true })
  vim.api.nvim_create_autocmd("BufEnter", {
    group = group,
    buffer = buf,
    desc = "claude.nvim: type straight into Claude",
    callback = enter_insert,
  })
  -- A terminal window scrolls with new output only while its cursor is on
  -- the last line: put it there when the user leaves, so Claude's answer
  -- stays in view while they read a diff or edit.
  vim.api.nvim_create_autocmd("VimResized", {
    group = group,
    desc = "claude.nvim: keep the floating terminal centred",
    callback = function()
      local win = vim.api.nvim_buf_is_valid(buf) and M.window_in_tab(buf) or nil
      if win and vim.api.nvim_win_get_config(win).relative ~= "" then
        vim.api.nvim_win_set_config(win, float_config())
      end
    end,
  })
  vim.api.nvim_create_autocmd("WinLeave", {
    group = group,
    buffer = buf,
    desc = "claude.nvim: keep following Claude's output",
    callback = function()
      pcall(vim.api.nvim_win_set_cursor, 0, { vim.api.nvim_buf_line_count(buf), 0 })
    end,
  })
  enter_insert()
  return true
end

local function show()
  local win = window()
  if win then
    vim.api.nvim_set_current_win(win)
  elseif term.snacks then
    term.snacks:show():focus() -- where snacks puts it
  else
    M.open_window(term.buf)
  end
  enter_insert()
end

--- Hides the terminal if it floats in this tab page, where it would cover
--- a diff; reports whether it did.
function M.hide_float()
  select_current()
  local win = window()
  if win and vim.api.nvim_win_get_config(win).relative ~= "" then
    vim.api.nvim_win_hide(win)
    return true
  end
  return false
end

--- Shows the floating terminal again after hide_float (unless the CLI has
--- exited or the user brought it back already).
function M.show_float()
  if M.is_running() and not window() then -- is_running selects the session
    show()
  end
end

--- Shows the Claude terminal and focuses it, starting the CLI if none runs.
---@param args string[]|nil passed to the CLI when it starts
function M.open(args)
  select_current()
  if term.elsewhere then
    if M.clients() > 0 then
      -- A terminal of the user's own (terminal.provider): not ours to show.
      start_server(term)
      require("claude.notify").info("Claude runs in its own terminal (terminal.provider); it is connected")
      return true
    end
    term.elsewhere = nil -- it went away: start it again
  end
  if running(term) then
    -- The server may have been stopped (:ClaudeStop) while the CLI kept
    -- running: start it again, on the port the CLI knows.
    if not start_server(term) then
      return false
    end
    if args and #args > 0 then
      require("claude.notify").notify("claude.nvim: Claude is already running; :ClaudeClose it to start with new arguments", vim.log.levels.WARN)
    end
    show()
    M.sync()
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

--- Goes to session id: its tab page, else shows its terminal here (and
--- this tab page becomes the session's).
function M.go_to(id)
  local s = sessions[id]
  if not s or not alive(s) then
    return false
  end
  for _, tab in ipairs(vim.api.nvim_list_tabpages()) do
    local ok, owner = pcall(vim.api.nvim_tabpage_get_var, tab, "claude_session")
    if ok and owner == id then
      vim.api.nvim_set_current_tabpage(tab)
      M.sync()
      return true
    end
  end
  vim.t.claude_session = id
  term = s
  if running(s) then
    show()
  end
  M.sync()
  return true
end

--- Focuses the terminal (showing it if hidden, starting it if needed).
function M.focus()
  return M.open()
end

--- Hides a visible terminal (the CLI keeps running), shows a hidden one.
---@param args string[]|nil
function M.toggle(args)
  select_current()
  local win = window()
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
  local s = select_current()
  if not s then
    if #live_sessions() > 0 then
      require("claude.notify").info("no Claude session in this tab page (:ClaudeSessions lists them)")
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
  end_session(s)
end

return M
