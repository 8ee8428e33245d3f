-- The task list Claude keeps (issue 25.1), in a small window of its own
-- between the transcript and the input: one line per task, replaced in
-- place on every change. Not in the transcript: a block pinned at its end
-- would move with every streamed line (the transcript only grows at its
-- end, chat/render.lua), and a line per update buries the conversation. Not
-- a float: a float covers the transcript the user reads, where a split
-- takes its own rows. The window is opened without entering it, so it never
-- takes the keys of a user typing elsewhere; its buffer is a plain one,
-- searchable and yankable. gl in the transcript (or :Claude chat tasks)
-- shows or hides it.
local M = {}

local state = require("claude.chat.state")

vim.api.nvim_set_hl(0, "ClaudeChatTaskDone", { link = "Comment", default = true })
vim.api.nvim_set_hl(0, "ClaudeChatTaskDoing", { link = "DiagnosticWarn", default = true })
vim.api.nvim_set_hl(0, "ClaudeChatTaskPending", { link = "Normal", default = true })
vim.api.nvim_set_hl(0, "ClaudeChatTaskTitle", { link = "Title", default = true })

local NS = vim.api.nvim_create_namespace("claude_chat_tasks")

-- The most rows the window takes; a longer list scrolls in it.
local MAX_HEIGHT = 8

local MARKS = {
  completed = { "✔", "ClaudeChatTaskDone" },
  in_progress = { "◐", "ClaudeChatTaskDoing" },
  pending = { "☐", "ClaudeChatTaskPending" },
}

-- The list as lines, with each line's highlight group, and the background
-- tasks (chat/background.lua) by line.
local function lines_of(tasks, bg)
  local done = 0
  for _, t in ipairs(tasks) do
    if t.status == "completed" then
      done = done + 1
    end
  end
  local lines = { string.format("Tasks: %d of %d done", done, #tasks) }
  local groups = { "ClaudeChatTaskTitle" }
  for _, t in ipairs(tasks) do
    local mark = MARKS[t.status] or MARKS.pending
    local text = t.subject or ""
    if t.status == "in_progress" and t.active_form and t.active_form ~= "" then
      text = t.active_form .. "…"
    end
    table.insert(lines, state.clean(string.format("%s %s", mark[1], text)))
    table.insert(groups, mark[2])
  end
  if #tasks == 0 then
    lines, groups = {}, {}
  end
  local rows = {}
  if #bg > 0 then
    table.insert(lines, "Background")
    table.insert(groups, "ClaudeChatTaskTitle")
    local label = require("claude.chat.background").label
    for _, t in ipairs(bg) do
      local mark = t.state == "running" and MARKS.in_progress or t.state == "completed" and MARKS.completed or { "✗", "ClaudeChatTaskPending" }
      table.insert(lines, state.clean(string.format("%s %s", mark[1], label(t))))
      table.insert(groups, mark[2])
      rows[#lines] = t
    end
  end
  return lines, groups, rows
end

local function buffer(c)
  if c.taskbuf and vim.api.nvim_buf_is_valid(c.taskbuf) then
    return c.taskbuf
  end
  local buf = vim.api.nvim_create_buf(false, true)
  require("claude.buffers").set_buf_name(buf, "claude-tasks://" .. c.dir, buf)
  vim.bo[buf].filetype = "claude_tasks"
  vim.bo[buf].modifiable = false
  vim.b[buf].claude_chat_dir = c.dir
  -- On a background task's line: its output, or stop it.
  for _, what in ipairs({ "output", "stop" }) do
    require("claude.keys").map(buf, "tasks." .. what, function()
      local t = c.task_rows and c.task_rows[vim.api.nvim_win_get_cursor(0)[1]]
      if t then
        require("claude.chat.background")[what](c, t)
      end
    end)
  end
  c.taskbuf = buf
  return buf
end

local function window_of(buf)
  local wins = vim.fn.win_findbuf(buf)
  return wins[1]
end

-- Opens the list's window above the chat's input (or below the
-- transcript), without entering it.
local function open(c)
  local buf = buffer(c)
  local win = window_of(buf)
  local height = math.min(vim.api.nvim_buf_line_count(buf), MAX_HEIGHT)
  if win then
    vim.api.nvim_win_set_height(win, height)
    return win
  end
  local anchor = (c.ibuf and window_of(c.ibuf)) or (c.tbuf and window_of(c.tbuf))
  if not anchor then
    return nil -- the chat is not on screen: the list shows when it is (M.reopen)
  end
  local above = c.ibuf and window_of(c.ibuf) == anchor
  win = vim.api.nvim_open_win(buf, false, { split = above and "above" or "below", win = anchor, height = height })
  vim.wo[win].winfixheight = true
  vim.wo[win].number = false
  vim.wo[win].relativenumber = false
  vim.wo[win].signcolumn = "no"
  vim.wo[win].wrap = false
  vim.wo[win].winbar = ""
  -- Closed by the user (:q, <C-w>c): it stays closed, as after gl, until
  -- gl or :Claude chat tasks shows it again.
  vim.api.nvim_create_autocmd("WinClosed", {
    group = vim.api.nvim_create_augroup("ClaudeChatTasks" .. win, { clear = true }),
    pattern = tostring(win),
    once = true,
    desc = "claude.nvim: keep the chat's task list closed once its window is",
    callback = function()
      if not c.closing_tasks then
        c.tasks_hidden = true
      end
    end,
  })
  return win
end

--- Shows tasks (a "tasks" item's list) in chat c's task window, replacing
--- what it showed. An empty list hides the window.
function M.show(c, tasks)
  c.tasks = tasks
  local buf = buffer(c)
  local bg = require("claude.chat.background").list(c)
  local lines, groups, rows = lines_of(tasks, bg)
  c.task_rows = rows
  vim.bo[buf].modifiable = true
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.api.nvim_buf_clear_namespace(buf, NS, 0, -1)
  for i, g in ipairs(groups) do
    vim.api.nvim_buf_set_extmark(buf, NS, i - 1, 0, { end_col = #lines[i], hl_group = g })
  end
  if #lines == 0 then
    M.hide(c)
  elseif not c.tasks_hidden then
    open(c)
  end
end

--- Draws chat c's list again (a background task changed).
function M.refresh(c)
  M.show(c, c.tasks or {})
end

--- Closes the task window (the list is kept).
function M.hide(c)
  local win = c.taskbuf and vim.api.nvim_buf_is_valid(c.taskbuf) and window_of(c.taskbuf)
  if win and #vim.api.nvim_list_wins() > 1 then
    c.closing_tasks = true -- not the user's doing (WinClosed above)
    pcall(vim.api.nvim_win_close, win, true)
    c.closing_tasks = false
  end
end

--- Shows or hides the task window of chat c (gl, :Claude chat tasks).
function M.toggle(c)
  local win = c.taskbuf and vim.api.nvim_buf_is_valid(c.taskbuf) and window_of(c.taskbuf)
  if win then
    c.tasks_hidden = true
    M.hide(c)
  elseif (c.tasks and #c.tasks > 0) or #require("claude.chat.background").list(c) > 0 then
    c.tasks_hidden = false
    M.refresh(c)
    open(c)
  else
    require("claude.notify").info("no task list in this chat yet")
  end
end

--- Opens the task window again with the chat's windows, if it has a list.
function M.reopen(c)
  if c.tasks and #c.tasks > 0 and not c.tasks_hidden then
    open(c)
  end
end

return M
