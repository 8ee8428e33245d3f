-- Background work in the chat (issue 39 item 7): a running command or
-- subagent sent to the background (:Claude chat background, <C-b> in the
-- input: the CLI's Ctrl+B), the background tasks in the task list with
-- their state (chat/tasks.lua draws them), their output (o there) and
-- stopping one (x there); the turn's end says what still runs. Below
-- tasks.lua, which asks it for the lines.
local M = {}

local state = require("claude.chat.state")

-- What a task is, in words: its description, and the tool behind it.
local KIND = { local_bash = "command", local_agent = "subagent" }

--- Keeps c's tasks in step with an "agent" item (the CLI's task lines: a
--- task started, sent to the background, ended); true when a background
--- task changed (the task list is drawn again: chat/tasks.lua).
function M.track(c, it)
  if not it.task_id or it.task_id == "" then
    return false
  end
  c.bg = c.bg or {}
  local t = c.bg[it.task_id]
  if not t then
    t = { task_id = it.task_id, order = vim.tbl_count(c.bg) + 1 }
    c.bg[it.task_id] = t
  end
  t.id = (it.id ~= nil and it.id ~= "") and it.id or t.id
  t.kind = (it.subtype ~= nil and it.subtype ~= "") and it.subtype or t.kind
  t.description = (it.description ~= nil and it.description ~= "") and it.description or t.description
  t.state = it.text or t.state
  t.background = t.background or it.background
  if it.report and it.report ~= "" then
    t.report = it.report
  end
  return t.background == true
end

local function sorted(c)
  local out = {}
  for _, t in pairs(c.bg or {}) do
    if t.background then
      table.insert(out, t)
    end
  end
  table.sort(out, function(a, b)
    return a.order < b.order
  end)
  return out
end

--- The background tasks of c, oldest first.
M.list = sorted

-- A task's line in the task list.
function M.label(t)
  local what = string.format("%s (%s)", t.description or t.task_id, KIND[t.kind] or t.kind or "task")
  if t.state == "running" then
    return what .. " · running in the background (o output, x stop)"
  end
  return what .. " · " .. (t.state == "completed" and "done" or t.state or "?") .. " (o output)"
end

--- The turn's end note: what still runs in the background, or nil.
function M.note(c)
  local running = {}
  for _, t in ipairs(sorted(c)) do
    if t.state == "running" then
      table.insert(running, string.format("%s (%s)", t.description or t.task_id, KIND[t.kind] or "task"))
    end
  end
  if #running == 0 then
    return nil
  end
  return "_Still running in the background: " .. table.concat(running, ", ") .. " (gl: the task list)_"
end

--- Sends what runs in the foreground of dir's chat to the background.
---@param dir string|nil
function M.send(dir)
  dir = dir or state.current_dir()
  local c = state.chats[dir]
  if not c or not c.busy then
    require("claude.notify").info("nothing runs in the chat's foreground")
    return
  end
  require("claude.host").chat_background(dir, "")
end

--- The output of task t (its end), in a list below.
function M.output(c, t)
  require("claude.host").chat_task_output(c.dir, t.task_id)
end

--- Stops task t.
function M.stop(c, t)
  require("claude.host").stop_chat_task(c.dir, t.task_id)
end

--- The host's "task_output" item: the output in a list of its own.
function M.show_output(c, _, it)
  local panel = require("claude.chat.panel")
  local p = panel.get("output", c.dir, {
    {
      "panels.refresh",
      "read the output again",
      function(pp)
        require("claude.host").chat_task_output(pp.dir, pp.task_id)
      end,
    },
  })
  p.task_id = it.task_id
  local t = c.bg and c.bg[it.task_id]
  local lines = { "Output of " .. (t and t.description or it.task_id) .. panel.hint({ { "panels.refresh", "reads it again" }, { "panels.close", "closes" } }) }
  if it.text and it.text ~= "" then
    table.insert(lines, "Error: " .. it.text)
  else
    table.insert(lines, it.summary or "")
    vim.list_extend(lines, it.body or {})
  end
  panel.set(p, lines)
  panel.show(p, false)
end

return M
