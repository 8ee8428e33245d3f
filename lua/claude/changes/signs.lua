-- Signs on the lines Claude changed and the user has not reviewed or
-- reverted, in every loaded buffer of those files. The Go host pushes a
-- workspace's marks when a turn ends, after a revert or a review
-- (handlers.mark_changes); nothing here polls. Extmarks follow the user's
-- edits once placed; a buffer opened later gets its signs when it is read.
local M = {}

local ns = vim.api.nvim_create_namespace("claude_changes")

local by_root = {} -- root -> { files = path -> marks, count }

local SIGN = "▎"
local HL = { add = "ClaudeChangeAdd", change = "ClaudeChangeChange", delete = "ClaudeChangeDelete" }

-- The groups, linked by default (a colorscheme or the user may set them).
local function define_highlights()
  vim.api.nvim_set_hl(0, "ClaudeChangeAdd", { link = "Added", default = true })
  vim.api.nvim_set_hl(0, "ClaudeChangeChange", { link = "Changed", default = true })
  vim.api.nvim_set_hl(0, "ClaudeChangeDelete", { link = "Removed", default = true })
end

local function marks_of(path)
  for _, r in pairs(by_root) do
    local m = r.files[path]
    if m then
      return m
    end
  end
  return nil
end

local function place(buf)
  if not vim.api.nvim_buf_is_loaded(buf) then
    return
  end
  vim.api.nvim_buf_clear_namespace(buf, ns, 0, -1)
  if not require("claude.config").get().changes.signs then
    return
  end
  local marks = marks_of(vim.api.nvim_buf_get_name(buf))
  if not marks then
    return
  end
  local last = vim.api.nvim_buf_line_count(buf)
  for _, m in ipairs(marks) do
    local first, count = m.start, m.count
    if m.kind == "delete" then
      first, count = math.max(m.start, 1), 1
    end
    for line = first, math.min(first + count - 1, last) do
      pcall(vim.api.nvim_buf_set_extmark, buf, ns, line - 1, 0, {
        sign_text = SIGN,
        sign_hl_group = HL[m.kind] or HL.change,
        priority = 6, -- under gitsigns' and diagnostics' signs
      })
    end
  end
end

local watching = false
local function watch()
  if watching then
    return
  end
  watching = true
  define_highlights()
  local group = vim.api.nvim_create_augroup("ClaudeChangeSigns", { clear = true })
  vim.api.nvim_create_autocmd({ "BufReadPost", "FileChangedShellPost" }, {
    group = group,
    desc = "claude.nvim: signs on Claude's unreviewed lines",
    callback = function(ev)
      place(ev.buf)
    end,
  })
  vim.api.nvim_create_autocmd("ColorScheme", {
    group = group,
    desc = "claude.nvim: the change signs' highlight links",
    callback = define_highlights,
  })
end

--- A workspace's marks from the host: { root, files = path -> marks, count }.
function M.set(marks)
  watch()
  by_root[marks.root] = { files = marks.files or {}, count = marks.count or 0 }
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and vim.bo[buf].buftype == "" then
      place(buf)
    end
  end
  pcall(vim.cmd.redrawstatus)
  vim.api.nvim_exec_autocmds("User", { pattern = "ClaudeChangeSigns", modeline = false, data = { root = marks.root, count = marks.count } })
end

--- How many hunks are unreviewed, in every workspace the host told us of.
function M.count()
  local n = 0
  for _, r in pairs(by_root) do
    n = n + r.count
  end
  return n
end

--- The files with unreviewed changes, by name: { path, hunks, line }
--- (line: the first changed line), for the inbox (:Claude sessions).
function M.files()
  local out = {}
  for _, r in pairs(by_root) do
    for path, marks in pairs(r.files) do
      if #marks > 0 then
        local first = math.huge
        for _, m in ipairs(marks) do
          first = math.min(first, math.max(m.start, 1))
        end
        table.insert(out, { path = path, hunks = #marks, line = first })
      end
    end
  end
  table.sort(out, function(a, b)
    return a.path < b.path
  end)
  return out
end

--- The lines (1-based) of buf that carry a sign, in order.
function M.lines(buf)
  local out = {}
  for _, m in ipairs(vim.api.nvim_buf_get_extmarks(buf or 0, ns, 0, -1, {})) do
    table.insert(out, m[2] + 1)
  end
  return out
end

-- The first line of the next (dir 1) or previous (-1) stretch of signs.
local function jump(dir)
  local lines = M.lines(0)
  local cur = vim.api.nvim_win_get_cursor(0)[1]
  local starts, set = {}, {}
  for _, l in ipairs(lines) do
    set[l] = true
  end
  for _, l in ipairs(lines) do
    if not set[l - 1] then
      table.insert(starts, l)
    end
  end
  local target
  if dir > 0 then
    for _, l in ipairs(starts) do
      if l > cur then
        target = l
        break
      end
    end
  else
    for i = #starts, 1, -1 do
      if starts[i] < cur then
        target = starts[i]
        break
      end
    end
  end
  if target then
    vim.cmd("normal! m'")
    vim.api.nvim_win_set_cursor(0, { target, 0 })
  else
    require("claude.notify").info("claude.nvim: no further unreviewed change of Claude's in this buffer")
  end
end

function M.next()
  jump(1)
end

function M.prev()
  jump(-1)
end

return M
