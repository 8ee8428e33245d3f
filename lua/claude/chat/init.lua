-- The native chat (:ClaudeChat): per workspace a transcript buffer
-- and an input buffer below it. The Go host owns the CLI (host/chat.go) and
-- pushes its events here in batches, one call per batch (M.show_events,
-- through handlers.show_chat_events). This module is the chat's face (what
-- commands and other modules call); the files of chat/ stand in steps, each
-- requiring only those before it: state.lua keeps the chats and starts
-- their CLIs, render.lua renders the batches (and asks about permissions),
-- revive.lua carries a chat over the Go host's death (and starts CLIs, saying
-- when one resumed), input.lua serves the input buffer, turns.lua sends what the user types,
-- windows.lua makes the buffers and windows, conversations.lua the stored
-- conversations, models.lua :Claude model.
--
-- Words: a chat is one CLI run by the Go host for a workspace directory
-- in stream-json mode (Lua asks Go to start and stop it; Go names it by
-- the directory); a conversation is what the CLI stores on disk and
-- resumes (the CLI names it with its session id; Lua only lists and picks
-- them).
-- Closing the windows keeps the chat: :ClaudeChat shows it again.
local M = {}

local state = require("claude.chat.state")
local windows = require("claude.chat.windows")
local turns = require("claude.chat.turns")
local chats, current_dir = state.chats, state.current_dir

-- The items render.lua does not know: a rewind's (chat/rewind.lua), which
-- rewind.lua writes through it.
local other_items = {
  rewind = function(...)
    return require("claude.chat.rewind").show_preview(...)
  end,
  rewound = function(...)
    return require("claude.chat.rewind").show_done(...)
  end,
}
other_items.rules = function(...)
  return require("claude.chat.rules").show(...)
end
other_items.usage = function(...)
  return require("claude.chat.usage").show(...)
end
other_items.suggestions = function(...)
  return require("claude.chat.input").show_suggestions(...)
end
other_items.task_output = function(...)
  return require("claude.chat.background").show_output(...)
end
other_items.mcp = function(...)
  return require("claude.chat.mcp").show(...)
end
-- So do the CLI's notices (chat/notices.lua).
for _, kind in ipairs({ "notice", "denied", "checking" }) do
  other_items[kind] = function(...)
    return require("claude.chat.notices")[kind](...)
  end
end

-- The permission modes :Claude mode and <S-Tab> switch between.
M.modes = state.modes

--- ClaudeHostChatStart's argument for the current workspace's chat, or nil
--- (the user was told why). Not for users.
function M._start_args()
  return (state.start_args(current_dir()))
end

M.open = windows.open

--- Renders one batch of the host's events (host/chat.go), through
--- handlers.show_chat_events. Not for users.
---@param dir string
---@param items table[]
function M.show_events(dir, items)
  local c = windows.chat(dir)
  local view = require("claude.chat.render")
  local render = view.render
  view.write(c, function(buf)
    for _, it in ipairs(items) do
      local fn = render[it.kind] or other_items[it.kind]
      -- Each item on its own: one that fails (a bad line from the CLI)
      -- shows an error line and the rest of the batch (the next
      -- permission request above all) is still rendered.
      local ok, err = pcall(fn or function() end, c, buf, it)
      if not ok then
        c.streaming = nil
        pcall(view.add, c, buf, { string.format("**Error:** could not show a %s item: %s", tostring(it.kind), tostring(err)) }, true)
      end
    end
  end)
  state.update_status(c)
  state.follow(c)
end

M.submit, M.interrupt, M.set_mode, M.stop = turns.submit, turns.interrupt, turns.set_mode, turns.stop

--- Stops the running subagent under the cursor, or the only one
--- (:Claude chat cancel-agent).
---@param dir string|nil
function M.stop_agent(dir)
  require("claude.chat.agents").stop(windows.chat(dir or current_dir()))
end

--- Shows or hides the chat's task list (:Claude chat tasks).
---@param dir string|nil
function M.toggle_tasks(dir)
  require("claude.chat.tasks").toggle(windows.chat(dir or current_dir()))
end
M.unqueue = turns.unqueue

