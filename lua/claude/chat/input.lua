-- The native chat's input buffer (state.lua keeps the chats): prompt
-- history and completion of slash commands and @paths. What other
-- commands put into it (mentions, text, images) is chat/init.lua's.
local M = {}

local state = require("claude.chat.state")

--- Replaces the chat input with the previous (step -1) or next (step 1)
--- prompt sent in this chat; past the newest, with what was typed before.
--- With at_edge, only from the input's first (or last) line: elsewhere the
--- cursor moves up (or down) as usual.
---@param dir string|nil
---@param step integer
---@param at_edge boolean|nil
function M.recall(dir, step, at_edge)
  dir = dir or state.current_dir()
  local c = state.chats[dir]
  if not c or not state.valid(c.ibuf) then
    return
  end
  local win = state.window(c.ibuf)
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

-- @path completion reads the workspace on Neovim's main loop, at a key
-- press: it is bounded so that a huge tree costs a few milliseconds, not
-- a freeze. At most MAX_PATHS are offered, at most MAX_SCANNED directory
-- entries are read to find them.
local MAX_PATHS = 200
local MAX_SCANNED = 5000
-- Never descended into unless typed: version control and dependencies.
local SKIPPED = { [".git"] = true, [".hg"] = true, [".svn"] = true, ["node_modules"] = true }

-- The workspace paths (relative, directories ending in "/") that start
-- with base, shallowest first: the directories base names are entered, and
-- those that match are descended into (@lua/cl → lua/claude/,
-- lua/claude/init.lua, lua/claude/chat/, …), breadth first.
local function paths(root, base)
  local out, scanned = {}, 0
  local queue, head = { "" }, 1
  while head <= #queue and #out < MAX_PATHS and scanned < MAX_SCANNED do
    local rel = queue[head]
    head = head + 1
    local handle = vim.uv.fs_scandir(rel == "" and root or (root .. "/" .. rel))
    while handle and #out < MAX_PATHS and scanned < MAX_SCANNED do
      local name, kind = vim.uv.fs_scandir_next(handle)
      if not name then
        break
      end
      scanned = scanned + 1
      local path = rel .. name
      local link = kind == "link" -- shown, never entered: a link may loop
      -- A stat only for a link that may be offered (to end a directory's
      -- name in "/"): lib/ directories hold thousands of links.
      if link and (vim.startswith(path, base) or vim.startswith(base, path)) then
        local stat = vim.uv.fs_stat(root .. "/" .. path)
        kind = stat and stat.type or kind
      end
      local dir = kind == "directory"
      local shown = dir and (path .. "/") or path
      if vim.startswith(shown, base) then
        table.insert(out, shown)
      end
      -- Enter a directory on the way to base, or under a match.
      if dir and (vim.startswith(base, shown) or (vim.startswith(shown, base) and not SKIPPED[name])) and not link then
        table.insert(queue, shown)
      end
    end
  end
  local function depth(p)
    return select(2, p:gsub("/.", ""))
  end
  table.sort(out, function(a, b)
    local da, db = depth(a), depth(b)
    if da ~= db then
      return da < db
    end
    return a < b
  end)
  return out
end

M._paths = paths -- for benchmarks

-- The editor's context words (@qf, @diag, …: claude.context) that start
-- with @base, as completion items; none for a bare @ (its paths come alone,
-- as before the words).
local function context_items(base)
  local items = {}
  local context = require("claude.context")
  for _, t in ipairs(base == "" and {} or context.tokens(context.current_file())) do
    if vim.startswith(t[1], "@" .. base) then
      table.insert(items, { word = t[1], abbr = t[1], menu = t[2], user_data = { claude_context = t[1] } })
    end
  end
  return items
end

-- The @path under completion: from the @ before the cursor. The editor's
-- context words come first.
local function path_items(c, base)
  local items = context_items(base)
  for _, rel in ipairs(paths(c.cwd or c.dir, base)) do
    table.insert(items, { word = "@" .. rel, abbr = rel })
  end
  return items
end

