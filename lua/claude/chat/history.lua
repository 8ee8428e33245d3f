-- The history browser (:ClaudeChat resume): a buffer listing the
-- workspace's stored conversations (time, branch, messages, title or first
-- prompt), newest first. The Go host reads the files off the main loop
-- (chatctl/history.go) and answers through handlers.show_history; every
-- request carries a number, and only the answer to the newest is shown.
-- Its keys are buffer-local and go through <Plug>(ClaudeHistory…) maps.
local M = {}

local state = require("claude.chat.state")

-- By workspace directory: { buf, dir, env, seq, query, list, rows (line ->
-- conversation), confirm (the id a d waits to delete), preview (window) }.
local browsers = {}

-- Lines above the first conversation.
local HEADER = 2

local function notify()
  return require("claude.notify")
end

local function valid(buf)
  return buf and vim.api.nvim_buf_is_valid(buf)
end

-- The browser of the current buffer, or nil.
local function current()
  local dir = vim.b.claude_history_dir
  return dir and browsers[dir] or nil
end

local function label(s)
  local title = (s.title and s.title ~= "") and s.title or s.first_prompt
  return string.format("%s  %-10s %4d msgs  %s", os.date("%Y-%m-%d %H:%M", s.modified), s.branch ~= "" and s.branch or "-", s.messages or 0, title)
end

local function set_lines(b, lines)
  vim.bo[b.buf].modifiable = true
  vim.api.nvim_buf_set_lines(b.buf, 0, -1, false, lines)
  vim.bo[b.buf].modifiable = false
  vim.bo[b.buf].modified = false
end

local function header(b, what)
  local query = b.query ~= "" and ("  search: " .. b.query) or ""
  -- An ACP agent's chat ("DIR//NAME"): the agent lists its own conversations.
  local folder, agent = b.dir:match("^(.-)//(.+)$")
  local whose = agent and (agent .. " conversations in " .. vim.fn.fnamemodify(folder, ":~")) or ("Claude conversations in " .. vim.fn.fnamemodify(b.dir, ":~"))
  return { whose .. query .. "  (g? keys)", what }
end

local function draw(b)
  local lines, rows = {}, {}
  local n = #(b.list or {})
  local what
  if b.reading then
    what = "reading…"
  elseif b.error then
    what = "error: " .. b.error
  elseif not b.list then
    what = "reading…"
  elseif n == 0 then
    what = b.query ~= "" and "no conversation has this text; s searches again, s with nothing lists them all" or "no stored conversation: :ClaudeChat starts one"
  else
    what = string.format("%d conversation%s; <CR> resumes, d deletes, r renames, p previews, s searches", n, n == 1 and "" or "s")
  end
  vim.list_extend(lines, header(b, what))
  for i, s in ipairs(b.list or {}) do
    local line = label(s)
    if b.confirm == s.id then
      line = "✗ delete? d again deletes it for good, moving away keeps it │ " .. line
    end
    lines[HEADER + i] = line
    rows[HEADER + i] = s
  end
  b.rows = rows
  set_lines(b, lines)
end

-- Asks the host for the list (with b.query); the answer comes to M.show.
-- The lines shown stay until it comes, so the keys typed meanwhile act on
-- what is on the screen.
local function request(b)
  b.seq = b.seq + 1
  b.reading, b.error, b.confirm = true, nil, nil
  draw(b)
  require("claude.host").list_history({ dir = b.dir, env = b.env, seq = b.seq, query = b.query })
end

local function under_cursor(b)
  return b.rows[vim.api.nvim_win_get_cursor(0)[1]]
end

local function make_buffer(b)
  local buf = vim.api.nvim_create_buf(false, true)
  require("claude.buffers").set_buf_name(buf, "claude-history://" .. b.dir, buf)
  vim.bo[buf].bufhidden = "hide"
  vim.bo[buf].modifiable = false
  vim.b[buf].claude_history_dir = b.dir
  for _, name in ipairs({ "resume", "preview", "rename", "delete", "search", "refresh", "close", "help" }) do
    local key = "history." .. name
    require("claude.keys").map(buf, key, "<Plug>(" .. require("claude.keys").defaults[key].plug .. ")")
  end
  -- A delete waits for its second d on the same line; going elsewhere keeps
  -- the conversation.
  vim.api.nvim_create_autocmd("CursorMoved", {
    group = vim.api.nvim_create_augroup("ClaudeHistory" .. buf, { clear = true }),
    buffer = buf,
    desc = "claude.nvim: a delete not confirmed on its line is dropped",
    callback = function()
      if b.confirm then
        local s = under_cursor(b)
        if not s or s.id ~= b.confirm then
          b.confirm = nil
          draw(b)
        end
      end
    end,
  })
  b.buf = buf
end

--- Opens the browser of dir's stored conversations (default: the current
--- workspace) in a window below, searching for query if given (else
--- listing them all).
---@param dir string|nil
---@param query string|nil
function M.open(dir, query)
  dir = dir or state.current_dir()
  local args = state.start_args(dir)
  if not args then
    return
  end
  local b = browsers[dir] or { dir = dir, seq = 0, query = "" }
  browsers[dir] = b
  b.env, b.query = args.env, query or ""
  if not valid(b.buf) then
    make_buffer(b)
  end
  local win = vim.fn.bufwinid(b.buf)
  if win ~= -1 then
    vim.api.nvim_set_current_win(win)
  else
    vim.cmd("botright 15split")
    vim.api.nvim_win_set_buf(0, b.buf)
    vim.wo.wrap, vim.wo.cursorline = false, true
  end
  request(b)
end

