-- Workspace trust for the chat. The CLI's print mode never asks whether
-- to trust a folder; it runs the folder's hooks, MCP servers and settings
-- at once. So before a chat's CLI starts in a folder the CLI has not
-- trusted, the host puts the question in the transcript (render.trust)
-- and nothing starts; the user answers here, when they choose (<CR> in the
-- transcript, :Claude chat trust), and a yes starts the chat, whose CLI
-- records it where the CLI keeps it (the host does for a CLI that cannot:
-- chatctl/trust.go), so a terminal's CLI agrees.
local M = {}

local state = require("claude.chat.state")
local render = require("claude.chat.render")

local function say(c, line)
  if not (c and state.valid(c.tbuf)) then
    return
  end
  render.write(c, function(buf)
    render.add(c, buf, { "  ⎿  " .. line })
  end)
  state.follow(c)
end

local function yes(c, dir)
  local remote = not (c and c.agent) and state.remote_for(dir) or nil
  -- A remote's CLI is its own there: no local program to check.
  local args = state.start_args(dir, nil, false, remote)
  if not args then
    return
  end
  say(c, "trusting " .. state.clean(c and c.trust and c.trust.folder or dir) .. "…")
  require("claude.host").trust_chat({ dir = dir, cwd = c and c.cwd, env = args.env, remote = remote and { name = remote } or nil })
end

local function no(c, dir)
  if c then
    c.trust = nil
    state.update_status(c)
  end
  say(c, "not trusted: no Claude runs in this folder, nor its hooks, MCP servers or settings. :Claude chat trust yes trusts it")
end

--- Answers the trust question of dir's chat: how "yes", "no", or nil to
--- open the picker (which asks again if dismissed: nothing is chosen for
--- the user).
---@param dir string
---@param how string|nil
function M.answer(dir, how)
  local c = state.chats[dir]
  if how == "yes" then
    return yes(c, dir)
  elseif how == "no" then
    return no(c, dir)
  end
  local folder = c and c.trust and c.trust.folder or dir
  local choices = { { label = "Yes, I trust this folder", run = yes }, { label = "No, not now", run = no } }
  vim.ui.select(choices, {
    prompt = "Trust " .. folder .. "? Its hooks, MCP servers and settings will run:",
    format_item = function(choice)
      return choice.label
    end,
  }, function(choice)
    if choice then
      choice.run(c, dir)
    end
  end)
end

--- The host's answer to a yes (chatctl/trust.go): err is "" at once, and
--- the chat's CLI starts as the user had asked; a later err says the trust
--- could not be recorded (the chat runs on).
---@param dir string
---@param err string
function M.recorded(dir, err)
  local c = state.chats[dir]
  if err ~= "" then
    say(c, "could not record the trust: " .. state.clean(err))
    require("claude.notify").error("claude.nvim: could not record the trust in " .. dir .. ": " .. err)
    return
  end
  local how = state.untrusted[dir] or {}
  state.untrusted[dir] = nil
  if c then
    c.trust = nil
    state.update_status(c)
    local remote = not c.agent and state.remote_for(dir)
    say(c, remote and ("trusted for remote " .. remote .. " until Neovim exits: Claude starts there") or "trusted: Claude starts, and the trust is recorded where the CLI keeps it")
    state.start(c, how)
  end
end

return M
