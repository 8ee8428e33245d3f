-- Ends the chat CLIs a dead Go host leaves behind (host.lua calls it on
-- the host's exit). Its death closes their stdin, but a CLI mid-turn goes
-- on with the turn (the model's answer, its tools) for as long as that
-- lasts, unseen, before it exits (chat/doc.go); and it must be gone before
-- a new CLI resumes the same conversation (chat/revive.lua waits for that
-- with M.after).
local M = {}

-- How long the CLIs get, after a SIGTERM, to end on their own before their
-- process groups are killed. Their own end matters: a CLI runs each Bash
-- command in a session of its own, out of reach of a kill of its group,
-- and 2.1.332 kills those itself on SIGTERM (2.2 s mid-command); 2.1.197
-- leaves them, so what is left below the CLIs then is killed by pid.
local TERM_GRACE_MS = 5000

-- How often, meanwhile, we look whether they are gone: they are not our
-- children, so nothing tells us.
local POLL_MS = 50

local ending = 0 -- how many dead hosts' CLIs are still ending
local waiting = {} -- what to call once none is

local function alive(pid)
  return vim.uv.kill(pid, 0) == 0
end

-- A process's parent and start time (clock ticks since boot: with the pid,
-- it names one process, as a pid alone may be reused), from Linux's /proc.
local function stat(pid)
  local f = io.open("/proc/" .. pid .. "/stat", "r")
  if not f then
    return nil
  end
  local line = f:read("*l") or ""
  f:close()
  -- After the command name, which may hold ") ": fields 3 (state), 4
  -- (ppid), …, 22 (start time).
  local rest = line:match(".*%) (.*)$")
  if not rest then
    return nil
  end
  local fields = vim.split(rest, " ", { plain = true })
  return tonumber(fields[2]), fields[20]
end

-- The processes below pids (their children, theirs, …), each { pid,
-- start }; none where there is no /proc.
local function descendants(pids)
  local dir = vim.uv.fs_scandir("/proc")
  if not dir then
    return {}
  end
  local children, starts = {}, {}
  while true do
    local name = vim.uv.fs_scandir_next(dir)
    if not name then
      break
    end
    local pid = tonumber(name)
    local ppid, start
    if pid then
      ppid, start = stat(pid)
    end
    if ppid then
      children[ppid] = children[ppid] or {}
      table.insert(children[ppid], pid)
      starts[pid] = start
    end
  end
  local out, todo = {}, vim.list_extend({}, pids)
  while #todo > 0 do
    for _, child in ipairs(children[table.remove(todo)] or {}) do
      table.insert(out, { pid = child, start = starts[child] })
      table.insert(todo, child)
    end
  end
  return out
end

local function done()
  ending = ending - 1
  if ending > 0 then
    return
  end
  local after = waiting
  waiting = {}
  for _, fn in ipairs(after) do
    pcall(fn)
  end
end

--- Ends the chat CLIs (pids, each leading its process group) of a Go host
--- that died: SIGTERM now; once they are gone, or after TERM_GRACE_MS, the
--- groups of those left and what ran below them are killed.
---@param pids integer[]
function M.chats(pids)
  -- Taken now, while the CLIs are still the parents of what they run.
  local below = descendants(pids)
  for _, pid in ipairs(pids) do
    pcall(vim.uv.kill, -pid, "sigterm")
  end
  ending = ending + 1
  local timer, since = vim.uv.new_timer(), vim.uv.now()
  timer:start(
    POLL_MS,
    POLL_MS,
    vim.schedule_wrap(function()
      if timer:is_closing() then
        return
      end
      local left = vim.tbl_filter(alive, pids)
      if #left > 0 and vim.uv.now() - since < TERM_GRACE_MS then
        return
      end
      timer:close()
      for _, pid in ipairs(left) do
        pcall(vim.uv.kill, -pid, "sigkill")
      end
      for _, p in ipairs(below) do
        if select(2, stat(p.pid)) == p.start then
          pcall(vim.uv.kill, p.pid, "sigkill")
        end
      end
      done()
    end)
  )
end

--- Calls fn once the chat CLIs of dead hosts are gone (at once if none is
--- ending): chat/revive.lua resumes their conversations then, so that two
--- CLIs never write one conversation.
---@param fn function
function M.after(fn)
  if ending > 0 then
    table.insert(waiting, fn)
  else
    fn()
  end
end

return M
