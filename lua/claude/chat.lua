-- The native chat (:ClaudeChat, preview): per workspace a transcript buffer
-- and an input buffer below it. The Go host owns the CLI (host/chat.go) and
-- pushes its events here in batches, one call per batch (M._events); this
-- module keeps the chats, their buffers and windows, and sends what the user
-- types; chat_render.lua renders the batches (and asks about permissions),
-- chat_input.lua serves the input, chat_sessions.lua the conversations.
-- Closing the windows keeps the chat: :ClaudeChat shows it again.
local M = {}

-- By workspace directory: { dir, tbuf, ibuf, busy, model, mode, streaming,
-- last, asking, queue, withdrawn, history (prompts sent, oldest first),
-- recalled (the history index in the input; nil: the draft), draft }.
local chats = {}

-- Lines of the input window.
local INPUT_HEIGHT = 5

-- The permission modes :ClaudeChatMode and <S-Tab> switch between, in the
-- CLI's shift+tab order.
M.modes = { "default", "acceptEdits", "plan" }

local function cfg()
  return require("claude").config()
end

local function valid(buf)
  return buf ~= nil and vim.api.nvim_buf_is_valid(buf)
end

-- The chat of the current buffer, else the one of the workspace a new CLI
-- would start in.
local function current_dir()
  local dir = vim.b.claude_chat_dir
  if type(dir) == "string" and chats[dir] then
    return dir
  end
  return require("claude.terminal").session_cwd()
end

local function map(buf, modes, lhs, rhs, desc)
  vim.keymap.set(modes, lhs, rhs, { buffer = buf, silent = true, desc = "claude.nvim: " .. desc })
end