-- <Tab> after @ asks the chat's CLI (file_suggestions: the files its own @
-- typeahead offers, fuzzy-ranked, chatctl/suggest.go); its answer comes
-- back as a "suggestions" item and opens the completion menu if the cursor
-- is still at the end of the same @ text. Numbered: an older answer is
-- dropped.
local asked = 0

--- Asks c's CLI for the completions of the @-mention before the cursor.
function M.suggest(c)
  local line = vim.api.nvim_get_current_line()
  local col = vim.fn.col(".") - 1
  local at = line:sub(1, col):find("@[^%s]*$")
  if not at then
    return
  end
  asked = asked + 1
  local row = vim.api.nvim_win_get_cursor(0)[1]
  c.suggesting = { seq = asked, row = row, start = at, text = line:sub(at, col) }
  -- The editor's words (@qf, …) need no CLI: offered at once; its answer
  -- adds the files.
  local words = context_items(line:sub(at + 1, col))
  if #words > 0 and vim.api.nvim_get_mode().mode:match("^i") then
    vim.fn.complete(at, words)
  end
  require("claude.host").chat_suggest(c.dir, line:sub(at + 1, col), asked)
end

--- The CLI's answer (a "suggestions" item): the menu, if it still fits.
function M.show_suggestions(c, _, it)
  local s = c.suggesting
  if not s or tostring(s.seq) ~= it.id then
    return -- an older request's
  end
  c.suggesting = nil
  if it.text and it.text ~= "" then
    if #context_items(s.text:sub(2)) == 0 then -- else the words offered stay
      require("claude.notify").warn("@-completion: " .. it.text)
    end
    return
  end
  vim.schedule(function()
    if vim.api.nvim_get_current_buf() ~= c.ibuf or not vim.api.nvim_get_mode().mode:match("^i") then
      return
    end
    local row, col = unpack(vim.api.nvim_win_get_cursor(0))
    if row ~= s.row or vim.api.nvim_get_current_line():sub(s.start, col) ~= s.text then
      return -- typed on meanwhile: the answer is for another text
    end
    local items = context_items(s.text:sub(2)) -- the editor's words first
    for _, path in ipairs(it.files or {}) do
      table.insert(items, { word = "@" .. path, abbr = path, menu = "claude" })
    end
    if #items > 0 then
      vim.fn.complete(s.start, items)
    end
  end)
end

--- completefunc/omnifunc of the chat's input: slash commands from the CLI's
--- list at the start of the message, workspace paths after @ (read here:
--- <C-x><C-u> needs no CLI; <Tab> asks the CLI, M.suggest). Not called
--- directly.
function M.complete(findstart, base)
  local c = state.chats[vim.b.claude_chat_dir]
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

--- After a completion: an editor-context item (@qf, …) is replaced by its
--- block and a new line after it, which the user sees in the input before
--- sending; one that cannot expand stays as typed, and the user is told why.
--- The place is taken now (the cursor is right after the item); the text
--- changes on the next loop, as CompleteDone may not change it.
---@param buf integer the chat's input
function M.completed(buf)
  local item = vim.v.completed_item
  local token = type(item) == "table" and type(item.user_data) == "table" and item.user_data.claude_context
  if not token then
    return
  end
  local row, col = unpack(vim.api.nvim_win_get_cursor(0))
  local line = vim.api.nvim_get_current_line()
  local before, after = line:sub(1, col), line:sub(col + 1)
  if not vim.endswith(before, token) then
    return
  end
  vim.schedule(function()
    if not vim.api.nvim_buf_is_valid(buf) or vim.api.nvim_buf_get_lines(buf, row - 1, row, false)[1] ~= line then
      return -- changed meanwhile
    end
    local block, why = require("claude.context").expand(token)
    if not block then
      require("claude.notify").warn(token .. ": " .. why)
      return
    end
    local lines = vim.split(before:sub(1, #before - #token) .. block, "\n", { plain = true })
    table.insert(lines, after)
    vim.api.nvim_buf_set_lines(buf, row - 1, row, false, lines)
    local win = vim.fn.bufwinid(buf)
    if win ~= -1 then
      vim.api.nvim_win_set_cursor(win, { row + #lines - 1, 0 })
    end
  end)
end

return M
