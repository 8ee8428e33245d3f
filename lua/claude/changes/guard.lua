-- What every revert checks first: a revert works on the file on disk, and
-- must never go over edits the user has not saved.
local M = {}

--- Whether a loaded buffer of one of paths (relative to root) has unsaved
--- edits; if so it says which, and nothing is to be reverted.
---@param root string
---@param paths string[]
---@return boolean refused
function M.refuse_modified(root, paths)
  for _, path in ipairs(paths) do
    local buf = vim.fn.bufnr(root .. "/" .. path)
    if buf > 0 and vim.api.nvim_buf_is_loaded(buf) and vim.bo[buf].modified then
      require("claude.notify").warn(
        string.format(
          "claude.nvim: %s has unsaved edits: save or undo them first (a revert works on the file on disk); nothing was reverted",
          require("claude.changes.names").show(path)
        )
      )
      return true
    end
  end
  return false
end

--- Whether any loaded buffer of a file under root has unsaved edits (a
--- turn's revert from its diff, which does not hold the turn's file list):
--- says which, and returns true, if so.
---@param root string
---@return boolean refused
function M.refuse_modified_under(root)
  local prefix = root .. "/"
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    local name = vim.api.nvim_buf_get_name(buf)
    if vim.api.nvim_buf_is_loaded(buf) and vim.bo[buf].modified and vim.startswith(name, prefix) then
      return M.refuse_modified(root, { name:sub(#prefix + 1) })
    end
  end
  return false
end

return M
