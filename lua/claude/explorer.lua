-- :ClaudeAdd without a path in a file explorer: the file or directory on
-- the cursor's line, or on each line of the range (a Visual selection).
-- An explorer is known by its buffer's filetype and read through what it
-- shows or its own API; none of them is a dependency.
local M = {}

-- netrw's thin listing (the default, g:netrw_liststyle 0): one entry a
-- line, directories ending in "/", executables in "*", links in "@" and
-- " --> target"; the banner's lines start with a double quote.
local function netrw_entry(buf, lnum)
  local style = vim.b[buf].netrw_liststyle or vim.g.netrw_liststyle or 0
  if style ~= 0 then
    return nil, "netrw's thin listing only (press i to switch); or use :ClaudeAdd {path}"
  end
  local line = vim.api.nvim_buf_get_lines(buf, lnum - 1, lnum, false)[1] or ""
  local name = line:gsub("\t%s*%-%->.*$", ""):gsub("[*@=|]$", "")
  if name == "" or name:sub(1, 1) == '"' or name == "./" or name == "../" then
    return nil
  end
  return vim.fs.joinpath(vim.b[buf].netrw_curdir, name)
end

local readers = {
  netrw = netrw_entry,
}

--- Whether buf is a file explorer :ClaudeAdd can read.
function M.is_explorer(buf)
  return readers[vim.bo[buf].filetype] ~= nil
end

--- The paths on lines line1..line2 of the explorer in buf.
---@return string[]|nil paths
---@return string|nil error
function M.paths(buf, line1, line2)
  local read = readers[vim.bo[buf].filetype]
  if not read then
    return nil, "this buffer is no file explorer :ClaudeAdd knows"
  end
  local out = {}
  for lnum = line1, line2 do
    local path, err = read(buf, lnum)
    if err then
      return nil, err
    end
    if path then
      table.insert(out, path)
    end
  end
  if #out == 0 then
    return nil, "no file or directory on " .. (line1 == line2 and "this line" or "these lines")
  end
  return out
end

return M
