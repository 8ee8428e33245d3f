-- Subagents in the transcript (issue 25.2). An Agent tool line opens a
-- group: its input, the subagent's own tool lines and results, the Agent's
-- result and a last line with the subagent's state, all in one fold
-- closed under the tool line. The tool line itself says, in place, what the
-- subagent does now (running, its last tool, done with its duration).
--
-- A subagent runs in the background by default (2.1.332), so its lines
-- come while the conversation goes on below: they are inserted above the
-- group's last line, inside its fold, where Neovim grows the fold in every
-- window by itself and keeps it open or closed as the user left it. What
-- keeps line numbers (the folds kept for windows opened later, the
-- markdown highlighter, a thinking block being streamed) is shifted here.
local M = {}

local highlight = require("claude.chat.highlight")

local NS = vim.api.nvim_create_namespace("claude_chat_agents")
M.NS = NS

local BODY = "  │ "

-- The tool names that start a subagent: "Agent" on the wire; "Task" is its
-- older name (and system/init's).
local STARTS = { Agent = true, Task = true }

vim.api.nvim_set_hl(0, "ClaudeChatAgentRunning", { link = "DiagnosticInfo", default = true })
vim.api.nvim_set_hl(0, "ClaudeChatAgentDone", { link = "DiagnosticOk", default = true })
vim.api.nvim_set_hl(0, "ClaudeChatAgentStopped", { link = "DiagnosticWarn", default = true })

local clean = require("claude.chat.state").clean

local function first_line(s)
  return (tostring(s or ""):gsub("\n.*", ""))
end

local function duration(ms)
  if (ms or 0) < 1000 then
    return string.format("%d ms", ms or 0)
  end
  return string.format("%.1f s", ms / 1000)
end

--- Whether a tool item starts a subagent's group.
function M.starts(it)
  return STARTS[it.name] == true
end

local function row_of(buf, mark)
  local pos = vim.api.nvim_buf_get_extmark_by_id(buf, NS, mark, {})
  return pos[1]
end

-- The tool line: the call, and what its subagent does now.
local function header(a)
  local s = string.format("● %s(%s)", a.name, first_line(a.summary))
  local st = a.state
  if not st then
    return s
  end
  local tools = (a.tool_uses or 0) == 1 and "1 tool" or string.format("%d tools", a.tool_uses or 0)
  if st == "running" then
    s = s .. " · running" .. (a.background and " in the background" or "")
    if a.last_tool and a.last_tool ~= "" then
      s = s .. " · " .. a.last_tool
    end
    return s .. " · " .. tools
  end
  local word = st == "completed" and "done" or st
  return string.format("%s · %s in %s · %s", s, word, duration(a.duration_ms), tools)
end

-- The group's last line: the subagent's state and report.
local function footer(a)
  local st = a.state or "running"
  if st == "running" then
    return "  ⎿  " .. (a.activity ~= nil and a.activity ~= "" and a.activity or "running…")
      .. (a.task_id and "  (stop: :Claude chat cancel-agent)" or "")
  end
  -- CLI 2.1.197 gives the task's description as its summary: no report.
  local report = a.report and a.report ~= "" and a.report ~= a.summary and (": " .. first_line(a.report)) or ""
  return string.format("  ⎿  %s%s", st == "completed" and "Done" or (st:sub(1, 1):upper() .. st:sub(2)), report)
end

local HL = { running = "ClaudeChatAgentRunning", completed = "ClaudeChatAgentDone" }

local function paint(buf, a)
  -- Each line replaced as text: its marks and the folds stay where they are.
  for _, l in ipairs({ { a.head, header(a) }, { a.tail, footer(a) } }) do
    local row = row_of(buf, l[1])
    local old = vim.api.nvim_buf_get_lines(buf, row, row + 1, false)[1]
    vim.api.nvim_buf_set_text(buf, row, 0, row, #old, { clean(l[2]) })
  end
  local hrow = row_of(buf, a.head)
  vim.api.nvim_buf_clear_namespace(buf, a.hl, hrow, hrow + 1)
  if a.state then
    local group = HL[a.state] or "ClaudeChatAgentStopped"
    vim.api.nvim_buf_set_extmark(buf, a.hl, hrow, 0, { end_col = #vim.api.nvim_buf_get_lines(buf, hrow, hrow + 1, false)[1], hl_group = group })
  end
end

-- Keeps what counts lines in step with n lines inserted before 1-based
-- line at: the folds kept for windows opened later (Neovim moves and grows
-- the folds of open windows itself) and the thinking block being streamed.
local function shifted(c, buf, at, n)
  for _, f in ipairs(c.folds or {}) do
    if f[1] >= at then
      f[1], f[2] = f[1] + n, f[2] + n
    elseif f[2] >= at then
      f[2] = f[2] + n
    end
  end
  if c.thinking_at and c.thinking_at >= at then
    c.thinking_at = c.thinking_at + n
  end
  highlight.inserted(buf, at - 1, n)
end

local fold = require("claude.chat.state").fold

--- Renders an Agent tool line as a new group (add: render.lua's way to
--- add lines at the end).
function M.start(c, buf, it, add)
  local a = { name = it.name, summary = it.summary }
  local lines = { header(a) }
  for _, l in ipairs(it.body or {}) do
    table.insert(lines, BODY .. l)
  end
  table.insert(lines, footer(a))
  local count = #lines -- add puts a blank line first when it separates
  add(c, buf, lines, c.last ~= "tool")
  local n = vim.api.nvim_buf_line_count(buf)
  local first = n - count + 1
  a.head = vim.api.nvim_buf_set_extmark(buf, NS, first - 1, 0, {})
  a.tail = vim.api.nvim_buf_set_extmark(buf, NS, n - 1, 0, {})
  a.hl = vim.api.nvim_create_namespace("")
  c.agents = c.agents or {}
  c.agents[it.id] = a
  fold(c, first, n)
  a.fold = c.folds[#c.folds] -- kept in step by shifted and regroup
  c.last = "tool"
end

-- Makes the group's fold span its lines again in every window, open or
-- closed as it was: Neovim grows a fold for lines inserted inside it, but
-- not for lines inserted above its last line, where a group's new lines go.
local function regroup(c, buf, a)
  local head, tail = row_of(buf, a.head) + 1, row_of(buf, a.tail) + 1
  a.fold[1], a.fold[2] = head, tail
  for _, win in ipairs(vim.fn.win_findbuf(c.tbuf)) do
    vim.api.nvim_win_call(win, function()
      local closed = vim.fn.foldclosed(head) ~= -1
      local view = vim.fn.winsaveview()
      vim.api.nvim_win_set_cursor(0, { head, 0 })
      vim.cmd("silent! normal! zd") -- the group's fold: the innermost at its first line
      vim.cmd(string.format("silent! %d,%dfold", head, tail))
      if not closed then
        vim.cmd(string.format("silent! %dfoldopen", head))
      end
      vim.fn.winrestview(view)
    end)
  end
end

-- Inserts lines above the group's last line, inside its fold; returns
-- the 1-based line the first one landed on.
local function insert(c, buf, a, lines)
  for i, l in ipairs(lines) do
    lines[i] = clean(l)
  end
  local row = row_of(buf, a.tail)
  vim.api.nvim_buf_set_lines(buf, row, row, false, lines)
  -- The mark stays on the last line (it moved down with it, or is put back).
  vim.api.nvim_buf_set_extmark(buf, NS, row + #lines, 0, { id = a.tail })
  shifted(c, buf, row + 1, #lines)
  regroup(c, buf, a)
  return row + 1
end

--- Renders a tool or result item of a subagent (it.parent) or the Agent
--- tool's own result inside its group. Returns false when no group takes it
--- (render.lua renders it as usual).
function M.line(c, buf, it)
  local key = it.parent
  if (key == nil or key == "") and it.kind == "result" then
    key = it.id -- the Agent tool's own result
  end
  local a = c.agents and key and c.agents[key]
  if not a then
    return false
  end
  local lines
  if it.kind == "tool" then
    lines = { BODY .. string.format("● %s(%s)", it.name, first_line(it.summary)) }
    for _, l in ipairs(it.body or {}) do
      table.insert(lines, BODY .. BODY .. l)
    end
  else
    local text = it.text or ""
    if (it.lines or 0) > 1 then
      text = string.format("%s … (%d lines)", text, it.lines)
    end
    -- The Agent's own result (what the model got back) at the group's
    -- level; the subagent's results under their calls.
    local indent = key == it.id and "" or BODY
    lines = { indent .. "  ⎿  " .. (it.is_error and "Error: " or "") .. text }
    for _, l in ipairs(it.body or {}) do
      table.insert(lines, indent .. BODY .. l)
    end
  end
  local first = insert(c, buf, a, lines)
  fold(c, first, first + #lines - 1, row_of(buf, a.head) + 1)
  return true
end

--- A subagent's state (an "agent" item): its tool line and last line say
--- it, in place.
function M.state(c, buf, it)
  local a = c.agents and c.agents[it.id]
  if not a then
    return
  end
  a.state, a.task_id = it.text, it.task_id
  a.started = a.started or vim.uv.now()
  a.background = a.background or it.background
  if it.summary and it.summary ~= "" then
    a.activity = it.summary
  end
  if it.last_tool and it.last_tool ~= "" then
    a.last_tool = it.last_tool
  end
  a.tool_uses = math.max(a.tool_uses or 0, it.tool_uses or 0)
  a.duration_ms = it.duration_ms or a.duration_ms
  if it.text ~= "running" and (a.duration_ms or 0) == 0 then
    -- A stopped task's notification has no usage: timed from its start here.
    a.duration_ms = vim.uv.now() - a.started
  end
  if it.report and it.report ~= "" then
    a.report = it.report
  end
  paint(buf, a)
end

--- The running subagent at or above the cursor's line of the transcript
--- (the innermost group holding it), else the only one running; nil when
--- none runs.
function M.running_at(c, row)
  local best, best_row, only, count = nil, -1, nil, 0
  for _, a in pairs(c.agents or {}) do
    if a.state == "running" and a.task_id then
      count, only = count + 1, a
      local h, t = row_of(c.tbuf, a.head), row_of(c.tbuf, a.tail)
      if row and h <= row and row <= t and h > best_row then
        best, best_row = a, h
      end
    end
  end
  return best or (count == 1 and only or nil)
end

--- Stops the running subagent under the cursor in chat c's transcript
--- (or the only one running): gC, :Claude chat cancel-agent. The CLI says it
--- stopped (its line then reads "stopped").
function M.stop(c)
  local row
  if c.tbuf and vim.api.nvim_get_current_buf() == c.tbuf then
    row = vim.api.nvim_win_get_cursor(0)[1] - 1
  end
  local a = M.running_at(c, row)
  if not a then
    local n = 0
    for _, x in pairs(c.agents or {}) do
      n = n + ((x.state == "running" and x.task_id) and 1 or 0)
    end
    require("claude.notify").info(n == 0 and "no subagent is running in this chat" or "several subagents run: put the cursor in the one to stop")
    return
  end
  require("claude.host").stop_chat_task(c.dir, a.task_id)
end

return M