local function status_text(c)
  local parts = { "Claude chat" }
  if c.model then
    table.insert(parts, c.model)
  end
  if c.mode and c.mode ~= "default" then
    table.insert(parts, c.mode)
  end
  if c.attached and #c.attached > 0 then
    table.insert(parts, string.format("%d image%s attached", #c.attached, #c.attached > 1 and "s" or ""))
  end
  if c.busy then
    table.insert(parts, "working… (<C-c> interrupts)")
  end
  return table.concat(parts, " · ")
end

local function update_status(c)
  if valid(c.tbuf) then
    vim.b[c.tbuf].claude_chat_status = status_text(c)
  end
end

local function make_buffers(c)
  if not valid(c.tbuf) then
    local buf = vim.api.nvim_create_buf(false, true) -- nofile, hidden when closed
    require("claude.tools").set_buf_name(buf, "claude-chat://" .. c.dir, buf)
    vim.bo[buf].filetype = "markdown"
    vim.bo[buf].modifiable = false
    vim.b[buf].claude_chat_dir = c.dir
    map(buf, { "n" }, "<C-c>", function()
      M.interrupt(c.dir)
    end, "interrupt Claude's turn")
    map(buf, { "n" }, "<S-Tab>", function()
      M.set_mode(nil, c.dir)
    end, "switch Claude's permission mode")
    map(buf, { "n" }, "i", function()
      M.open(c.dir)
      vim.cmd.startinsert()
    end, "type in the chat's input")
    c.tbuf, c.streaming, c.last = buf, nil, nil
  end
  if not valid(c.ibuf) then
    local buf = vim.api.nvim_create_buf(false, true)
    require("claude.tools").set_buf_name(buf, "claude-chat-input://" .. c.dir, buf)
    vim.bo[buf].filetype = "markdown"
    vim.b[buf].claude_chat_dir = c.dir
    local function submit()
      M.submit(c.dir)
    end
    map(buf, { "n" }, "<CR>", submit, "send the chat input to Claude")
    map(buf, { "n", "i" }, "<C-s>", submit, "send the chat input to Claude")
    map(buf, { "n", "i" }, "<C-c>", function()
      M.interrupt(c.dir)
    end, "interrupt Claude's turn")
    map(buf, { "n" }, "<S-Tab>", function()
      M.set_mode(nil, c.dir)
    end, "switch Claude's permission mode")
    map(buf, { "n" }, "<Up>", function()
      M.recall(c.dir, -1, true)
    end, "on the first line: recall the previous prompt")
    map(buf, { "n" }, "<Down>", function()
      M.recall(c.dir, 1, true)
    end, "on the last line: recall the next prompt")
    map(buf, { "n" }, "<C-p>", function()
      M.recall(c.dir, -1)
    end, "recall the previous prompt")
    map(buf, { "n" }, "<C-n>", function()
      M.recall(c.dir, 1)
    end, "recall the next prompt")
    -- /commands and @paths: <C-x><C-u> (or <C-x><C-o>), or <Tab> after / or @.
    vim.bo[buf].completefunc = "v:lua.require'claude.chat'.complete"
    vim.bo[buf].omnifunc = "v:lua.require'claude.chat'.complete"
    vim.keymap.set("i", "<Tab>", function()
      if vim.fn.pumvisible() == 1 then
        return "<C-n>"
      end
      local before = vim.api.nvim_get_current_line():sub(1, vim.fn.col(".") - 1)
      if before:match("^%s*/[%w:_-]*$") or before:match("@[^%s]*$") then
        return "<C-x><C-u>"
      end
      return "<Tab>"
    end, { buffer = buf, expr = true, desc = "claude.nvim: complete a /command or an @path" })
    c.ibuf = buf
  end
  update_status(c)
end

local function chat(dir)
  local c = chats[dir]
  if not c then
    c = { dir = dir, queue = {}, withdrawn = {}, history = {} }
    chats[dir] = c
  end
  make_buffers(c)
  return c
end

local function window(buf)
  return require("claude.terminal").window_in_tab(buf)
end

-- Keeps every window on the transcript at its end, unless the user moved
-- the cursor up in the current one to read.
local function follow(c)
  local last = vim.api.nvim_buf_line_count(c.tbuf)
  for _, win in ipairs(vim.fn.win_findbuf(c.tbuf)) do
    local row = vim.api.nvim_win_get_cursor(win)[1]
    if win ~= vim.api.nvim_get_current_win() or row >= (c.followed or last) then
      pcall(vim.api.nvim_win_set_cursor, win, { last, 0 })
    end
  end
  c.followed = last
end

-- Opens the transcript where the terminal would go (terminal.position and
-- size; a float becomes a right split) and the input below it.
local function open_windows(c)
  local twin = window(c.tbuf)
  if not twin then
    local pos = cfg().terminal.position
    twin = require("claude.terminal").open_window(c.tbuf, pos == "float" and "right" or pos)
    vim.wo[twin].wrap = true
    vim.wo[twin].linebreak = true
    vim.wo[twin].number = false
    vim.wo[twin].winbar = "%{get(b:, 'claude_chat_status', '')}"
    vim.wo[twin].foldmethod = "manual"
    vim.wo[twin].foldtext = "" -- the fold's first line, highlighted
    vim.wo[twin].foldenable = true
    vim.wo[twin].fillchars = "fold: "
    require("claude.chat_render").refold(c, twin)
  end
  local iwin = window(c.ibuf)
  if not iwin then
    iwin = vim.api.nvim_open_win(c.ibuf, true, { split = "below", win = twin, height = INPUT_HEIGHT })
    vim.wo[iwin].winfixheight = true
    vim.wo[iwin].number = false
  end
  vim.api.nvim_set_current_win(iwin)
  c.followed = nil
  follow(c)
end

-- terminal_cmd as a program and arguments, without a shell.
local function command()
  local prog = require("claude.terminal").program()
  if not prog then
    return nil
  end
  local cmd = cfg().terminal_cmd
  local words = type(cmd) == "table" and cmd or vim.split(vim.trim(cmd), "%s+")
  return prog, vim.list_slice(words, 2)
end

-- The CLI's environment: Neovim's, plus what the terminal gets except the
-- IDE server's port (print mode never connects to it).
local function environment()
  local env = vim.fn.environ()
  for k, v in pairs(require("claude.terminal").env(0)) do
    env[k] = v
  end
  env.CLAUDE_CODE_SSE_PORT = nil
  return env
end

-- What starts a chat CLI in dir (ClaudeHostChatStart's argument), or nil
-- after telling the user why it cannot.
local function start_args(dir, mode)
  if not require("claude.terminal").check_program() then
    return nil
  end
  local prog, args = command()
  if not prog then
    require("claude.notify").error(":ClaudeChat needs terminal_cmd to be a program (a list or a plain command line), not shell syntax")
    return nil
  end
  args = require("claude.model").args(args)
  if mode then
    args = vim.list_extend(vim.list_extend({}, args), { "--permission-mode", mode })
  end
  local chosen
  args, chosen = require("claude.permission").args(args, dir)
  return { dir = dir, bin = prog, args = args, env = environment() }, chosen
end

-- Starts the chat's CLI unless it runs (resuming the conversation when an
-- earlier one exited); false after telling the user why not. how.new starts
-- a new conversation, how.resume continues that stored session; either
-- replaces a running CLI.
local function start(c, how)
  local new = how and how.new or false
  -- A CLI started again for this conversation (the last one exited or
  -- crashed) keeps the mode the user had switched to.
  local keep = not new and c.mode and c.mode ~= "default" and vim.tbl_contains(M.modes, c.mode) and c.mode or nil
  local args, chosen = start_args(c.dir, keep)
  if not args then
    return false
  end
  require("claude.permission").warn_no_review(chosen)
  args.new, args.resume = new, how and how.resume or ""
  return require("claude.host").call("ClaudeHostChatStart", args) ~= nil
end

--- ClaudeHostChatStart's argument for the current workspace's chat, or nil
--- (the user was told why). Not for users.
function M._start_args()
  return (start_args(current_dir()))
end

--- Opens (or focuses) the chat of dir (default: the current workspace).
---@param dir string|nil
function M.open(dir)
  dir = dir or current_dir()
  if not start(chats[dir] or { dir = dir }) then
    return false
  end
  open_windows(chat(dir))
  return true
end

--- Renders one batch of the host's events (host/chat.go). Not for users.
---@param dir string
---@param items table[]
function M._events(dir, items)
  local c = chat(dir)
  local view = require("claude.chat_render")
  local render = view.render
  view.write(c, function(buf)
    for _, it in ipairs(items) do
      local fn = render[it.kind]
      if fn then
        fn(c, buf, it)
      end
    end
  end)
  update_status(c)
  follow(c)
end

--- Sends the input buffer's text as the next turn and clears it.
---@param dir string|nil
function M.submit(dir)
  dir = dir or current_dir()
  local c = chats[dir]
  if not c or not valid(c.ibuf) then
    return
  end
  local lines = vim.api.nvim_buf_get_lines(c.ibuf, 0, -1, false)
  local text = vim.trim(table.concat(lines, "\n"))
  local images = c.attached or {}
  if (text == "" and #images == 0) or not start(c) then
    return
  end
  c.attached = nil
  vim.api.nvim_buf_set_lines(c.ibuf, 0, -1, false, {})
  if c.history[#c.history] ~= text then
    table.insert(c.history, text)
  end
  c.recalled, c.draft = nil, nil
  local quoted = {}
  for _, l in ipairs(vim.split(text, "\n", { plain = true })) do
    table.insert(quoted, "> " .. l)
  end
  for _, path in ipairs(images) do
    table.insert(quoted, "> [image: " .. vim.fn.fnamemodify(path, ":~:.") .. "]")
  end
  local view = require("claude.chat_render")
  view.write(c, function(buf)
    view.add(c, buf, quoted, true)
  end)
  c.last, c.busy = "user", true
  update_status(c)
  follow(c)
  require("claude.host").call("ClaudeHostChatSend", dir, text, images)
end

--- Interrupts the chat's running turn.
---@param dir string|nil
function M.interrupt(dir)
  dir = dir or current_dir()
  if chats[dir] and require("claude.host").running() then
    require("claude.host").call("ClaudeHostChatInterrupt", dir)
  end
end

--- Switches the chat's permission mode (one of M.modes); nil takes the next
--- one, as shift+tab does in the CLI. The winbar shows it once the CLI
--- confirms.
---@param mode string|nil
---@param dir string|nil
function M.set_mode(mode, dir)
  dir = dir or current_dir()
  local c = chats[dir]
  if not c or not require("claude.host").running() then
    require("claude.notify").info("no chat runs for " .. dir .. "; :ClaudeChat starts one")
    return
  end
  if mode == nil then
    local from = c.mode_wanted or c.mode or "default"
    local i = 0
    for k, m in ipairs(M.modes) do
      if m == from then
        i = k
      end
    end
    mode = M.modes[i % #M.modes + 1]
  elseif not vim.tbl_contains(M.modes, mode) then
    require("claude.notify").error("unknown chat mode " .. mode .. "; use one of: " .. table.concat(M.modes, ", "))
    return
  end
  c.mode_wanted = mode
  require("claude.host").call("ClaudeHostChatMode", dir, mode)
end

--- Ends the chat's CLI; the transcript stays, the next turn starts a new conversation.
---@param dir string|nil
function M.stop(dir)
  dir = dir or current_dir()
  if not chats[dir] or not require("claude.host").running() then
    require("claude.notify").info("no chat runs for " .. dir)
    return
  end
  require("claude.host").call("ClaudeHostChatStop", dir)
end

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

-- Conversations (lua/claude/chat_sessions.lua).

--- Starts a new conversation in dir's chat, ending the one that runs.
function M.new(dir)
  return require("claude.chat_sessions").new(dir)
end

--- The workspace's stored conversations, newest first.
function M.sessions(dir)
  return require("claude.chat_sessions").sessions(dir)
end

--- Continues the stored conversation s (one of M.sessions).
function M.resume(s, dir)
  return require("claude.chat_sessions").resume(s, dir)
end

--- Picks a stored conversation and continues it; last = true takes the newest.
function M.pick(last, dir)
  return require("claude.chat_sessions").pick(last, dir)
end

--- :ClaudeChat [new|resume|last]
function M.command(arg)
  return require("claude.chat_sessions").command(arg)
end

M.subcommands = { "new", "resume", "last" }

-- The input (lua/claude/chat_input.lua).

--- Attaches an image file to the chat's next message.
function M.attach(path, dir)
  return require("claude.chat_input").attach(path, dir)
end

--- Recalls an earlier prompt into the input (step -1 back, 1 forward).
function M.recall(dir, step, at_edge)
  return require("claude.chat_input").recall(dir, step, at_edge)
end

--- completefunc/omnifunc of the chat's input.
function M.complete(findstart, base)
  return require("claude.chat_input").complete(findstart, base)
end

--- :ClaudeSend/:ClaudeAdd's mention into the chat open in this tab page;
--- returns whether it took it.
function M.take_mention(path, line1, line2)
  return require("claude.chat_input").take_mention(path, line1, line2)
end

--- :ClaudeAsk and :ClaudeSendText's text, for a chat open in this tab page.
function M.take_text(text, submit)
  return require("claude.chat_input").take_text(text, submit)
end

-- For lua/claude/chat_*.lua, not for users.
M._core = {
  chats = chats,
  chat = chat,
  current_dir = current_dir,
  valid = valid,
  window = window,
  follow = follow,
  open_windows = open_windows,
  start = start,
  start_args = start_args,
  update_status = update_status,
}

return M