--- An answer of the host (handlers.show_history): r.kind "list" fills the
--- browser, "preview" shows one conversation's first and last lines.
---@param dir string
---@param r table chatctl.HistoryReply
function M.show(dir, r)
  local b = browsers[dir]
  if not b or not valid(b.buf) then
    return
  end
  if r.kind == "preview" then
    return M.show_preview(b, r)
  elseif r.kind == "renamed" then
    -- The chat's CLI has renamed its conversation (chatctl/history.go): list
    -- again, with the title it wrote.
    return request(b)
  end
  if r.seq ~= b.seq then
    return -- an older request's answer
  end
  b.reading = false
  b.list, b.error = r.conversations or {}, (r.error ~= nil and r.error ~= "") and r.error or nil
  draw(b)
  local win = vim.fn.bufwinid(b.buf)
  if win ~= -1 and #b.list > 0 and vim.api.nvim_win_get_cursor(win)[1] <= HEADER then
    vim.api.nvim_win_set_cursor(win, { HEADER + 1, 0 })
  end
end

-- The preview: a window below the browser's, which the cursor does not
-- enter (q or :close closes it; p on another line replaces it).
function M.show_preview(b, r)
  if r.error and r.error ~= "" then
    notify().error("conversation preview: " .. r.error)
    return
  end
  if not valid(b.pbuf) then
    b.pbuf = vim.api.nvim_create_buf(false, true)
    require("claude.buffers").set_buf_name(b.pbuf, "claude-history-preview://" .. b.dir, b.pbuf)
    vim.bo[b.pbuf].filetype = "markdown"
    vim.bo[b.pbuf].bufhidden = "hide"
  end
  vim.bo[b.pbuf].modifiable = true
  vim.api.nvim_buf_set_lines(b.pbuf, 0, -1, false, r.preview or {})
  vim.bo[b.pbuf].modifiable = false
  vim.b[b.pbuf].claude_history_preview = r.id
  if vim.fn.bufwinid(b.pbuf) ~= -1 then
    return
  end
  local win = vim.fn.bufwinid(b.buf)
  if win == -1 then
    return -- the browser closed meanwhile
  end
  local pwin = vim.api.nvim_open_win(b.pbuf, false, { split = "right", win = win })
  vim.wo[pwin].wrap = true
end

local actions = {}

function actions.resume(b)
  local s = under_cursor(b)
  if not s then
    return
  end
  local pwin = valid(b.pbuf) and vim.fn.bufwinid(b.pbuf) or -1
  if pwin ~= -1 then
    vim.api.nvim_win_close(pwin, true)
  end
  if #vim.api.nvim_list_wins() > 1 then
    vim.api.nvim_win_close(0, true)
  end
  require("claude.chat.conversations").resume(s, b.dir)
end

function actions.preview(b)
  local s = under_cursor(b)
  if s then
    require("claude.host").preview_conversation({ dir = b.dir, env = b.env, id = s.id })
  end
end

function actions.rename(b)
  local s = under_cursor(b)
  if not s then
    return
  end
  vim.ui.input({ prompt = "Rename the conversation: ", default = (s.title ~= nil and s.title ~= "") and s.title or s.first_prompt }, function(title)
    if not title or vim.trim(title) == "" then
      return
    end
    -- Out of the prompt's callback: the keys typed after it stay the user's.
    vim.schedule(function()
      -- A failure (a title of several lines, a file gone) is reported by host.lua.
      if require("claude.host").rename_conversation({ dir = b.dir, env = b.env, id = s.id, title = title }) then
        request(b)
      end
    end)
  end)
end

function actions.delete(b)
  local s = under_cursor(b)
  if not s then
    return
  end
  if b.confirm ~= s.id then
    b.confirm = s.id -- asked on the line itself: nothing takes the keys
    draw(b)
    return
  end
  b.confirm = nil
  if not require("claude.host").delete_conversation({ dir = b.dir, env = b.env, id = s.id }) then
    draw(b) -- kept, and host.lua said why (the chat runs it, …)
    return
  end
  b.list = vim.tbl_filter(function(x)
    return x.id ~= s.id
  end, b.list)
  request(b)
end

function actions.search(b)
  vim.ui.input({ prompt = "Search the conversations for: ", default = b.query }, function(query)
    if query == nil then
      return
    end
    b.query = vim.trim(query)
    request(b)
  end)
end

function actions.refresh(b)
  request(b)
end

function actions.close(b)
  for _, buf in ipairs({ b.pbuf, b.buf }) do
    local win = valid(buf) and vim.fn.bufwinid(buf) or -1
    if win ~= -1 and #vim.api.nvim_list_wins() > 1 then
      vim.api.nvim_win_close(win, true)
    end
  end
end

local HELP = {
  { "<CR>", "resume the conversation in the chat" },
  { "p", "preview its first and last messages (a window beside)" },
  { "r", "rename it (the CLI's --resume picker shows the name too)" },
  { "d d", "delete it: the first d asks on its line, the second deletes" },
  { "s", "search the conversations' text (empty: list all)" },
  { "R", "read the list again" },
  { "q", "close the browser" },
  { "/", "Vim's own search, in the lines shown" },
}

function actions.help()
  local chunks = { { "claude.nvim conversations (:help claude-chat-history)\n", "Title" } }
  for _, row in ipairs(HELP) do
    table.insert(chunks, { string.format("  %-6s %s\n", row[1], row[2]) })
  end
  chunks[#chunks][1] = chunks[#chunks][1]:gsub("\n$", "")
  vim.api.nvim_echo(chunks, true, {})
end

--- Runs a browser key's action (the <Plug>(ClaudeHistory…) maps) in the
--- browser of the current buffer.
---@param name string resume, preview, rename, delete, search, refresh, close or help
function M.action(name)
  local b = current()
  if not b then
    notify().error("not in a conversation list: :ClaudeChat resume opens one")
    return
  end
  actions[name](b)
end

return M
