-- Which buffers are files and which windows show them: the one rule the
-- MCP tools, the diff view, reload.lua and the Go host's events all use.
local M = {}

--- Whether a buffer with this name and 'buftype' holds a file on disk: a
--- normal buffer (not a terminal, Claude's included, nor help, quickfix,
--- scratch or plugin buffers, nor Claude's proposals, which are acwrite)
--- named by an absolute path that is not a URL (fugitive://, oil://).
--- Neovim makes every file buffer's name absolute; a name it left relative
--- is no file. This is the one rule: the Go host asks it too, in the
--- cursor and diagnostics events' eval (nvimapi/selection.Event,
--- nvimapi.DiagnosticEvent).
---@param name string
---@param buftype string
function M.is_file(name, buftype)
  local absolute = name:sub(1, 1) == "/" or name:find("^%a:[/\\]") ~= nil
  return buftype == "" and absolute and not name:find("://", 1, true)
end

--- A buffer-local option of buf. Not nvim_get_option_value (nor vim.bo)
--- for another buffer: on Neovim 0.12 that costs about 1 ms per request
--- it appears in, after the request (getDiagnostics {uri} spent most of its
--- time there); getbufvar() reads the option directly.
---@param buf integer a buffer number, never 0 (getbufvar's 0 is the alternate buffer)
---@param name string
local function bufopt(buf, name)
  return vim.fn.getbufvar(buf, "&" .. name)
end
M.bufopt = bufopt

--- Whether buf holds a file on disk (is_file); 0 is the current buffer.
--- Runs on every cursor move (the events' eval): API calls, not vim.bo.
function M.is_file_buf(buf)
  local api = vim.api
  if buf == 0 then
    buf = api.nvim_get_current_buf()
  end
  return api.nvim_buf_is_valid(buf) and M.is_file(api.nvim_buf_get_name(buf), bufopt(buf, "buftype"))
end
local is_file_buf = M.is_file_buf

--- Names buf name, or "name #tag" when another buffer has that name
--- already (a second view of the same file, a restarted terminal).
---@param buf integer
---@param name string
---@param tag integer|string
function M.set_buf_name(buf, name, tag)
  if not pcall(vim.api.nvim_buf_set_name, buf, name) then
    pcall(vim.api.nvim_buf_set_name, buf, name .. " #" .. tag)
  end
end

--- The file buffer (is_file_buf) of path, or nil: never a proposal or
--- another scratch buffer that happens to carry that name. Compares full
--- names (bufnr() would treat path as a pattern), then resolves symlinks.
--- A buffer named exactly path wins over one that reaches it through a
--- link: the cached checkDocumentDirty (nvimapi/cache.go) relies on that.
function M.find_buf(path)
  local bufs = vim.api.nvim_list_bufs()
  for _, buf in ipairs(bufs) do
    if vim.api.nvim_buf_get_name(buf) == path and is_file_buf(buf) then
      return buf
    end
  end
  local want = vim.fn.resolve(path)
  for _, buf in ipairs(bufs) do
    local name = vim.api.nvim_buf_get_name(buf)
    if name ~= "" and (name == path or vim.fn.resolve(name) == want) and is_file_buf(buf) then
      return buf
    end
  end
  return nil
end

--- The text :w would write: lines joined by the buffer's line ending, with
--- a final one when 'eol' or 'fixeol' says so.
---@param buf integer
function M.text(buf)
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local nl = vim.bo[buf].fileformat == "dos" and "\r\n" or (vim.bo[buf].fileformat == "mac" and "\r" or "\n")
  local text = table.concat(lines, nl)
  if (vim.bo[buf].eol or vim.bo[buf].fixeol) and not vim.bo[buf].binary then
    text = text .. nl
  end
  return text
end

--- The file at path as the editor holds it: its loaded buffer's text as
--- :w would write it (unsaved changes included) and true when that differs
--- from the disk, else the bytes on disk and false; nil when neither.
---@param path string
---@return string|nil text, boolean unsaved
function M.current_text(path)
  local buf = M.find_buf(path)
  if buf and vim.api.nvim_buf_is_loaded(buf) then
    return M.text(buf), vim.bo[buf].modified
  end
  local f = io.open(path, "rb")
  if not f then
    return nil, false
  end
  local text = f:read("*a")
  f:close()
  return text, false
end

-- A window that shows files: not Claude's terminal, not floating, not a
-- diff, not a side panel (file trees are 'nofile' or 'acwrite' buffers),
-- not one pinned to its buffer ('winfixbuf' refuses another).
local function is_editor_win(win)
  if vim.api.nvim_win_get_config(win).relative ~= "" or vim.wo[win].winfixbuf then
    return false
  end
  local buf = vim.api.nvim_win_get_buf(win)
  return vim.bo[buf].buftype == "" and not vim.wo[win].diff
end

--- The window the user last edited files in: the current one when it is
--- such a window, else the previous one, else any in this tab page.
function M.editor_win()
  local cur = vim.api.nvim_get_current_win()
  if is_editor_win(cur) then
    return cur
  end
  local prev = vim.fn.win_getid(vim.fn.winnr("#"))
  if prev ~= 0 and is_editor_win(prev) then
    return prev
  end
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if is_editor_win(win) then
      return win
    end
  end
  return nil
end

return M
