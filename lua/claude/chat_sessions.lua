-- The native chat's conversations (lua/claude/chat.lua keeps the chats):
-- :ClaudeChat new, resume (a picker of the CLI's stored sessions) and last.
local M = {}

local function core()
  return require("claude.chat")._core
end

-- Empties the transcript for another conversation; line, if any, is its
-- first line.
local function restart_transcript(c, line)
  c.busy, c.streaming, c.last, c.queue = false, nil, nil, {}
  c.folds, c.thinking_at = nil, nil
  for _, win in ipairs(vim.fn.win_findbuf(c.tbuf)) do
    vim.api.nvim_win_call(win, function()
      vim.cmd("silent! normal! zE")
    end)
  end
  require("claude.chat_render").write(c, function(buf)
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, line and { line } or {})
  end)
  core().update_status(c)
end

--- Starts a new conversation in dir's chat (default: the current
--- workspace), ending the one that runs.
---@param dir string|nil
function M.new(dir)
  dir = dir or core().current_dir()
  local c = core().chat(dir)
  if not core().start(c, { new = true }) then
    return false
  end
  restart_transcript(c)
  c.session_id = nil
  core().open_windows(c)
  return true
end

--- The workspace's stored conversations, newest first: { id, first_prompt,
--- modified (Unix seconds), branch }; nil after telling the user why not.
---@param dir string|nil
function M.sessions(dir)
  dir = dir or core().current_dir()
  local args = core().start_args(dir)
  if not args then
    return nil
  end
  return require("claude.host").call("ClaudeHostChatSessions", { dir = dir, env = args.env })
end

local function session_label(s)
  return string.format("%s  %s  %s", os.date("%Y-%m-%d %H:%M", s.modified), s.branch ~= "" and s.branch or "-", s.first_prompt)
end

--- Continues a stored conversation in dir's chat: s is one of M.sessions.
---@param s table
---@param dir string|nil
function M.resume(s, dir)
  dir = dir or core().current_dir()
  local c = core().chat(dir)
  if c.session_id == s.id then
    -- The conversation the transcript shows already (its CLI runs, or the
    -- next message resumes it).
    core().open_windows(c)
    return true
  end
  -- Before the start: the host shows the earlier turns as soon as the CLI runs.
  restart_transcript(c, "_Resumed: " .. session_label(s) .. "_")
  c.session_id = s.id
  if not core().start(c, { resume = s.id }) then
    return false
  end
  core().open_windows(c)
  return true
end

--- Picks a stored conversation of the workspace (vim.ui.select: time,
--- branch, first prompt; the newest first) and continues it; last = true
--- takes the newest without asking.
---@param last boolean|nil
---@param dir string|nil
function M.pick(last, dir)
  dir = dir or core().current_dir()
  local list = M.sessions(dir)
  if not list then
    return
  end
  if #list == 0 then
    require("claude.notify").info("no stored Claude conversation for " .. dir .. "; :ClaudeChat starts one")
    return
  end
  if last then
    M.resume(list[1], dir)
    return
  end
  vim.ui.select(list, {
    prompt = "Resume a Claude conversation",
    kind = "claude_session",
    format_item = session_label,
  }, function(choice)
    if choice then
      M.resume(choice, dir)
    end
  end)
end

--- :ClaudeChat [new|resume|last]
---@param arg string|nil
function M.command(arg)
  if arg == nil or arg == "" then
    return require("claude.chat").open()
  elseif arg == "new" then
    return M.new()
  elseif arg == "resume" then
    return M.pick(false)
  elseif arg == "last" then
    return M.pick(true)
  end
  require("claude.notify").error(":ClaudeChat takes new, resume or last, not " .. arg)
end


return M
