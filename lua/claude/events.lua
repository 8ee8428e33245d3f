-- User autocmds other plugins and configs can hook into (:help claude-events).
local M = {}

--- Fires `User <name>` with data, never letting a user's handler error
--- break our own flow.
---@param name string e.g. "ClaudeConnected"
---@param data table|nil
function M.fire(name, data)
  local ok, err = pcall(vim.api.nvim_exec_autocmds, "User", { pattern = name, data = data or {}, modeline = false })
  if not ok then
    require("claude.notify").notify(string.format("claude.nvim: a User %s autocmd failed: %s", name, err), vim.log.levels.WARN)
  end
end

return M
