-- The Claude terminal: a split running the CLI with the environment that
-- makes it connect to our server (CLAUDE_CODE_SSE_PORT).
local M = {}

local term = {
  buf = nil, -- terminal buffer, kept while hidden
  job = nil, -- job id while the CLI runs
  cwd = nil, -- the directory the CLI runs in
}

local LOOPBACK = { "127.0.0.1", "localhost", "::1" }

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
  if M.is_running() then
    vim.api.nvim_chan_send(term.job, data)
  end
end

--- Whether Claude was started by terminal.provider in a terminal that is
--- not Neovim's (nothing of ours to show, focus or type into).
function M.elsewhere()
  return term.elsewhere == true
end

--- The directory the running CLI was started in, or nil.
function M.cwd()
  return M.is_running() and term.cwd or nil
end

function M.is_running()
  return term.job ~= nil and term.buf ~= nil and vim.api.nvim_buf_is_valid(term.buf)
end

--- The terminal buffer, or nil.
function M.buf()
  if term.buf and vim.api.nvim_buf_is_valid(term.buf) then
    return term.buf
  end
  return nil
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
  local buf = M.buf()
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

local function on_exit(job, code)
  if term.job ~= job then
    return
  end
  term.job = nil
  local buf = term.buf
  require("claude.events").fire("ClaudeTerminalExited", { code = code })
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
  term.elsewhere, term.cwd = true, cwd
  return true
end

local function start(args)
  local info = require("claude").start()
  if not info then
    return false
  end
  local provider = cfg().terminal.provider
  local cwd = M.session_cwd()
  if provider ~= "native" then
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
  term.buf, term.job, term.cwd = buf, job, opts.cwd
  vim.bo[buf].bufhidden = "hide"
  vim.bo[buf].buflisted = false
  vim.b[buf].claude_terminal = true
  -- A name and a filetype statusline plugins and autocmds can match on.
  local name = "claude://" .. opts.cwd
  require("claude.tools").set_buf_name(buf, name, buf)
  vim.bo[buf].filetype = "claude"
  local group = vim.api.nvim_create_augroup("ClaudeTerminal", { clear = true })
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
      local win = window()
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
  else
    M.open_window(term.buf)
  end
  enter_insert()
end

--- Hides the terminal if it floats in this tab page, where it would cover
--- a diff; reports whether it did.
function M.hide_float()
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
  if M.is_running() and not window() then
    show()
  end
end

--- Shows the Claude terminal and focuses it, starting the CLI if none runs.
---@param args string[]|nil passed to the CLI when it starts
function M.open(args)
  if term.elsewhere and require("claude.state").clients > 0 then
    -- A terminal of the user's own (terminal.provider): not ours to show.
    require("claude").start()
    require("claude.notify").info("Claude runs in its own terminal (terminal.provider); it is connected")
    return true
  end
  if M.is_running() then
    -- The server may have been stopped (:ClaudeStop) while the CLI kept
    -- running: start it again, on the port the CLI knows.
    if not require("claude").start() then
      return false
    end
    if args and #args > 0 then
      require("claude.notify").notify("claude.nvim: Claude is already running; :ClaudeClose it to start with new arguments", vim.log.levels.WARN)
    end
    show()
    return true
  end
  if M.buf() then
    -- The previous CLI exited with an error; its output stays readable
    -- until a new one replaces it.
    pcall(vim.api.nvim_buf_delete, term.buf, { force = true })
    term.buf = nil
  end
  return start(args)
end

--- Focuses the terminal (showing it if hidden, starting it if needed).
function M.focus()
  return M.open()
end

--- Hides a visible terminal (the CLI keeps running), shows a hidden one.
---@param args string[]|nil
function M.toggle(args)
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

--- Stops the CLI and removes its buffer.
function M.close()
  local buf = M.buf()
  if term.job then
    pcall(vim.fn.jobstop, term.job)
    term.job = nil
  end
  if buf then
    if #vim.api.nvim_list_wins() == #vim.fn.win_findbuf(buf) then
      -- Never leave Neovim without a window.
      vim.cmd.new()
    end
    pcall(vim.api.nvim_buf_delete, buf, { force = true })
  end
  term.buf = nil
end

return M
