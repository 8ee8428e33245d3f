-- The native chat when the Go host dies under it (a crash, SIGKILL, the
-- OOM killer): host.lua ends its CLI (left alone, one mid-turn finishes
-- the turn unseen; chat/doc.go) and says so with `User ClaudeHostExit`;
-- this file tells each chat what happened, cancels what waited for the
-- user, and continues the conversation with a new host: the CLI started
-- again with --resume and the session id the chat knows, the transcript
-- kept as it is.
local M = {}

local state = require("claude.chat.state")
local render = require("claude.chat.render")

-- The line that says a chat lost its Go process; how is host.describe_exit's.
local function stopped_line(how, mid_turn, restart, resumable)
  local what = mid_turn and string.format("**The Go process stopped (%s): the turn in flight was cut.**", how)
    or string.format("**The Go process stopped (%s).**", how)
  if not resumable then
    return what .. " Your next message starts Claude again."
  elseif restart then
    return what .. " It is restarted and the conversation resumed."
  end
  return what
    .. " It stopped again right after a restart, so it is not restarted now (see :Claude log);"
    .. " your next message starts it and resumes the conversation."
end

-- Ends what c's dead CLI had in flight: the permission requests and diff
-- reviews waiting for the user are cancelled (an answer given later goes
-- nowhere: render.lua skips a withdrawn request), the turn is over.
local function cut(c, buf)
  for _, it in ipairs(c.queue) do
    if not c.withdrawn[it.id] then
      c.withdrawn[it.id] = true
      render.add(c, buf, { string.format("  ⎿  %s permission request cancelled: the Go process stopped", state.clean(it.name)) })
    end
  end
  for _, it in pairs(c.reviews or {}) do
    render.add(c, buf, { string.format("  ⎿  %s review cancelled: the Go process stopped, nothing was written", state.clean(it.name)) })
  end
  c.queue, c.reviews = {}, nil
  c.busy, c.streaming, c.thinking_at, c.running = false, nil, nil, false
end

--- Starts c's CLI as state.start does, and says so in the transcript when
--- that resumed a conversation whose CLI died with the Go host.
---@return boolean started
---@return string|nil why "untrusted" when the host asks first
function M.start(c, how)
  local ok, detail, remote = state.start(c, how)
  if not ok then
    -- "untrusted": the host asks in the transcript; "connecting": to remote
    return false, detail, remote
  end
  if detail then
    render.write(c, function(buf)
      render.add(c, buf, { "_Resumed the conversation after the restart._" }, true)
    end)
    state.follow(c)
  end
  return true
end

-- The Go host died (data: host.lua's ClaudeHostExit).
local function host_exited(data)
  local how = require("claude.host").describe_exit(data.code or 0)
  local lost = {}
  for _, dir in ipairs(data.chats or {}) do
    lost[dir] = true
  end
  local again = {}
  for dir, c in pairs(state.chats) do
    -- A CLI that exited before the host did has nothing to say here; its
    -- conversation is resumed all the same by the next message, as the
    -- new host does not know it.
    local had_cli = lost[dir] and c.running ~= false
    c.revive = c.conversation
    if had_cli then
      local mid_turn = c.busy
      render.write(c, function(buf)
        cut(c, buf)
        render.add(c, buf, { stopped_line(how, mid_turn, data.restart, c.revive ~= nil) }, true)
      end)
      state.update_status(c)
      state.follow(c)
      if data.restart and c.revive then
        table.insert(again, c)
      end
    end
  end
  -- At once rather than at the next message, as the terminal's server is:
  -- the chat is ready (its CLI started, the editor's tools served) by the
  -- time the user sends, and the transcript says it is back. Once the dead
  -- host's CLIs are gone, so that one conversation never has two.
  if #again == 0 then
    return
  end
  require("claude.reap").after(function()
    for _, c in ipairs(again) do
      -- Unless the user got there first (a message, :ClaudeChat new).
      if c.revive and not c.running and not M.start(c) then
        render.write(c, function(buf)
          render.add(c, buf, { "**Could not start Claude again** (see :messages); your next message tries again." }, true)
        end)
      end
    end
  end)
end

vim.api.nvim_create_autocmd("User", {
  group = vim.api.nvim_create_augroup("ClaudeChatRevive", { clear = true }),
  pattern = "ClaudeHostExit",
  desc = "claude.nvim: tell the chats the Go host died, and resume their conversations",
  callback = function(ev)
    host_exited(ev.data or {})
  end,
})

return M
