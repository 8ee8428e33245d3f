-- The native chat's conversations (state.lua keeps the chats):
-- :ClaudeChat new, resume (a picker of the conversations the CLI stored) and last.
local M = {}

local state = require("claude.chat.state")
local windows = require("claude.chat.windows")

-- Empties the transcript for another conversation; line, if any, is its
-- first line.
local function restart_transcript(c, line)
  c.busy, c.streaming, c.last, c.queue = false, nil, nil, {}
  c.folds, c.thinking_at = nil, nil
  c.agents = nil -- the subagents' groups (chat/agents.lua) went with their lines
  require("claude.chat.tasks").show(c, {})
  for _, win in ipairs(vim.fn.win_findbuf(c.tbuf)) do
    vim.api.nvim_win_call(win, function()
      vim.cmd("silent! normal! zE")
    end)
  end
  require("claude.chat.render").write(c, function(buf)
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, line and { line } or {})
  end)
  state.update_status(c)
end

--- Starts a new conversation in dir's chat (default: the current
--- workspace), ending the one that runs.
---@param dir string|nil
function M.new(dir, agent)
  dir = dir or state.current_dir()
  if agent then
    -- "claude": the built-in; another name: that ACP agent, in a chat of its own
    -- beside the folder's others (lua/claude/agents.lua): c.dir is its name
    -- "DIR//NAME", c.cwd the folder.
    local folder = state.chats[dir] and state.chats[dir].cwd or dir
    dir = require("claude.agents").key(folder, agent)
    local c = windows.chat(dir)
    c.agent = agent ~= "claude" and agent or nil
    c.cwd = c.agent and folder or nil
  end
  local c = windows.chat(dir)
  local started, why = state.start(c, { new = true })
  if not started then
    if why == "untrusted" then
      windows.open_windows(c) -- on the question (chat/trust.lua)
    end
    return false
  end
  restart_transcript(c)
  c.conversation = nil
  windows.open_windows(c)
  return true
end

--- The workspace's stored conversations, newest first: { id, first_prompt,
--- modified (Unix seconds), branch }; nil after telling the user why not.
---@param dir string|nil
function M.list(dir)
  dir = dir or state.current_dir()
  local args = state.start_args(dir)
  if not args then
    return nil
  end
  return require("claude.host").list_conversations({ dir = dir, env = args.env })
end

local function conversation_label(s)
  local title = (s.title and s.title ~= "") and (s.title .. " — ") or ""
  return string.format("%s  %s  %s%s", os.date("%Y-%m-%d %H:%M", s.modified), s.branch ~= "" and s.branch or "-", title, s.first_prompt)
end

--- Continues a stored conversation in dir's chat: s is one of M.list.
---@param s table
---@param dir string|nil
function M.resume(s, dir)
  dir = dir or state.current_dir()
  local c = windows.chat(dir)
  if c.conversation == s.id then
    -- The conversation the transcript shows already (its CLI runs, or the
    -- next message resumes it).
    windows.open_windows(c)
    return true
  end
  -- Before the start: the host shows the earlier turns as soon as the CLI runs.
  restart_transcript(c, "_Resumed: " .. conversation_label(s) .. "_")
  c.conversation = s.id
  local started, why = state.start(c, { resume = s.id })
  if not started then
    if why == "untrusted" then
      windows.open_windows(c) -- on the question (chat/trust.lua)
    end
    return false
  end
  windows.open_windows(c)
  return true
end

--- Picks a stored conversation of the workspace (vim.ui.select: time,
--- branch, first prompt; the newest first) and continues it; last = true
--- takes the newest without asking.
---@param last boolean|nil
---@param dir string|nil
function M.pick(last, dir)
  dir = dir or state.current_dir()
  local list = M.list(dir)
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
    format_item = conversation_label,
  }, function(choice)
    if choice then
      M.resume(choice, dir)
    end
  end)
end

--- :ClaudeChat [new|resume|last]
---@param arg string|nil
function M.command(arg)
  local remote = arg and arg:match("^remote=(.+)$")
  if remote then
    -- The chat's CLI on that remote's side (chat/state.lua starts it there).
    if not (require("claude.config").get().remotes or {})[remote] then
      return require("claude.notify").error(string.format("claude.nvim: no remote %q in setup({ remotes = ... })", remote))
    end
    require("claude.chat.state").remotes[require("claude.chat.state").current_dir()] = remote
    return windows.open()
  end
  if arg == nil or arg == "" then
    return windows.open()
  elseif arg == "new" and #require("claude.agents").names() > 0 then
    -- Several agents: the new chat's is picked.
    vim.ui.select(require("claude.agents").choices(), { prompt = "Agent for the new chat" }, function(choice)
      if choice then
        M.new(nil, choice)
      end
    end)
    return
  elseif arg == "new" then
    return M.new()
  elseif vim.tbl_contains(require("claude.agents").choices(), arg) then
    return M.new(nil, arg)
  elseif arg == "resume" then
    return M.pick(false)
  elseif arg == "last" then
    return M.pick(true)
  end
  require("claude.notify").error(":ClaudeChat takes new, resume, last, remote=NAME or an agent's name, not " .. arg)
end


return M
