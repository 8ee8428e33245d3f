-- Where Claude's terminal (and the chat's transcript) is shown: a split at
-- terminal.position sized by terminal.size, a tab page, or a centred
-- float sized by terminal.float.
local M = {}

local function cfg()
  return require("claude.config").get()
end

-- A size option in cells: a fraction (< 1) of total, or a count (>= 1),
-- never more than total.
local function cells(s, total)
  if s < 1 then
    return math.max(1, math.floor(total * s))
  end
  return math.min(math.floor(s), total)
end

--- Where the floating terminal goes: centred, sized by terminal.float.
function M.float_config()
  local f = cfg().terminal.float
  local lines = vim.o.lines - vim.o.cmdheight
  local width, height = cells(f.width, vim.o.columns), cells(f.height, lines)
  local bordered = f.border ~= "none" and f.border ~= ""
  -- The border takes a cell on each side.
  width = math.max(1, math.min(width, vim.o.columns - (bordered and 2 or 0)))
  height = math.max(1, math.min(height, lines - (bordered and 2 or 0)))
  return {
    relative = "editor",
    width = width,
    height = height,
    row = math.floor((lines - height) / 2) - (bordered and 1 or 0),
    col = math.floor((vim.o.columns - width) / 2) - (bordered and 1 or 0),
    border = f.border,
    title = bordered and " Claude " or nil,
    title_pos = bordered and "center" or nil,
  }
end

--- The window showing buf in the current tab page, or nil.
---@param buf integer
function M.in_tab(buf)
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.api.nvim_win_get_buf(win) == buf then
      return win
    end
  end
  return nil
end

--- Opens a window for buf at position (terminal.position by default),
--- sized by terminal.size, and enters it; returns the window.
---@param buf integer
---@param position string|nil
function M.open(buf, position)
  local pos = position or cfg().terminal.position
  if pos == "tab" then
    vim.cmd("tab sbuffer " .. buf)
    return vim.api.nvim_get_current_win()
  elseif pos == "float" then
    return vim.api.nvim_open_win(buf, true, M.float_config())
  end
  local vertical = pos == "right" or pos == "left"
  local n = cells(cfg().terminal.size, vertical and vim.o.columns or vim.o.lines)
  local win = vim.api.nvim_open_win(buf, true, {
    split = pos,
    win = -1, -- relative to the whole editor: a full-height/width split
    width = vertical and n or nil,
    height = (not vertical) and n or nil,
  })
  vim.wo[win].winfixwidth = vertical
  vim.wo[win].winfixheight = not vertical
  return win
end

-- Terminal buffers whose pending Insert mode is guarded (see start_insert).
local guarded = {}

-- Set while a command or the plugin itself moves the cursor into the
-- terminal (by_command): the BufEnter of that move is not the user's own.
local commanded = false

--- Starts Terminal mode in the current window's terminal.
---
--- :startinsert only takes effect when Neovim next waits for a key. A
--- script or an RPC client that goes to another window before then
--- (`ClaudeOpen | wincmd p` in a VimEnter autocmd) would carry it there,
--- and the user's next keys would land as text in their file or the chat's
--- input: leaving the terminal before Terminal mode began cancels it.
function M.start_insert()
  vim.cmd.startinsert()
  local buf = vim.api.nvim_get_current_buf()
  if vim.bo[buf].buftype ~= "terminal" then
    return
  end
  vim.b[buf].claude_insert_pending = true
  if guarded[buf] then
    return
  end
  guarded[buf] = true
  local group = vim.api.nvim_create_augroup("ClaudeTerminalInsert" .. buf, { clear = true })
  vim.api.nvim_create_autocmd("TermEnter", {
    group = group,
    buffer = buf,
    desc = "claude.nvim: the terminal's Insert mode began",
    callback = function()
      vim.b[buf].claude_insert_pending = nil
    end,
  })
  vim.api.nvim_create_autocmd("WinLeave", {
    group = group,
    buffer = buf,
    desc = "claude.nvim: Insert mode stays with the terminal",
    callback = function()
      if vim.b[buf].claude_insert_pending then
        vim.b[buf].claude_insert_pending = nil
        if vim.api.nvim_get_mode().mode ~= "t" then
          vim.cmd.stopinsert()
        end
      end
    end,
  })
  vim.api.nvim_create_autocmd("BufWipeout", {
    group = group,
    buffer = buf,
    once = true,
    callback = function()
      guarded[buf] = nil
      pcall(vim.api.nvim_del_augroup_by_id, group)
    end,
  })
end

--- The terminal's BufEnter: the user moved into it themselves (a window
--- command, the mouse), so terminal.auto_insert says whether they type.
function M.entered()
  if commanded or not cfg().terminal.auto_insert then
    return
  end
  M.start_insert()
end

--- Runs fn, which brings the cursor to Claude's terminal for a command or
--- for the plugin, and returns what it returns. Terminal mode starts after
--- it only when insert is true (the user asked: :Claude focus insert, a mention
--- whose prompt they go on typing) or terminal.focus_insert says so:
--- otherwise the keys the user types next are Neovim's, never the CLI's
--- (`:Claude focus` then `G` scrolls, it does not type a G to Claude).
---@param fn fun(): any
---@param insert boolean|nil
function M.by_command(fn, insert)
  local outer = commanded
  commanded = true
  local ok, r = pcall(fn)
  commanded = outer
  if not ok then
    error(r, 0)
  end
  if outer then
    return r
  end
  local here = vim.bo.buftype == "terminal" and vim.b.claude_terminal
  if here and (insert or cfg().terminal.focus_insert) then
    M.start_insert()
  elseif here then
    -- In Normal mode (an Insert mode the command ran from ends), on the
    -- last line: the window keeps following Claude's output.
    vim.cmd.stopinsert()
    pcall(vim.api.nvim_win_set_cursor, 0, { vim.api.nvim_buf_line_count(0), 0 })
  end
  return r
end

return M