--- One line per chat of this Neovim, for :checkhealth: its directory,
--- model, mode and whether Claude is working.
function M.describe()
  local out = {}
  for dir, c in pairs(chats) do
    table.insert(out, string.format("%s: %s, mode %s, %s", dir, c.model or "model not known yet", c.mode or "default", c.busy and "working" or "idle"))
  end
  table.sort(out)
  return out
end

--- The slash commands of dir's chat CLI, once it told them (for tests).
function M._commands(dir)
  local c = chats[dir or current_dir()]
  return c and c.commands
end

--- The transcript and input buffers of dir's chat (for tests and statuslines).
function M.buffers(dir)
  local c = chats[dir or current_dir()]
  if not c then
    return nil
  end
  return { transcript = c.tbuf, input = c.ibuf }
end

-- Conversations (chat/conversations.lua).

--- Starts a new conversation in dir's chat, ending the one that runs.
function M.new(dir)
  return require("claude.chat.conversations").new(dir)
end

--- The workspace's stored conversations, newest first.
function M.conversations(dir)
  return require("claude.chat.conversations").list(dir)
end

-- The name from before conversations had their own word.
M.sessions = M.conversations

--- Continues the stored conversation s (one of M.conversations).
function M.resume(s, dir)
  return require("claude.chat.conversations").resume(s, dir)
end

--- Picks a stored conversation and continues it; last = true takes the newest.
function M.pick(last, dir)
  return require("claude.chat.conversations").pick(last, dir)
end

--- :ClaudeChat [new|resume|last]
function M.command(arg)
  -- resume [text]: the history browser, searching for text if given.
  local query = arg and arg:match("^resume%s+(.-)%s*$")
  if arg == "resume" or query then
    return require("claude.chat.history").open(nil, query)
  end
  return require("claude.chat.conversations").command(arg)
end

M.subcommands = { "new", "resume", "last" }

-- The input (chat/input.lua), and what other commands put into it.

--- Recalls an earlier prompt into the input (step -1 back, 1 forward).
function M.recall(dir, step, at_edge)
  return require("claude.chat.input").recall(dir, step, at_edge)
end

--- completefunc/omnifunc of the chat's input.
function M.complete(findstart, base)
  return require("claude.chat.input").complete(findstart, base)
end

-- The largest image the API takes (chatctl/image.go checks again at send).
local MAX_IMAGE_BYTES = 5 * 1024 * 1024

-- Why the file at abs is no image the API takes, or nil: its first bytes
-- must be those of a png, jpeg, gif or webp, as the host's check at send
-- reads them (http.DetectContentType). Refused here, a wrong file costs
-- nothing; refused at send, it cost the typed message.
local function not_an_image(abs)
  local stat = vim.uv.fs_stat(abs)
  if not stat or stat.type ~= "file" then
    return "not a file"
  end
  if stat.size > MAX_IMAGE_BYTES then
    return string.format("%d bytes, more than the API takes", stat.size)
  end
  local f = io.open(abs, "rb")
  local head = f and f:read(12) or ""
  if f then
    f:close()
  end
  if
    head:sub(1, 8) == "\137PNG\r\n\26\n"
    or head:sub(1, 3) == "\255\216\255"
    or head:sub(1, 6) == "GIF87a"
    or head:sub(1, 6) == "GIF89a"
    or (head:sub(1, 4) == "RIFF" and head:sub(9, 12) == "WEBP")
  then
    return nil
  end
  return "not a png, jpeg, gif or webp image"
end

--- Attaches an image file (png, jpeg, gif, webp, up to 5 MiB) to the
--- chat's next message. Anything else is refused now, with why; the host
--- reads and checks it again when the message is sent.
---@param path string
---@param dir string|nil
function M.attach(path, dir)
  dir = dir or current_dir()
  local abs = vim.fn.fnamemodify(vim.fn.expand(path), ":p")
  if vim.fn.filereadable(abs) ~= 1 then
    require("claude.notify").error("no such file: " .. path)
    return false
  end
  local why = not_an_image(abs)
  if why then
    require("claude.notify").error(string.format(":Claude chat attach takes png, jpeg, gif or webp images up to 5 MiB; %s is %s", path, why))
    return false
  end
  local c = windows.chat(dir)
  c.attached = c.attached or {}
  table.insert(c.attached, abs)
  state.update_status(c)
  windows.open_windows(c)
  return true
end

