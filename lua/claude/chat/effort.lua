-- :Claude effort: how hard Claude thinks in the chat's next turns, as
-- the CLI's --effort and its settings' effortLevel choose it. The running
-- CLI takes it at once (a control request: the conversation goes on), and
-- the chat keeps it for any CLI it starts later (state.start adds
-- --effort). The winbar shows what the CLI applies.
local M = {}

local state = require("claude.chat.state")

-- The CLI's levels (`claude --help`: --effort), least first; "default"
-- drops the choice, and the CLI goes back to the model's default or the
-- user's settings.
M.levels = { "low", "medium", "high", "xhigh", "max", "default" }

--- Sets the effort of dir's chat (the current one by default).
---@param level string one of M.levels
---@param dir string|nil
function M.set(level, dir)
  local notify = require("claude.notify")
  if not vim.tbl_contains(M.levels, level) then
    notify.error("unknown effort " .. tostring(level) .. "; use one of: " .. table.concat(M.levels, ", "))
    return
  end
  dir = dir or state.current_dir()
  local c = state.chats[dir]
  if not c then
    notify.info("no chat for " .. dir .. "; :ClaudeChat starts one")
    return
  end
  c.effort = level ~= "default" and level or nil
  if c.running and require("claude.host").running() then
    require("claude.host").set_chat_effort(dir, c.effort or "")
  else
    notify.info("the chat's next CLI will run with effort " .. level)
    c.effort_applied = c.effort
    state.update_status(c)
  end
end

return M
