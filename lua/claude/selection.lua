-- Reads selections for the Go host. Each function is one RPC round trip;
-- Go turns byte columns into UTF-16 positions and builds the messages.
local M = {}

local function line(buf, lnum)
  return vim.api.nvim_buf_get_lines(buf, lnum - 1, lnum, false)[1] or ""
end

-- The lines of a blockwise selection extended with $ (getregion cuts
-- each line at the cursor's column instead): from the block's left
-- display column to the end of each line.
local function block_to_eol(buf, lnum1, lnum2, start, finish)
  return vim.api.nvim_buf_call(buf, function()
    local left = math.min(vim.fn.virtcol(start), vim.fn.virtcol(finish))
    local out = {}
    for lnum = lnum1, lnum2 do
      local text = line(buf, lnum)
      if vim.fn.strdisplaywidth(text) < left then
        table.insert(out, "")
      else
        -- From the character at that column (whole, when a tab or a wide
        -- character starts left of it).
        local col = vim.fn.virtcol2col(0, lnum, left)
        table.insert(out, text:sub(col))
      end
    end
    return out
  end)
end

--- Text of a selection and the lines its ends are on.
---@param buf integer
---@param kind string "n" (cursor only), "v", "V" or "\22"
---@param first integer[] { lnum, col } 1-based, first in buffer order
---@param last integer[] { lnum, col }
---@param start integer[] visual start { lnum, col } (for blockwise columns)
---@param finish integer[] cursor end { lnum, col }
---@param to_eol boolean blockwise extended with $: each line to its end
function M.read(buf, kind, first, last, start, finish, to_eol)
  if not vim.api.nvim_buf_is_valid(buf) or not vim.api.nvim_buf_is_loaded(buf) then
    return vim.NIL
  end
  local count = vim.api.nvim_buf_line_count(buf)
  if first[1] > count then
    return vim.NIL
  end
  local result = { first = line(buf, first[1]), last = line(buf, math.min(last[1], count)), text = "" }
  if to_eol then
    result.text = table.concat(block_to_eol(buf, first[1], last[1], start, finish), "\n")
  elseif kind ~= "n" then
    local ok, region = pcall(
      vim.fn.getregion,
      { buf, start[1], start[2], 0 },
      { buf, finish[1], finish[2], 0 },
      { type = kind }
    )
    if ok then
      result.text = table.concat(region, "\n")
    end
  end
  return result
end

--- The state of the current window, in the same shape as the selection
--- events' eval (nvimapi/selection.Event in Go); file says whether it shows
--- a file (tools.is_file_buf).
function M.current()
  local buf = vim.api.nvim_get_current_buf()
  return {
    buf = buf,
    path = vim.api.nvim_buf_get_name(buf),
    file = require("claude.buffers").is_file_buf(buf),
    mode = vim.fn.mode(),
    cursor = vim.fn.getcurpos(),
    visual = vim.fn.getpos("v"),
    tick = vim.b[buf].changedtick,
  }
end

--- The state of the window the user last edited files in, in the same
--- shape, or nil: what a freshly connected CLI should be told about (the
--- Claude terminal is usually the current window then).
function M.editor_state()
  local win = require("claude.buffers").editor_win()
  if not win then
    return vim.NIL
  end
  if win == vim.api.nvim_get_current_win() then
    return M.current()
  end
  local buf = vim.api.nvim_win_get_buf(win)
  local row, col = unpack(vim.api.nvim_win_get_cursor(win))
  local pos = { buf, row, col + 1, 0 }
  return {
    buf = buf,
    path = vim.api.nvim_buf_get_name(buf),
    file = require("claude.buffers").is_file_buf(buf),
    mode = "n",
    cursor = pos,
    visual = pos,
    tick = vim.b[buf].changedtick,
  }
end

return M
