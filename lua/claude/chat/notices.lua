-- What the CLI says beside the conversation (chatctl/notices.go): its
-- notices, the tools a mode refused without asking, and a permission check
-- that takes long. Above all auto mode's safety check when it cannot run:
-- every action that needs it is refused, and the chat says so in plain
-- words rather than look like a tool that failed, or one that hangs.
local M = {}

local state = require("claude.chat.state")

local function render()
  return require("claude.chat.render")
end

local HINT = "<S-Tab> or :Claude mode switches to a mode that asks you instead."

-- The CLI's notice: said as it is, but auto mode without its check in our
-- words first (its own, longer, folded under them).
function M.notice(c, buf, it)
  local view = render()
  if it.name == "auto_mode_no_server_check" then
    c.auto_unchecked = true
    state.update_status(c)
    view.add(c, buf, {
      "**Auto mode cannot check actions here:** its safety check runs on Anthropic's servers and does not reach this session, so every action that needs it is refused, without asking you. "
        .. HINT,
      "  │ " .. it.text,
    }, true)
    local n = vim.api.nvim_buf_line_count(buf)
    state.fold(c, n, n)
    c.last = "notice"
    return
  end
  view.add(c, buf, { (it.subtype == "warning" and "**Note:** " or "_") .. it.text .. (it.subtype == "warning" and "" or "_") }, true)
  c.last = "notice"
end

-- Why the CLI refused a tool without asking, in plain words.
local function why(c, it)
  if it.subtype == "mode" then
    return string.format("mode %s runs only what your permission rules allow", c.mode or "dontAsk")
  elseif it.subtype == "auto_mode_no_check_in_session" then
    return "auto mode's safety check does not run in this session"
  elseif it.subtype == "classifier" then
    return "auto mode's safety check: " .. (it.text ~= "" and it.text or "no verdict")
  end
  return it.text ~= nil and it.text ~= "" and it.text or "the mode allows it only with a permission rule"
end

function M.denied(c, buf, it)
  c.checking = nil
  local line = string.format("  ⎿  %s refused without asking you: %s", it.name or "the tool", why(c, it))
  if it.subtype == "classifier" or it.subtype == "auto_mode_no_check_in_session" then
    line = line .. ". " .. HINT
  end
  render().add(c, buf, { line })
  c.last = "tool"
end

-- A tool call waits on auto mode's safety check longer than usual: the
-- winbar says so (it would look like a tool running) until it is done.
function M.checking(c, _, it)
  c.checking = it.text == "checking" and it.id or nil
  state.update_status(c)
end

return M
