-- Editor operations behind the MCP tools (openFile, getDiagnostics, ...).
-- The Go host calls each function in a single RPC and shapes the answer.
local M = {}

local severities = { "Error", "Warning", "Info", "Hint" }

-- The buffer rules live on the floor below (buffers.lua), where reload.lua
-- reads them too; kept here under their old names for callers of tools.
local buffers = require("claude.buffers")
M.is_file = buffers.is_file
M.bufopt = buffers.bufopt
M.is_file_buf = buffers.is_file_buf
M.find_buf = buffers.find_buf
M.editor_win = buffers.editor_win
local bufopt, is_file_buf = buffers.bufopt, buffers.is_file_buf

local function find_text(lines, text, from_line, from_col)
  for i = from_line, #lines do
    local s, e = lines[i]:find(text, i == from_line and from_col or 1, true)
    if s then
      return i, s, e
    end
  end
  return nil
end

--- openFile: shows path, optionally selecting text in it.
---@param req table { path, preview, start_text, end_text, select_to_eol, start_line, end_line, frontmost }
function M.open_file(req)
  local path = req.path
  if vim.fn.filereadable(path) ~= 1 and not M.find_buf(path) then
    error("File not found", 0) -- the tool's error names the path
  end
  local win = M.editor_win()
  if not win then
    -- Only Claude's terminal (or panels) on screen: make room beside it.
    vim.cmd("topleft vsplit")
    win = vim.api.nvim_get_current_win()
  end
  local buf = M.find_buf(path)
  vim.api.nvim_win_call(win, function()
    if buf then
      vim.api.nvim_win_set_buf(win, buf)
    else
      vim.cmd.edit(vim.fn.fnameescape(path))
    end
  end)
  buf = vim.api.nvim_win_get_buf(win)
  local message = "Opened file: " .. path
  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  local from, to -- { line, col } 1-based line, 0-based byte col; `to` inclusive
  if req.start_text and req.start_text ~= "" then
    local l, s, e = find_text(lines, req.start_text, 1, 1)
    if l then
      from, to = { l, s - 1 }, { l, e - 1 }
      message = string.format('Opened file and selected text "%s"', req.start_text)
      if req.end_text and req.end_text ~= "" then
        local l2, _, e2 = find_text(lines, req.end_text, l, e + 1)
        if l2 then
          to = { l2, e2 - 1 }
          message = string.format('Opened file and selected text from "%s" to "%s"', req.start_text, req.end_text)
        end
      end
    else
      message = string.format('Opened file, but text "%s" was not found', req.start_text)
    end
  elseif req.start_line and req.start_line > 0 then
    local l1 = math.min(req.start_line, #lines)
    local l2 = math.min(math.max(req.end_line or l1, l1), #lines)
    from, to = { l1, 0 }, { l2, math.max(#lines[l2] - 1, 0) }
    message = string.format("Opened file and selected lines %d to %d", l1, l2)
  end
  if from and req.select_to_eol then
    to[2] = math.max(#lines[to[1]] - 1, 0)
  end
  if from then
    vim.api.nvim_win_set_cursor(win, from)
  end
  if req.frontmost then
    vim.api.nvim_set_current_win(win)
    -- Called from Claude's terminal, a pending terminal-mode (insert)
    -- start would otherwise follow us into this window.
    vim.cmd.stopinsert()
    if from then
      vim.cmd("normal! \27")
      vim.cmd("normal! v")
      vim.api.nvim_win_set_cursor(win, to)
    end
  end
  return {
    message = message,
    filetype = vim.bo[buf].filetype,
    line_count = vim.api.nvim_buf_line_count(buf),
  }
end

-- One diagnostic as a positional list (nvimapi.luaDiagnostic, a msgpack
-- array): with 10,000 diagnostics, naming eight keys in each cost Neovim
-- and the host more than the values.
local function diag_entry(d)
  local code = d.code
  if code ~= nil and type(code) ~= "string" then
    code = tostring(code)
  end
  return {
    d.lnum,
    d.col,
    d.end_lnum or d.lnum,
    d.end_col or d.col,
    severities[d.severity] or "Info",
    d.message or "",
    d.source or "",
    code or "",
  }
end

--- getDiagnostics: per file buffer, its diagnostics plus the text of the
--- lines they touch (Go converts byte columns to UTF-16).
---@param path string|nil nil for every buffer
function M.diagnostics(path)
  if path == vim.NIL then
    path = nil
  end
  local bufs = {}
  if path then
    local buf = M.find_buf(path)
    if buf then
      bufs = { buf }
    end
  else
    for _, buf in ipairs(vim.api.nvim_list_bufs()) do
      if vim.api.nvim_buf_is_loaded(buf) and is_file_buf(buf) then
        table.insert(bufs, buf)
      end
    end
  end
  local out = {}
  local get_lines = vim.api.nvim_buf_get_lines
  for _, buf in ipairs(bufs) do
    -- An empty Lua table goes over msgpack as an array; lines must stay a map.
    local items, lines = {}, vim.empty_dict()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      local e = diag_entry(d)
      items[#items + 1] = e
      for _, l in ipairs({ e[1], e[3] }) do
        local key = tostring(l)
        if lines[key] == nil then
          lines[key] = get_lines(buf, l, l + 1, false)[1] or ""
        end
      end
    end
    if #items > 0 or path then
      out[#out + 1] = { path = path or vim.api.nvim_buf_get_name(buf), items = items, lines = lines }
    end
  end
  return out
end

--- Reloads the buffers whose files changed on disk (Claude just wrote
--- them) and returns those reloaded now or before since the last call (by
--- the watcher after an accepted diff, by the user going back to a buffer):
--- { buf, tick = b:changedtick after the reload, age_ms, lsp }, where lsp
--- says a language server will probably publish new diagnostics for it.
--- Whether to wait for those is nvimapi/settle.go's decision.
---@param path string|nil only this file's buffer (getDiagnostics {uri}:
--- checking every buffer cost 2 ms with 200 open, for an answer about one)
function M.refresh(path)
  if not require("claude.config").get().auto_reload then
    return {}
  end
  local reload = require("claude.reload")
  local only = path and M.find_buf(path)
  if only then
    reload.check(only)
  elseif not path then
    reload.check()
  end
  local out = reload.take_fresh()
  for _, r in ipairs(out) do
    r.lsp = #vim.lsp.get_clients({ bufnr = r.buf }) > 0
  end
  return out
end

--- getDiagnostics in one round trip: reload what Claude changed, then read.
--- When a reloaded buffer's diagnostics are still to come the Go side waits
--- and reads again.
function M.refresh_and_diagnose(path)
  if path == vim.NIL then
    path = nil
  end
  return { reloaded = M.refresh(path), files = M.diagnostics(path) }
end

--- getOpenEditors: the listed, loaded file buffers.
function M.open_editors()
  local win = M.editor_win()
  local active = win and vim.api.nvim_win_get_buf(win) or -1
  local out = {}
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) and bufopt(buf, "buflisted") == 1 and is_file_buf(buf) then
      table.insert(out, {
        path = vim.api.nvim_buf_get_name(buf),
        active = buf == active,
        dirty = bufopt(buf, "modified") == 1,
        filetype = bufopt(buf, "filetype"),
        line_count = vim.api.nvim_buf_line_count(buf),
      })
    end
  end
  return out
end

--- The working directories: the current window's first, then the global
--- one and every tab page's (:cd, :tcd, :lcd all count).
function M.workspace_folders()
  local seen, out = {}, {}
  local function add(dir)
    if dir ~= "" and not seen[dir] then
      seen[dir] = true
      table.insert(out, dir)
    end
  end
  add(vim.fn.getcwd())
  add(vim.fn.getcwd(-1, -1))
  for tab = 1, vim.fn.tabpagenr("$") do
    add(vim.fn.getcwd(-1, tab))
  end
  return out
end

--- readFile (the variant protocol's): the text of path's buffer when it has
--- unsaved changes, { text }; { over = true } when that text is longer than
--- limit bytes; vim.NIL when no buffer holds path or it is saved (the file
--- on disk is then what the user sees).
---@param path string
---@param limit integer
function M.unsaved_text(path, limit)
  local buf = M.find_buf(path)
  if not buf or not vim.api.nvim_buf_is_loaded(buf) or bufopt(buf, "modified") ~= 1 then
    return vim.NIL
  end
  -- The size without building the string: the offset counts one byte per
  -- line ending, a DOS one is two.
  local lines = vim.api.nvim_buf_line_count(buf)
  local dos = bufopt(buf, "fileformat") == "dos" and lines or 0
  if vim.api.nvim_buf_get_offset(buf, lines) + dos > limit then
    return { over = true }
  end
  return { text = buffers.text(buf) }
end

--- checkDocumentDirty.
function M.document_state(path)
  local buf = M.find_buf(path)
  if not buf then
    return vim.NIL
  end
  return { dirty = bufopt(buf, "modified") == 1, untitled = vim.api.nvim_buf_get_name(buf) == "" }
end

--- saveDocument: writes the buffer, unless its file changed on disk since
--- it was read (then saving would silently drop Claude's or someone's
--- change, or block on Neovim's overwrite prompt).
function M.save(path)
  local buf = M.find_buf(path)
  if not buf then
    return "not open"
  end
  if require("claude.reload").changed_on_disk(buf) then
    error("the file changed on disk since it was read; not overwriting it (reload it with :e or save with :w!)", 0)
  end
  vim.api.nvim_buf_call(buf, function()
    vim.cmd("silent write")
  end)
  return "saved"
end

return M
