-- :Claude open remote=NAME: the CLI started on a remote's side, in a
-- terminal buffer here, through the remote's terminal command (ssh -t
-- HOST, docker exec -it CONTAINER), in the directory the map gives the
-- editor's cwd there, with --ide: it finds the relay's lock (the remote is
-- connected first) and connects like a CLI the user started there.
local M = {}

local window = require("claude.terminal.window")

-- name -> { buf, job } of a remote CLI started here.
local terms = {}

-- A word for the remote's sh: single quotes, each ' spelt '\''.
local function quote(s)
  return "'" .. tostring(s):gsub("'", [['\'']]) .. "'"
end

--- The path of local directory dir on remote r (its map's longest local
--- directory holding dir), or nil when no mapping holds it.
---@param r table a remotes entry
---@param dir string absolute
function M.remote_dir(r, dir)
  dir = dir:gsub("/$", "")
  local best_local, best_remote
  for remote, l in pairs(r.map or {}) do
    local lp = vim.fn.fnamemodify(vim.fn.expand(l), ":p"):gsub("/$", "")
    if (dir == lp or vim.startswith(dir, lp .. "/")) and (not best_local or #lp > #best_local) then
      best_local, best_remote = lp, remote:gsub("/$", "")
    end
  end
  if not best_local then
    return nil
  end
  return best_remote .. dir:sub(#best_local + 1)
end

--- The remote whose `default` is set and whose map holds dir (the
--- per-directory choice of plain :Claude open), or nil.
function M.default_for(dir)
  local names = require("claude.remote").names()
  for _, name in ipairs(names) do
    local r = require("claude.config").get().remotes[name]
    if r.default and M.remote_dir(r, dir) then
      return name
    end
  end
  return nil
end

--- The command line that runs the CLI on remote r in its directory dir:
--- r.terminal, then `sh -c 'cd DIR && exec CLAUDE --ide ARGS'`. ssh passes
--- its remote command to the remote shell as one string, so for ssh the
--- three words are quoted into one; other transports (docker exec, kubectl
--- exec) take them as they are.
function M.command(r, dir, args)
  local words = {}
  for _, a in ipairs(r.claude or { "claude" }) do
    table.insert(words, quote(a))
  end
  table.insert(words, "--ide")
  for _, a in ipairs(args or {}) do
    table.insert(words, quote(a))
  end
  local script = "cd " .. quote(dir) .. " && exec " .. table.concat(words, " ")
  local cmd = vim.deepcopy(r.terminal)
  if vim.fs.basename(cmd[1]) == "ssh" then
    table.insert(cmd, "sh -c " .. quote(script))
  else
    vim.list_extend(cmd, { "sh", "-c", script })
  end
  return cmd
end

local function running(name)
  local t = terms[name]
  return t and t.job and vim.api.nvim_buf_is_valid(t.buf) and t or nil
end

-- Starts the job in buf's window (made again if the user closed it while
-- the remote connected). The cursor goes there only if it is there
-- already: a connection that took a while never takes the keys the user
-- types elsewhere.
local function start_job(name, buf, cmd)
  local win = window.in_tab(buf)
  if not win then
    local here = vim.api.nvim_get_current_win()
    win = window.open(buf)
    vim.api.nvim_set_current_win(here)
  end
  local opts = {
    on_exit = function(_, code)
      vim.schedule(function()
        local ours = terms[name] and terms[name].buf == buf -- not ended by M.close
        if ours then
          terms[name].job = nil
        end
        if ours and code ~= 0 and vim.v.exiting == vim.NIL then
          require("claude.notify").warn(string.format("the Claude of remote %s exited with code %d; its terminal keeps what it printed", name, code))
        end
      end)
    end,
  }
  local job = require("claude.terminal.native").open_job(win, cmd, opts)
  if not job or job <= 0 then
    require("claude.notify").notify("claude.nvim: could not start " .. vim.inspect(cmd), vim.log.levels.ERROR)
    return
  end
  terms[name].job = job
  if vim.api.nvim_get_current_win() == win then
    window.enter_insert()
  end
end

--- Opens (or shows) the CLI of remote name; args go to it.
---@return boolean ok, string|nil err
function M.open(name, args)
  local r = (require("claude.config").get().remotes or {})[name]
  if not r then
    return false, string.format("no remote %q in setup({ remotes = ... })", name or "")
  end
  if type(r.terminal) ~= "table" or #r.terminal == 0 then
    return false,
      string.format("remote %s has no terminal command to start Claude there: add terminal = { 'ssh', '-t', 'HOST' } (or { 'docker', 'exec', '-it', 'CONTAINER' })", name)
  end
  local cwd = vim.fn.getcwd()
  local dir = M.remote_dir(r, cwd)
  if not dir then
    return false, string.format("%s is outside remote %s's map: :cd into one of its local directories first", cwd, name)
  end
  local t = running(name)
  if t then
    local win = window.in_tab(t.buf) or window.open(t.buf)
    vim.api.nvim_set_current_win(win)
    window.enter_insert()
    return true
  end
  local buf = vim.api.nvim_create_buf(false, false)
  vim.bo[buf].bufhidden = "hide"
  vim.b[buf].claude_remote = name
  require("claude.buffers").set_buf_name(buf, "claude://" .. name .. ":" .. dir, buf)
  terms[name] = { buf = buf }
  window.open(buf)
  local remote = require("claude.remote")
  local state = remote.states()[name]
  if not (state and state.state == "connected") then
    local ok, err = remote.connect(name)
    if not ok then
      return false, err
    end
  end
  remote.when_connected(name, function(s)
    if not vim.api.nvim_buf_is_valid(buf) then
      return
    end
    if s.state ~= "connected" then
      vim.api.nvim_buf_set_lines(buf, 0, -1, false, { "remote " .. name .. ": " .. (s.error or s.state) })
      return
    end
    -- The relay's settings first: the CLI's hook events come back over
    -- the relay (the change ledger, the attention list).
    local cli_args = vim.deepcopy(args or {})
    if s.hook_settings and s.hook_settings ~= "" then
      table.insert(cli_args, 1, "--settings")
      table.insert(cli_args, 2, s.hook_settings)
    end
    start_job(name, buf, M.command(r, dir, cli_args))
  end)
  return true
end

--- Ends remote name's CLI (its terminal command's job: the remote side
--- loses its terminal, and the CLI with it) and deletes its terminal.
---@return boolean closed false when remote name has no terminal here
function M.close(name)
  local t = terms[name]
  if not t then
    return false
  end
  terms[name] = nil
  if t.job then
    pcall(vim.fn.jobstop, t.job)
  end
  if vim.api.nvim_buf_is_valid(t.buf) then
    if #vim.api.nvim_list_wins() == #vim.fn.win_findbuf(t.buf) then
      vim.cmd.new() -- never leave Neovim without a window
    end
    pcall(vim.api.nvim_buf_delete, t.buf, { force = true })
  end
  return true
end

--- The remote whose terminal is shown in the current tab page (the
--- current window's first), or nil.
function M.shown_here()
  local wins = vim.api.nvim_tabpage_list_wins(0)
  table.insert(wins, 1, vim.api.nvim_get_current_win())
  for _, win in ipairs(wins) do
    local name = vim.b[vim.api.nvim_win_get_buf(win)].claude_remote
    if name and terms[name] then
      return name
    end
  end
end

--- The terminal buffer of remote name's CLI, or nil.
function M.buf(name)
  local t = running(name)
  return t and t.buf or nil
end

return M
