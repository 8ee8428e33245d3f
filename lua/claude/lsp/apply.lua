-- Writes what the user accepted of a rename's review (nvimapi/lsp_edits.go
-- asks once every file is accepted): each file gets the text of its
-- accepted proposal, hunks taken back included as they were. Only files
-- of the workspace, each only if it still holds the text the rename was
-- made from; a buffer with unsaved changes gets the text in the buffer and
-- stays unsaved (writing it would save the user's edits for them).
local M = {}

local target = require("claude.lsp.target")

-- The buffer's text as :w would write it.
local function buffer_text(buf)
  local nl = vim.bo[buf].fileformat == "dos" and "\r\n" or "\n"
  local text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), nl)
  if vim.bo[buf].eol or vim.bo[buf].fixeol then
    text = text .. nl
  end
  return text
end

-- Replaces the lines of buf that differ from text's, keeping the equal
-- ones before and after (and their marks).
local function set_text(buf, text)
  local nl = vim.bo[buf].fileformat == "dos" and "\r\n" or "\n"
  local lines = vim.split(text, nl, { plain = true })
  if lines[#lines] == "" then
    table.remove(lines)
  end
  local old = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local a = 0
  while a < #old and a < #lines and old[a + 1] == lines[a + 1] do
    a = a + 1
  end
  local b = 0
  while b < #old - a and b < #lines - a and old[#old - b] == lines[#lines - b] do
    b = b + 1
  end
  vim.api.nvim_buf_set_lines(buf, a, #old - b, false, vim.list_slice(lines, a + 1, #lines - b))
end

local function read(path)
  local f = io.open(path, "rb")
  if not f then
    return nil
  end
  local text = f:read("*a")
  f:close()
  return text
end

-- Writes text over the file at real (its mode and inode kept).
local function write(real, text)
  local fd, err = vim.uv.fs_open(real, "w", 438)
  if not fd then
    return err
  end
  local _, werr = vim.uv.fs_write(fd, text)
  vim.uv.fs_close(fd)
  return werr
end

--- Applies files, each { path, old, new }; returns one line per file.
---@param files table[]
---@return string[]
function M.files(files)
  local folders = target.folders()
  local out = {}
  for _, f in ipairs(files) do
    local name = vim.fn.fnamemodify(f.path, ":~:.")
    local real = target.inside(f.path, folders)
    local buf = require("claude.buffers").find_buf(f.path)
    if buf and not vim.api.nvim_buf_is_loaded(buf) then
      buf = nil
    end
    if not real then
      table.insert(out, name .. ": not written, it is outside the workspace")
    elseif buf and buffer_text(buf) ~= f.old then
      table.insert(out, name .. ": not written, it changed in the editor since the rename was proposed")
    elseif buf and vim.bo[buf].modified then
      set_text(buf, f.new)
      table.insert(out, name .. ": changed in its buffer, not saved (it had unsaved changes)")
    elseif not buf and read(real) ~= f.old then
      table.insert(out, name .. ": not written, it changed on disk since the rename was proposed")
    else
      local err = write(real, f.new)
      if err then
        table.insert(out, name .. ": not written: " .. tostring(err))
      else
        if buf then
          require("claude.reload").check(buf)
        end
        table.insert(out, name .. ": written")
      end
    end
  end
  return out
end

--- Ends a rename's review (nvimapi.Editor.ProposeEdits): with why, says
--- nothing was written and why; else writes files and says how each went.
---@param title string
---@param files table[]
---@param why string|nil
function M.finish(title, files, why)
  local notify = require("claude.notify")
  if why and why ~= vim.NIL and why ~= "" then
    notify.warn(string.format("%s: nothing written (%s)", title, why))
    return {}
  end
  local lines = M.files(files)
  notify.info(title .. ":\n" .. table.concat(lines, "\n"))
  return lines
end

return M
