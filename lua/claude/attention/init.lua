-- The attention list: every session's state as the Go host pushes it
-- (attention/, host/attention.go), one call per batch of changes, so
-- nothing here polls and the statusline reads a table. A session is
-- "terminal:N" (session N of sessions.lua) or "chat:<dir>"; its state is
-- needs_you (kind says what waits), working, done or exited.
--
-- Here the User events fire (once per wait: Go numbers them), the desktop
-- notice goes out while Neovim is not focused, and each session's
-- conversation is remembered for :Claude sessions restore
-- (attention/view.lua shows, jumps and restores).
local M = {}

local events = require("claude.events")

-- key -> { key, state, kind, cwd, prompt, since, conversation, wait }
local list = {}
-- key -> the wait an event was fired for
local fired = {}
-- Whether Neovim has the terminal's focus (FocusLost / FocusGained).
local focused = true

--- The session of key, or nil.
function M.get(key)
  return list[key]
end

--- Every session, sorted by state (needs you first), then newest first.
function M.all()
  local order = { needs_you = 1, working = 2, done = 3, exited = 4 }
  local out = vim.tbl_values(list)
  table.sort(out, function(a, b)
    local oa, ob = order[a.state] or 5, order[b.state] or 5
    if oa ~= ob then
      return oa < ob
    end
    if a.since ~= b.since then
      return a.since > b.since
    end
    return a.key < b.key
  end)
  return out
end

--- How many sessions need the user (the statusline's count).
function M.needing()
  local n = 0
  for _, s in pairs(list) do
    if s.state == "needs_you" then
      n = n + 1
    end
  end
  return n
end

--- Whether Go told of any session yet.
function M.any()
  return next(list) ~= nil
end

-- The notice: OSC 777 (urxvt, foot, kitty, WezTerm, Ghostty) and OSC 9
-- (iTerm2, Windows Terminal, WezTerm), wrapped for tmux's passthrough
-- (its allow-passthrough option) when inside tmux.
local function osc(title, body)
  local seq = string.format("\027]777;notify;%s;%s\007\027]9;%s: %s\007", title, body, title, body)
  if vim.env.TMUX then
    seq = "\027Ptmux;" .. seq:gsub("\027", "\027\027") .. "\027\\"
  end
  if vim.api.nvim_ui_send then -- 0.12: to the UI's terminal, wherever the server runs
    pcall(vim.api.nvim_ui_send, seq)
  else
    -- 0.10, 0.11: the server's stderr is the terminal of a TUI started with it.
    pcall(vim.fn.chansend, vim.v.stderr, seq)
  end
end

local function notice(s)
  local how = require("claude.config").get().attention.notify
  if how == "off" or focused then
    return
  end
  local title = "Claude needs you"
  local body = string.format("%s (%s)", vim.fn.fnamemodify(s.cwd ~= "" and s.cwd or "?", ":t"), s.kind)
  if how == "system" or (how == "auto" and vim.fn.executable("notify-send") == 1) then
    if vim.fn.executable("notify-send") == 1 then
      vim.system({ "notify-send", "--app-name=Neovim", title, body })
    end
    return
  end
  osc(title, body)
end

-- The state file: per session directory, the conversations last seen there
-- ({ [cwd] = { terminals = { [key] = id }, chat = id } }), so that
-- :Claude sessions restore can resume them after a restart.
function M.state_file()
  return vim.fs.joinpath(vim.fn.stdpath("state"), "claude", "sessions.json")
end

--- The remembered sessions ({} when none or unreadable).
function M.remembered()
  local f = io.open(M.state_file(), "r")
  if not f then
    return {}
  end
  local text = f:read("*a")
  f:close()
  local ok, data = pcall(vim.json.decode, text)
  return (ok and type(data) == "table") and data or {}
end

local function remember(s)
  local data = M.remembered()
  local ws = data[s.cwd] or {}
  if vim.startswith(s.key, "chat:") then
    ws.chat = s.conversation
  else
    ws.terminals = ws.terminals or {}
    ws.terminals[s.key] = s.conversation
  end
  data[s.cwd] = ws
  local file = M.state_file()
  vim.fn.mkdir(vim.fs.dirname(file), "p", tonumber("700", 8))
  -- Written whole to a file of the user's alone, then renamed over the old one.
  local tmp = file .. ".tmp"
  local f = io.open(tmp, "w")
  if not f then
    return
  end
  f:write(vim.json.encode(data))
  f:close()
  vim.uv.fs_chmod(tmp, tonumber("600", 8))
  vim.uv.fs_rename(tmp, file)
end

-- A terminal's permission mode as its hooks tell it (s.mode): said once
-- when edits stop going through the review, and kept in its terminal
-- buffer's b:claude_permission_mode.
local function follow_mode(s, before)
  local id = tonumber(s.key:match("^terminal:(%d+)$"))
  if not id or (s.mode or "") == "" or (before and before.mode == s.mode) then
    return
  end
  local sessions = require("claude.sessions")
  local record = sessions.get(id)
  local from = before and before.mode ~= "" and before.mode or (record and record.permission and record.permission.mode)
  local who = #sessions.live() > 1 and string.format("Claude (%s)", sessions.label(id)) or "Claude"
  require("claude.permission").note_switch(who, from, s.mode)
  if record and record.buf and vim.api.nvim_buf_is_valid(record.buf) then
    vim.b[record.buf].claude_permission_mode = s.mode
  end
end

--- A terminal session's permission mode as its last hook said, or nil.
---@param id integer
---@return string|nil
function M.mode(id)
  local s = list["terminal:" .. id]
  return s and s.mode ~= "" and s.mode or nil
end

--- Takes a batch of changed sessions from the Go host.
---@param changed table[]
function M.update(changed)
  for _, s in ipairs(changed) do
    local before = list[s.key]
    list[s.key] = s
    follow_mode(s, before)
    if s.wait > 0 and fired[s.key] ~= s.wait and (s.state == "needs_you" or s.state == "done") then
      fired[s.key] = s.wait
      local data = { session = s.key, kind = s.state == "done" and "done" or s.kind, cwd = s.cwd, prompt = s.prompt }
      if s.state == "needs_you" then
        events.fire("ClaudeNeedsYou", data)
        notice(s)
      else
        events.fire("ClaudeDone", data)
      end
    end
    if s.conversation ~= "" and s.cwd ~= "" and (not before or before.conversation ~= s.conversation) then
      pcall(remember, s)
    end
  end
  require("claude.quit_guard").update(M.all())
  vim.cmd.redrawstatus({ bang = true })
end

--- Focus, as FocusLost and FocusGained tell it.
function M.set_focused(yes)
  focused = yes
end

return M
