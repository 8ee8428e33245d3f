-- :Claude model: picks a model from the CLI's own list (its answer to the
-- stream-json initialize request). The running chat's CLI gave that list
-- when it started; with no chat running, the Go host starts a CLI just to
-- ask it. The choice applies to the running chat at once and is kept for
-- every CLI started later (model.lua).
local M = {}

local model = require("claude.model")

--- Asks the host for the CLI's model list; the picker opens when it comes
--- (M.show, through handlers.show_models).
function M.pick()
  local state = require("claude.chat.state")
  local args = state.start_args(state.current_dir())
  if args then
    require("claude.host").request_models(args)
  end
end

local function label(m)
  local name = (m.name and m.name ~= "") and m.name or m.value
  if m.description and m.description ~= "" then
    name = name .. " — " .. m.description
  end
  if m.value == model.selected() then
    name = name .. " (current)"
  end
  return name
end

--- The host's answer to M.pick (host/chat_control.go), through
--- handlers.show_models.
---@param dir string the chat's workspace
---@param models {value: string, name: string, description: string}[]
---@param running boolean whether dir's chat runs: the choice applies to it now
---@param err string why there is no list, "" when there is one
function M.show(dir, models, running, err)
  local notify = require("claude.notify")
  if err ~= "" then
    notify.error("could not get Claude's model list: " .. err)
    return
  end
  if #models == 0 then
    notify.warn("Claude's CLI listed no models")
    return
  end
  -- Asked after the host's call returns: it must not wait on the user.
  vim.schedule(function()
    vim.ui.select(models, { prompt = "Claude model", kind = "claude_model", format_item = label }, function(m)
      if not m then
        return
      end
      model.set(m.value)
      if running then
        require("claude.host").set_chat_model(dir, m.value)
      else
        notify.info("Claude will use model " .. m.value .. " from the next start (chat or terminal)")
      end
    end)
  end)
end

return M
