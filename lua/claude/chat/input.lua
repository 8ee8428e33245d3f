-- The native chat's input (chat/init.lua keeps the chats): prompt
-- history, completion of slash commands and @paths, :ClaudeSend/:ClaudeAdd
-- mentions, attached images.
local M = {}

local function core()
  return require("claude.chat")._core
end

--- Attaches an image file (png, jpeg, gif, webp) to the chat's next
--- message; the host reads and checks it when the message is sent.
---@param path string
---@param dir string|nil
function M.attach(path, dir)
  dir = dir or core().current_dir()
  local abs = vim.fn.fnamemodify(vim.fn.expand(path), ":p")
  if vim.fn.filereadable(abs) ~= 1 then
    require("claude.notify").error("no such file: " .. path)
    return false
  end
  local c = core().chat(dir)
  c.attached = c.attached or {}
  table.insert(c.attached, abs)
  core().update_status(c)
  core().open_windows(c)
  return true
end

--- Replaces the chat input with the previous (step -1) or next (step 1)
--- prompt sent in this chat; past the newest, with what was typed before.
--- With at_edge, only from the input's first (or last) line: elsewhere the
--- cursor moves up (or down) as usual.
---@param dir string|nil
---@param step integer
---@param at_edge boolean|nil
function M.recall(dir, step, at_edge)
  dir = dir or core().current_dir()
  local c = core().chats[dir]
  if not c or not core().valid(c.ibuf) then
    return
  end
  local win = core().window(c.ibuf)
  if at_edge and win then
    local row = vim.api.nvim_win_get_cursor(win)[1]
    if (step < 0 and row > 1) or (step > 0 and row < vim.api.nvim_buf_line_count(c.ibuf)) then
      vim.cmd("normal! " .. vim.v.count1 .. (step < 0 and "k" or "j"))
      return
    end
  end
  local newest = #c.history + 1 -- the draft
  local i = (c.recalled or newest) + step
  if i < 1 or i > newest then
    return
  end
  if not c.recalled then
    c.draft = vim.api.nvim_buf_get_lines(c.ibuf, 0, -1, false)
  end
  local lines
  if i == newest then
    lines, c.recalled = c.draft or { "" }, nil
  else
    lines, c.recalled = vim.split(c.history[i], "\n", { plain = true }), i
  end
  vim.api.nvim_buf_set_lines(c.ibuf, 0, -1, false, lines)
  if win then
    -- On the edge the next press goes on from.
    local row = step < 0 and 1 or #lines
    vim.api.nvim_win_set_cursor(win, { row, step < 0 and 0 or math.max(0, #lines[row] - 1) })
  end
end

-- The @path under completion: from the @ before the cursor.
local function path_items(c, base)
  local items = {}
  for _, p in ipairs(vim.fn.globpath(vim.fn.escape(c.dir, ","), base .. "*", false, true)) do
    local rel = p:sub(#c.dir + 2)
    if vim.fn.isdirectory(p) == 1 then
      rel = rel .. "/"
    end
    table.insert(items, { word = "@" .. rel, abbr = rel })
  end
  return items
end

--- completefunc/omnifunc of the chat's input: slash commands from the CLI's
--- list at the start of the message, workspace paths after @. Not called
--- directly.
function M.complete(findstart, base)
  local c = core().chats[vim.b.claude_chat_dir]
  if not c then
    return findstart == 1 and -3 or {}
  end
  local line = vim.api.nvim_get_current_line()
  local col = vim.fn.col(".") - 1
  local before = line:sub(1, col)
  if findstart == 1 then
    local at = before:find("@[^%s]*$")
    if at then
      return at - 1
    end
    local slash = before:find("/[%w:_-]*$")
    if slash and vim.fn.line(".") == 1 and before:sub(1, slash - 1):match("^%s*$") then
      return slash - 1
    end
    return -3
  end
  if base:sub(1, 1) == "@" then
    return path_items(c, base:sub(2))
  end
  local items = {}
  for _, cmd in ipairs(c.commands or {}) do
    local word = "/" .. cmd.name
    if vim.startswith(word, base) then
      table.insert(items, { word = word, menu = cmd.hint ~= "" and cmd.hint or nil, info = cmd.description })
    end
  end
  return items
end

-- The chat shown in the current tab page, if any.
local function chat_in_tab()
  for _, c in pairs(core().chats) do
    if (core().valid(c.ibuf) and core().window(c.ibuf)) or (core().valid(c.tbuf) and core().window(c.tbuf)) then
      return c
    end
  end
end

--- :ClaudeAsk and :ClaudeSendText go to the chat instead of the terminal
--- when a chat is open in the current tab page: text is added to the chat's
--- next message, sent at once when submit. Returns whether it did.
---@param text string
---@param submit boolean
function M.take_text(text, submit)
  local c = chat_in_tab()
  if not c then
    return false
  end
  local n = vim.api.nvim_buf_line_count(c.ibuf)
  local last = vim.api.nvim_buf_get_lines(c.ibuf, n - 1, n, false)[1]
  local joined = (last == "" or last:match("%s$")) and (last .. text) or (last .. " " .. text)
  vim.api.nvim_buf_set_lines(c.ibuf, n - 1, n, false, vim.split(joined, "\n", { plain = true }))
  if submit then
    require("claude.chat").submit(c.dir)
    return true
  end
  core().open_windows(c)
  local lines = vim.api.nvim_buf_line_count(c.ibuf)
  vim.api.nvim_win_set_cursor(0, { lines, #vim.api.nvim_buf_get_lines(c.ibuf, lines - 1, lines, false)[1] })
  return true
end

--- :ClaudeSend and :ClaudeAdd go to the chat instead of the terminal when
--- a chat is open in the current tab page: the @-mention (as the CLI writes
--- it, relative to the chat's directory) is added to the chat's next
--- message, and the cursor goes to the input. Returns whether it did.
---@param path string absolute; a directory ends in "/"
---@param line1 integer|nil 1-based
---@param line2 integer|nil 1-based
function M.take_mention(path, line1, line2)
  local c = chat_in_tab()
  if not c then
    return false
  end
  local rel = path
  if vim.startswith(path, c.dir .. "/") then
    rel = path:sub(#c.dir + 2)
  end
  local ref = "@" .. rel
  if line1 then
    local lo, hi = math.min(line1, line2 or line1), math.max(line1, line2 or line1)
    ref = ref .. (lo == hi and string.format("#L%d", lo) or string.format("#L%d-%d", lo, hi))
  end
  local n = vim.api.nvim_buf_line_count(c.ibuf)
  local last = vim.api.nvim_buf_get_lines(c.ibuf, n - 1, n, false)[1]
  local text = (last == "" or last:match("%s$")) and (last .. ref .. " ") or (last .. " " .. ref .. " ")
  vim.api.nvim_buf_set_lines(c.ibuf, n - 1, n, false, { text })
  core().open_windows(c)
  vim.api.nvim_win_set_cursor(0, { n, #text })
  return true
end

return M