-- The chat shown in the current tab page, if any.
local function chat_in_tab()
  for _, c in pairs(chats) do
    if (state.valid(c.ibuf) and state.window(c.ibuf)) or (state.valid(c.tbuf) and state.window(c.tbuf)) then
      return c
    end
  end
end

--- :Claude ask and :Claude type go to the chat instead of the terminal
--- when a chat is open in the current tab page: text is added to the chat's
--- next message, sent at once when submit. Returns whether it did.
---@param text string
---@param submit boolean
function M.take_text(text, submit)
  local c = chat_in_tab()
  if not c then
    return false
  end
  local n = vim.api.nvim_buf_line_count(c.ibuf)
  local last = vim.api.nvim_buf_get_lines(c.ibuf, n - 1, n, false)[1]
  local joined = (last == "" or last:match("%s$")) and (last .. text) or (last .. " " .. text)
  vim.api.nvim_buf_set_lines(c.ibuf, n - 1, n, false, vim.split(joined, "\n", { plain = true }))
  if submit then
    turns.submit(c.dir)
    return true
  end
  windows.open_windows(c)
  local lines = vim.api.nvim_buf_line_count(c.ibuf)
  vim.api.nvim_win_set_cursor(0, { lines, #vim.api.nvim_buf_get_lines(c.ibuf, lines - 1, lines, false)[1] })
  return true
end

--- :Claude send and :Claude add go to the chat instead of the terminal when
--- a chat is open in the current tab page: the @-mention (as the CLI writes
--- it, relative to the chat's directory) is added to the chat's next
--- message, and the cursor goes to the input. Returns whether it did.
---@param path string absolute; a directory ends in "/"
---@param line1 integer|nil 1-based
---@param line2 integer|nil 1-based
function M.take_mention(path, line1, line2)
  local c = chat_in_tab()
  if not c then
    return false
  end
  local rel = path
  local cwd = c.cwd or c.dir
  if vim.startswith(path, cwd .. "/") then
    rel = path:sub(#cwd + 2)
  end
  local ref = "@" .. rel
  if line1 then
    local lo, hi = math.min(line1, line2 or line1), math.max(line1, line2 or line1)
    ref = ref .. (lo == hi and string.format("#L%d", lo) or string.format("#L%d-%d", lo, hi))
  end
  local n = vim.api.nvim_buf_line_count(c.ibuf)
  local last = vim.api.nvim_buf_get_lines(c.ibuf, n - 1, n, false)[1]
  local text = (last == "" or last:match("%s$")) and (last .. ref .. " ") or (last .. " " .. ref .. " ")
  vim.api.nvim_buf_set_lines(c.ibuf, n - 1, n, false, { text })
  windows.open_windows(c)
  vim.api.nvim_win_set_cursor(0, { n, #text })
  return true
end


--- :Claude chat answer [allow|deny]: answers the oldest permission request
--- waiting in the chat (allow once, deny), or opens the picker of answers.
---@param how string|nil
---@param dir string|nil
function M.answer(how, dir)
  dir = dir or current_dir()
  local c = chats[dir]
  if c and c.trust then
    -- The folder's trust comes first: no CLI runs before it.
    return require("claude.chat.trust").answer(dir, how == "allow" and "yes" or how == "deny" and "no" or nil)
  end
  if how and how ~= "allow" and how ~= "deny" then
    require("claude.notify").error(":Claude chat answer takes allow, deny or nothing (the picker), not " .. how)
    return
  end
  if not (c and require("claude.chat.render").answer(c, how)) then
    require("claude.notify").info("Claude waits for no answer in this chat")
  end
end

--- :Claude chat trust [yes|no]: answers whether the CLI may trust the chat's
--- folder (its hooks, MCP servers and settings then run); nothing opens
--- the picker.
---@param how string|nil
---@param dir string|nil
function M.trust(how, dir)
  if how and how ~= "yes" and how ~= "no" then
    require("claude.notify").error(":Claude chat trust takes yes, no or nothing (the picker), not " .. how)
    return
  end
  return require("claude.chat.trust").answer(dir or current_dir(), how)
end

--- How many permission requests wait for the user, in all chats.
function M.waiting()
  local n = 0
  for _, c in pairs(chats) do
    for _, it in ipairs(c.queue) do
      if not c.withdrawn[it.id] then
        n = n + 1
      end
    end
  end
  return n
end

return M
