-- The editor's state as context for Claude (issue 40, item 2): @qf (the
-- quickfix and location lists), @term (a terminal's recent output), @diag
-- (diagnostics of the workspace, or @diag:FILE of one file), @hunks:FILE
-- (its unstaged git hunks: context_git.lua) and @buffers (the open
-- buffers). Each expands to one bounded block, delimited so the model
-- tells it from the user's words:
--
--   <editor-context source="quickfix list" title=":make" items="2">
--   main.go:6:14: error: undefined: Greet
--   </editor-context>
--
-- The block goes into the chat's input or the CLI's prompt, where the user
-- sees it before sending (chat/input.lua, mention.lua).
local M = {}

-- Bounds of one block: lines listed, bytes of one line, bytes in all.
M.MAX_LINES = 200
M.MAX_LINE = 400
M.MAX_BYTES = 32 * 1024

local CLOSE = "</editor-context>"

-- One attribute value, quoted: no quote nor line break inside.
local function attr(v)
  return '"' .. tostring(v):gsub('[\r\n]+', " "):gsub('"', "'") .. '"'
end

-- A line of content, cut at MAX_LINE, and never able to close the block.
local function content_line(s)
  s = s:gsub("\r", "")
  if #s > M.MAX_LINE then
    local n = M.MAX_LINE
    while n > 0 and s:byte(n + 1) and s:byte(n + 1) >= 0x80 and s:byte(n + 1) < 0xC0 do
      n = n - 1
    end
    s = s:sub(1, n) .. " …"
  end
  return (s:gsub("</editor%-context", "<\\/editor-context"))
end

--- The block of lines from source, with attrs ({ {name, value}, … } in
--- order); past MAX_LINES or MAX_BYTES the rest is counted in one line.
---@param source string
---@param attrs table
---@param lines string[]
---@param what string what a line is ("entries", "lines")
function M.block(source, attrs, lines, what)
  local head = { "<editor-context source=" .. attr(source) }
  for _, a in ipairs(attrs) do
    table.insert(head, a[1] .. "=" .. attr(a[2]))
  end
  local out, bytes = { table.concat(head, " ") .. ">" }, 0
  for i, l in ipairs(lines) do
    local line = content_line(l)
    if i > M.MAX_LINES or bytes + #line > M.MAX_BYTES then
      table.insert(out, string.format("… %d more %s not shown", #lines - i + 1, what))
      break
    end
    bytes = bytes + #line + 1
    table.insert(out, line)
  end
  table.insert(out, CLOSE)
  return table.concat(out, "\n")
end

--- path as the user and Claude name it: relative to the working directory
--- when inside it.
function M.relative(path)
  if path == "" then
    return path
  end
  local cwd = vim.fn.getcwd()
  if vim.startswith(path, cwd .. "/") then
    return path:sub(#cwd + 2)
  end
  return path
end

local TYPES = { E = "error", W = "warning", I = "info", N = "note", H = "hint" }

local function list_lines(items)
  local out = {}
  for _, it in ipairs(items) do
    local name = it.bufnr and it.bufnr > 0 and M.relative(vim.api.nvim_buf_get_name(it.bufnr)) or ""
    local where = name
    if it.lnum and it.lnum > 0 then
      where = where .. ":" .. it.lnum .. (it.col and it.col > 0 and (":" .. it.col) or "")
    end
    local kind = TYPES[(it.type or ""):upper()]
    local text = vim.trim((it.text or ""):gsub("%s*\n%s*", " "))
    local parts = {}
    for _, p in ipairs({ where, kind or "", text }) do
      if p ~= "" then
        table.insert(parts, p)
      end
    end
    table.insert(out, table.concat(parts, ": "))
  end
  return out
end

-- @qf: the quickfix list and the current window's location list.
local function qf()
  local blocks = {}
  local q = vim.fn.getqflist({ items = 1, title = 1 })
  if #q.items > 0 then
    table.insert(blocks, M.block("quickfix list", { { "title", q.title }, { "items", #q.items } }, list_lines(q.items), "entries"))
  end
  local l = vim.fn.getloclist(0, { items = 1, title = 1 })
  if #l.items > 0 then
    table.insert(blocks, M.block("location list", { { "title", l.title }, { "items", #l.items } }, list_lines(l.items), "entries"))
  end
  if #blocks == 0 then
    return nil, "the quickfix list and this window's location list are empty"
  end
  return table.concat(blocks, "\n")
end

-- How many lines of a terminal @term takes: its last ones.
local TERM_LINES = 100

-- The terminal buffer @term means: the one used last that is not Claude's.
local function last_terminal()
  local best, used = nil, -1
  for _, info in ipairs(vim.fn.getbufinfo({ bufloaded = 1 })) do
    local b = info.bufnr
    if vim.bo[b].buftype == "terminal" and not vim.b[b].claude_terminal and info.lastused > used then
      best, used = b, info.lastused
    end
  end
  return best
end

-- @term: a terminal's last TERM_LINES lines, trailing blank ones dropped.
local function term()
  local buf = last_terminal()
  if not buf then
    return nil, "no terminal is open (Claude's own does not count)"
  end
  local all = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local last = #all
  while last > 0 and vim.trim(all[last]) == "" do
    last = last - 1
  end
  local first = math.max(1, last - TERM_LINES + 1)
  local title = vim.b[buf].term_title or vim.api.nvim_buf_get_name(buf)
  local lines = vim.list_slice(all, first, last)
  return M.block("terminal", { { "title", title }, { "lines", string.format("%d-%d of %d", first, last, last) } }, lines, "lines")
end

local SEVERITIES = { "error", "warning", "info", "hint" }

-- @diag and @diag:FILE: the diagnostics of the file buffers, or of one.
local function diag(path)
  local bufs = {}
  if path then
    local buf = require("claude.buffers").find_buf(vim.fn.fnamemodify(path, ":p"))
    if not buf then
      return nil, path .. " is not open in Neovim: it has no diagnostics"
    end
    bufs = { buf }
  else
    for _, b in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(b) and require("claude.buffers").is_file_buf(b) then
        table.insert(bufs, b)
      end
    end
  end
  local items = {}
  for _, b in ipairs(bufs) do
    local name = M.relative(vim.api.nvim_buf_get_name(b))
    for _, d in ipairs(vim.diagnostic.get(b)) do
      table.insert(items, { name = name, d = d })
    end
  end
  table.sort(items, function(a, b)
    if a.name ~= b.name then
      return a.name < b.name
    end
    if a.d.lnum ~= b.d.lnum then
      return a.d.lnum < b.d.lnum
    end
    return a.d.col < b.d.col
  end)
  local lines = {}
  for _, it in ipairs(items) do
    local d = it.d
    local src = d.source and d.source ~= "" and (" [" .. d.source .. "]") or ""
    local msg = vim.trim((d.message or ""):gsub("%s*\n%s*", " "))
    table.insert(lines, string.format("%s:%d:%d: %s: %s%s", it.name, d.lnum + 1, d.col + 1, SEVERITIES[d.severity] or "info", msg, src))
  end
  local scope = path and M.relative(vim.fn.fnamemodify(path, ":p")) or "workspace"
  if #lines == 0 then
    return nil, string.format("no diagnostics in %s", path and scope or "the open files")
  end
  return M.block("diagnostics", { { "of", scope }, { "items", #lines } }, lines, "diagnostics")
end

-- @buffers: the listed file buffers, the current one marked.
local function buffers()
  local cur = vim.api.nvim_get_current_buf()
  local lines = {}
  for _, info in ipairs(vim.fn.getbufinfo({ buflisted = 1 })) do
    local b = info.bufnr
    if require("claude.buffers").is_file_buf(b) then
      local notes = {}
      if b == cur then
        table.insert(notes, "current")
      end
      if info.changed == 1 then
        table.insert(notes, "unsaved changes")
      end
      if info.loaded == 1 then
        table.insert(notes, info.linecount .. " lines")
      end
      local ft = vim.bo[b].filetype
      if ft ~= "" then
        table.insert(notes, ft)
      end
      table.insert(lines, M.relative(info.name) .. (#notes > 0 and (" (" .. table.concat(notes, ", ") .. ")") or ""))
    end
  end
  if #lines == 0 then
    return nil, "no file buffer is open"
  end
  return M.block("open buffers", { { "items", #lines } }, lines, "buffers")
end

-- What each @word expands to: a block, or nil and why not.
local KINDS = {
  qf = { expand = qf, about = "the quickfix and location lists" },
  term = { expand = term, about = "a terminal's last 100 lines" },
  diag = { expand = diag, about = "diagnostics (of one file with @diag:FILE)" },
  hunks = {
    expand = function(file)
      local path = vim.fn.fnamemodify(file, ":p")
      local lines, attrs = require("claude.context_git").hunks(path, M.relative(path))
      if not lines then
        return nil, attrs
      end
      return M.block("unstaged git hunks", attrs, lines, "lines")
    end,
    about = "a file's unstaged git hunks",
    needs_file = true,
  },
  buffers = { expand = buffers, about = "the open buffers" },
}

--- Whether token ("@qf", "@diag:main.go", …) names editor context.
function M.is_token(token)
  local name = token:match("^@(%a+)$") or token:match("^@(%a+):.+$")
  return name ~= nil and KINDS[name] ~= nil
end

--- Expands token: the block, or nil and a one-line reason.
---@param token string
---@return string|nil, string|nil
function M.expand(token)
  local name, arg = token:match("^@(%a+):(.+)$")
  name = name or token:match("^@(%a+)$")
  local kind = name and KINDS[name]
  if not kind then
    return nil, "unknown editor context " .. token .. " (@qf, @term, @diag, @diag:FILE, @hunks:FILE, @buffers)"
  end
  if kind.needs_file and not arg then
    local file = M.current_file()
    if not file then
      return nil, token .. " needs a file: @" .. name .. ":FILE"
    end
    arg = file
  end
  return kind.expand(arg)
end

--- The file of the window the user last edited in, relative, or nil.
function M.current_file()
  local win = require("claude.buffers").editor_win()
  local buf = win and vim.api.nvim_win_get_buf(win)
  if buf and require("claude.buffers").is_file_buf(buf) then
    return M.relative(vim.api.nvim_buf_get_name(buf))
  end
  return nil
end

--- The tokens to offer for completion, with what each gives:
--- { { token, about }, … }. file (relative) adds @diag:FILE and
--- @hunks:FILE for it.
---@param file string|nil
function M.tokens(file)
  local out = {
    { "@qf", KINDS.qf.about },
    { "@term", KINDS.term.about },
    { "@diag", "diagnostics of the open files" },
    { "@buffers", KINDS.buffers.about },
  }
  if file then
    table.insert(out, { "@diag:" .. file, "diagnostics of " .. file })
    table.insert(out, { "@hunks:" .. file, "unstaged git hunks of " .. file })
  end
  return out
end

return M
