-- The chat's permission modes (:Claude mode, <S-Tab>): every mode the
-- CLI has, with what each means for the review, said where it is chosen
-- (the picker, and the transcript once the CLI confirms). bypassPermissions
-- needs the user to type a word first, and a CLI launched to allow it: the
-- chat's CLI is started again with --allow-dangerously-skip-permissions,
-- resuming the conversation (the CLI refuses the switch otherwise).
local M = {}

local state = require("claude.chat.state")

-- In :Claude mode's order. 2.1.332 titles "default" "Manual"; the
-- stream still says "default".
M.list = { "default", "acceptEdits", "plan", "auto", "dontAsk", "bypassPermissions" }

-- <S-Tab>'s order, the CLI's shift+tab one (default, acceptEdits, plan,
-- then auto where it is available). bypassPermissions is left out: it is
-- never entered without the typed confirmation. dontAsk the CLI leaves
-- out too.
M.cycle = { "default", "acceptEdits", "plan", "auto" }

-- The CLI's own titles (2.1.332's mode table).
M.title = {
  default = "Manual",
  acceptEdits = "Accept edits",
  plan = "Plan",
  auto = "Auto",
  dontAsk = "Don't ask",
  bypassPermissions = "Bypass permissions",
}

-- What each mode means for the review, in the chat.
M.meaning = {
  default = "Claude asks first: each edit is reviewed in a diff, each command waits for your answer",
  acceptEdits = "edits in the workspace are written without review; commands still ask",
  plan = "Claude reads and plans without editing; you approve its plan before it works",
  auto = "a safety check on Anthropic's servers decides each action: no review, no questions",
  dontAsk = "only what your permission rules allow runs; everything else is refused without asking",
  bypassPermissions = "everything runs without asking: no review, no question, no safety check",
}

-- The word :Claude mode bypassPermissions wants typed.
M.confirm_word = "bypass"

--- The mode a user named: "manual" is "default" (2.1.332's name for it).
---@param mode string
---@return string
function M.canonical(mode)
  return mode == "manual" and "default" or mode
end

--- The line a picker shows for mode.
function M.label(mode, current)
  return string.format("%s%s (%s): %s", mode, mode == current and " [now]" or "", M.title[mode], M.meaning[mode])
end

--- The mode after from in <S-Tab>'s order.
function M.next(from)
  local i = 0
  for k, m in ipairs(M.cycle) do
    if m == from then
      i = k
    end
  end
  return M.cycle[i % #M.cycle + 1]
end

local function notify()
  return require("claude.notify")
end

-- Switches c's CLI to bypassPermissions, starting it again to allow it
-- when it was not launched so.
local function bypass(c)
  if c.busy then
    notify().error("finish or interrupt the turn first (<C-c>): bypassPermissions starts Claude again")
    return
  end
  -- An ACP agent (c.agent) takes the mode as it is: the relaunch is the
  -- Claude CLI's need.
  if not c.bypass_allowed and not c.agent then
    c.bypass_allowed = true
    -- revive: the transcript already shows the conversation.
    local ok = state.start(c, { resume = c.conversation, revive = c.conversation ~= nil, relaunch = true })
    if not ok then
      c.bypass_allowed = nil
      return
    end
  end
  c.mode_wanted = "bypassPermissions"
  require("claude.host").set_chat_mode(c.dir, "bypassPermissions")
end

--- Asks the user to type the confirmation word, then switches c to
--- bypassPermissions; anything else leaves the mode as it is.
function M.confirm_bypass(c)
  vim.ui.input({
    prompt = string.format("bypassPermissions: %s. Type %q to switch: ", M.meaning.bypassPermissions, M.confirm_word),
  }, function(typed)
    -- Out of the prompt's callback: the keys typed after it stay the user's.
    vim.schedule(function()
      if typed == M.confirm_word then
        bypass(c)
      else
        notify().info("the chat's mode stays " .. (c.mode or "default"))
      end
    end)
  end)
end

--- Lets the user pick a mode, each shown with what it means.
---@param c table
---@param set fun(mode: string)
function M.pick(c, set)
  local current = c.mode_wanted or c.mode or "default"
  vim.ui.select(M.list, {
    prompt = "Chat permission mode",
    format_item = function(m)
      return M.label(m, current)
    end,
  }, function(mode)
    if mode then
      vim.schedule(function()
        set(mode)
      end)
    end
  end)
end

return M
