-- The two buffers of a diff view (claude.diff): the file as it is, never
-- modified by us, and Claude's proposal, a buffer :w never writes to disk.
local M = {}

-- The left side: the file's buffer (loaded if needed, never modified by
-- us), or an empty scratch buffer when the file does not exist yet.
local function original_buffer(view, path)
  local buf = require("claude.buffers").find_buf(path)
  if buf and vim.api.nvim_buf_is_loaded(buf) then
    -- Claude may have written the file since (an edit it was allowed to
    -- make without asking): compare against the file as it is now.
    if require("claude.config").get().auto_reload then
      require("claude.reload").check(buf)
    end
    return buf
  end
  if vim.uv.fs_stat(path) then
    buf = buf or vim.fn.bufadd(path)
    vim.fn.bufload(buf)
    view.loaded_orig = true
    return buf
  end
  buf = vim.api.nvim_create_buf(false, true)
  vim.bo[buf].bufhidden = "wipe"
  pcall(vim.api.nvim_buf_set_name, buf, path .. " (new file)")
  view.scratch_orig = true
  return buf
end

-- The proposal's buffer: the one its pieces were staged in
-- (claude.diff.large), or a new one filled here. A large one gets its
-- filetype after the diff shows (show): syntax or a treesitter parse of
-- megabytes would hold up the view.
local function proposal_buffer(view, spec, filetype)
  local buf = view.staged_buf or vim.api.nvim_create_buf(false, false)
  local bo = vim.bo[buf]
  bo.buftype = "acwrite" -- :w reaches our BufWriteCmd, never the disk
  bo.bufhidden = "wipe" -- closing its last window is a rejection
  bo.swapfile = false
  local name = spec.new_path .. " (Claude proposal)"
  require("claude.buffers").set_buf_name(buf, name, view.id)
  if not view.staged_buf then
    bo.undolevels = -1 -- Claude's text is no change `u` may take away
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, spec.lines)
  end
  bo.undolevels = -123456 -- the global value again, for the user's edits
  bo.fileformat = spec.dos and "dos" or "unix"
  bo.eol = spec.eol
  bo.fixeol = spec.eol
  if filetype and filetype ~= "" then
    if view.large then
      view.filetype = filetype
    else
      bo.filetype = filetype
    end
  end
  bo.modified = false
  vim.b[buf].claude_diff = view.id
  return buf
end

--- Makes view's two buffers (view.orig_buf, view.prop_buf): the file (or
--- an empty stand-in for a new one) and the proposal, with the file's
--- filetype.
function M.make(view, spec, from_term)
  local function prepare()
    local buf = original_buffer(view, spec.old_path)
    local filetype = vim.bo[buf].filetype
    if filetype == "" then
      filetype = vim.filetype.match({ filename = spec.new_path }) or ""
    end
    return { buf, proposal_buffer(view, spec, filetype) }
  end
  -- Setting up buffers no window shows borrows Neovim's autocommand
  -- window, and while a terminal is the current window that resizes the
  -- terminal to the full editor width: Claude would draw lines wider than
  -- its split. Set them up from a file window instead.
  local file_win = from_term and require("claude.buffers").editor_win() or nil
  local bufs = file_win and vim.api.nvim_win_call(file_win, prepare) or prepare()
  view.orig_buf, view.prop_buf = bufs[1], bufs[2]
end

return M
