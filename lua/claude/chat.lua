-- The native chat (:ClaudeChat, preview): per workspace a transcript buffer
-- and an input buffer below it. The Go host owns the CLI (host/chat.go) and
-- pushes its events here in batches, one call per batch (M._events); this
-- module renders them, asks the user about permissions and sends what the
-- user types. Closing the windows keeps the chat: :ClaudeChat shows it again.
local M = {}

-- By workspace directory: { dir, tbuf, ibuf, busy, model, mode, streaming,
-- last, asking, queue, withdrawn, history (prompts sent, oldest first),
-- recalled (the history index in the input; nil: the draft), draft }.
local chats = {}

-- Lines of the input window.
local INPUT_HEIGHT = 5

-- What a summary line unfolds to (a tool's input and result, a thinking
-- block's text) starts with BODY.
local BODY = "  │ "

-- The transcript folds by hand ('foldmethod' manual: nothing is evaluated
-- per line): a tool's summary line with its input, a result line with its
-- lines, a thinking header with its text. The transcript only grows at its
-- end, so each chat keeps its folds' line ranges (c.folds) and a window
-- opened on it later gets them too. Folds are made closed, so each tool use
-- reads as one line.

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
    vim.api.nvim_win_call(twin, function()
      vim.cmd("silent! normal! zE")
      for _, f in ipairs(c.folds or {}) do
        vim.cmd(string.format("silent! %d,%dfold", f[1], f[2]))
      end
    end)
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
local function start_args(dir)
  if not require("claude.terminal").check_program() then
    return nil
  end
  local prog, args = command()
  if not prog then
    require("claude.notify").error(":ClaudeChat needs terminal_cmd to be a program (a list or a plain command line), not shell syntax")
    return nil
  end
  return { dir = dir, bin = prog, args = require("claude.model").args(args), env = environment() }
end

-- Starts the chat's CLI unless it runs (resuming the conversation when an
-- earlier one exited); false after telling the user why not. how.new starts
-- a new conversation, how.resume continues that stored session; either
-- replaces a running CLI.
local function start(c, how)
  local args = start_args(c.dir)
  if not args then
    return false
  end
  args.new, args.resume = how and how.new or false, how and how.resume or ""
  return require("claude.host").call("ClaudeHostChatStart", args) ~= nil
end

--- ClaudeHostChatStart's argument for the current workspace's chat, or nil
--- (the user was told why). Not for users.
function M._start_args()
  return start_args(current_dir())
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

local write

-- Empties the transcript for another conversation; line, if any, is its
-- first line.
local function restart_transcript(c, line)
  c.busy, c.streaming, c.last, c.queue, c.asking = false, nil, nil, {}, false
  c.folds, c.thinking_at = nil, nil
  for _, win in ipairs(vim.fn.win_findbuf(c.tbuf)) do
    vim.api.nvim_win_call(win, function()
      vim.cmd("silent! normal! zE")
    end)
  end
  write(c, function(buf)
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, line and { line } or {})
  end)
  update_status(c)
end

--- Starts a new conversation in dir's chat (default: the current
--- workspace), ending the one that runs.
---@param dir string|nil
function M.new(dir)
  dir = dir or current_dir()
  local c = chat(dir)
  if not start(c, { new = true }) then
    return false
  end
  restart_transcript(c)
  c.session_id = nil
  open_windows(c)
  return true
end

--- The workspace's stored conversations, newest first: { id, first_prompt,
--- modified (Unix seconds), branch }; nil after telling the user why not.
---@param dir string|nil
function M.sessions(dir)
  dir = dir or current_dir()
  local args = start_args(dir)
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
  dir = dir or current_dir()
  local c = chat(dir)
  if c.session_id == s.id then
    -- The conversation the transcript shows already (its CLI runs, or the
    -- next message resumes it).
    open_windows(c)
    return true
  end
  -- Before the start: the host shows the earlier turns as soon as the CLI runs.
  restart_transcript(c, "_Resumed: " .. session_label(s) .. "_")
  c.session_id = s.id
  if not start(c, { resume = s.id }) then
    return false
  end
  open_windows(c)
  return true
end

--- Picks a stored conversation of the workspace (vim.ui.select: time,
--- branch, first prompt; the newest first) and continues it; last = true
--- takes the newest without asking.
---@param last boolean|nil
---@param dir string|nil
function M.pick(last, dir)
  dir = dir or current_dir()
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
    return M.open()
  elseif arg == "new" then
    return M.new()
  elseif arg == "resume" then
    return M.pick(false)
  elseif arg == "last" then
    return M.pick(true)
  end
  require("claude.notify").error(":ClaudeChat takes new, resume or last, not " .. arg)
end

M.subcommands = { "new", "resume", "last" }

-- Rendering. Each function gets the chat and its (modifiable) transcript.

local function last_line(buf)
  local n = vim.api.nvim_buf_line_count(buf)
  return n, vim.api.nvim_buf_get_lines(buf, n - 1, n, false)[1]
end

-- Adds whole lines at the end; blank first separates them from what is above.
local function add(c, buf, lines, blank)
  local n, last = last_line(buf)
  if n == 1 and last == "" then
    vim.api.nvim_buf_set_lines(buf, 0, 1, false, lines)
    return
  end
  if blank and last ~= "" then
    table.insert(lines, 1, "")
  end
  vim.api.nvim_buf_set_lines(buf, n, n, false, lines)
  c.streaming = nil
end

-- Appends streamed text to the last line, splitting at newlines; each new
-- line starts with prefix, if given.
local function stream(buf, text, prefix)
  local n, last = last_line(buf)
  local parts = vim.split(text, "\n", { plain = true })
  parts[1] = last .. parts[1]
  if prefix then
    for i = 2, #parts do
      parts[i] = prefix .. parts[i]
    end
  end
  vim.api.nvim_buf_set_lines(buf, n - 1, n, false, parts)
end

-- lines as the folded body of the line above them.
local function body(lines)
  local out = {}
  for i, l in ipairs(lines or {}) do
    out[i] = BODY .. l
  end
  return out
end

write = function(c, fn)
  if not valid(c.tbuf) then
    return
  end
  vim.bo[c.tbuf].modifiable = true
  local ok, err = pcall(fn, c.tbuf)
  vim.bo[c.tbuf].modifiable = false
  if not ok then
    require("claude.notify").error("chat: " .. tostring(err))
  end
end

local function first_line(s)
  return (tostring(s or ""):gsub("\n.*", ""))
end

-- What a tool call is about, from its input: the command, the path
-- (relative to the chat's directory when inside it), ….
local function about(c, item)
  local input = type(item.input) == "table" and item.input or {}
  local path = input.file_path or input.notebook_path
  if type(path) == "string" and vim.startswith(path, c.dir .. "/") then
    path = path:sub(#c.dir + 2)
  end
  return first_line(input.command or path or input.url or input.pattern or input.query or item.description or "")
end

local function where(dest)
  return ({
    session = "for this session",
    localSettings = "always, in .claude/settings.local.json",
    projectSettings = "always, in .claude/settings.json",
    userSettings = "always, in your user settings",
  })[dest or "session"] or ("in " .. tostring(dest))
end

-- A permission_suggestions entry as a choice the user can read.
local function describe(s)
  if type(s) ~= "table" then
    return "Allow (" .. tostring(s) .. ")"
  end
  if s.type == "setMode" then
    return string.format("Allow, and switch to mode %s %s", s.mode, where(s.destination))
  elseif s.type == "addRules" or s.type == "replaceRules" then
    local rules = {}
    for _, r in ipairs(s.rules or {}) do
      table.insert(rules, r.ruleContent and (r.toolName .. "(" .. r.ruleContent .. ")") or r.toolName)
    end
    return string.format("Allow, and allow %s %s", table.concat(rules, ", "), where(s.destination))
  elseif s.type == "addDirectories" then
    return string.format("Allow, and add %s to the workspace %s", table.concat(s.directories or {}, ", "), where(s.destination))
  end
  return "Allow, and " .. vim.json.encode(s)
end

local ask_next

local function answer(c, item, reply, line)
  reply.dir, reply.request_id = c.dir, item.id
  if not c.withdrawn[item.id] then
    require("claude.host").call("ClaudeHostChatAnswer", reply)
    write(c, function(buf)
      add(c, buf, { "  ⎿  " .. line })
    end)
    follow(c)
  end
  c.asking = false
  ask_next(c)
end

-- Asks about one permission request with vim.ui.select; nothing is allowed
-- unless the user picks an allow.
local function ask(c, item)
  c.asking = true
  local choices = { { label = "Allow once", allow = true } }
  for i, s in ipairs(item.suggestions or {}) do
    table.insert(choices, { label = describe(s), allow = true, suggestion = i })
  end
  table.insert(choices, { label = "Deny", allow = false })
  local prompt = string.format("Claude wants to use %s: %s", item.name, about(c, item))
  vim.ui.select(choices, {
    prompt = prompt,
    kind = "claude_permission",
    format_item = function(ch)
      return ch.label
    end,
  }, function(choice)
    if choice and choice.allow then
      answer(c, item, { allow = true, suggestion = choice.suggestion or 0 }, "allowed: " .. choice.label)
      return
    end
    if not choice then
      answer(c, item, { allow = false, message = "The user dismissed the permission prompt." }, "denied")
      return
    end
    vim.ui.input({ prompt = "Reason for denying (optional, Claude sees it): " }, function(reason)
      reason = reason and vim.trim(reason) or ""
      answer(c, item, { allow = false, message = reason }, reason == "" and "denied" or ("denied: " .. reason))
    end)
  end)
end

ask_next = function(c)
  if c.asking then
    return
  end
  local item = table.remove(c.queue, 1)
  while item and c.withdrawn[item.id] do
    item = table.remove(c.queue, 1)
  end
  if item then
    ask(c, item)
  end
end

local function duration(ms)
  if ms < 1000 then
    return string.format("%d ms", ms)
  end
  return string.format("%.1f s", ms / 1000)
end

local render = {}

function render.commands(c, _, it)
  c.commands = it.commands
end

function render.init(c, _, it)
  c.model, c.mode = it.model, it.mode
  if it.session_id and it.session_id ~= "" then
    c.session_id = it.session_id
  end
end

function render.model(c, buf, it)
  c.model = it.model
  add(c, buf, { "_Model: " .. it.model .. "_" }, true)
end

function render.status(c, buf, it)
  if it.mode and it.mode ~= "" then
    c.mode_wanted = nil
  end
  if it.mode and it.mode ~= "" and it.mode ~= c.mode then
    c.mode = it.mode
    add(c, buf, { "_Mode: " .. it.mode .. "_" }, true)
  end
end

function render.text(c, buf, it)
  if c.streaming ~= "text" then
    add(c, buf, { "" }, true)
    c.streaming = "text"
  end
  stream(buf, it.text)
  c.last = "text"
end

-- Folds lines first..last of the transcript (closed) in every window on it,
-- and keeps the range for windows opened later.
local function fold(c, first, last)
  if last <= first then
    return
  end
  c.folds = c.folds or {}
  table.insert(c.folds, { first, last })
  for _, win in ipairs(vim.fn.win_findbuf(c.tbuf)) do
    vim.api.nvim_win_call(win, function()
      vim.cmd(string.format("silent! %d,%dfold", first, last))
    end)
  end
end

function render.thinking(c, buf, it)
  if c.streaming ~= "thinking" then
    add(c, buf, { "_∴ Thinking…_", BODY }, true)
    c.streaming = "thinking"
    c.thinking_at = vim.api.nvim_buf_line_count(buf) - 1
  end
  stream(buf, it.text, BODY)
end

function render.block_end(c, buf)
  if c.streaming == "thinking" and c.thinking_at then
    -- Folded once complete: a fold made by hand does not grow.
    fold(c, c.thinking_at, vim.api.nvim_buf_line_count(buf))
  end
  c.thinking_at, c.streaming = nil, nil
end

function render.tool(c, buf, it)
  local lines = body(it.body)
  table.insert(lines, 1, string.format("● %s(%s)", it.name, first_line(it.summary)))
  add(c, buf, lines, c.last ~= "tool")
  local n = vim.api.nvim_buf_line_count(buf)
  fold(c, n - #(it.body or {}), n)
  c.last = "tool"
end

function render.result(c, buf, it)
  local text
  if (it.lines or 0) <= 1 then
    text = it.text or ""
  else
    text = string.format("%s … (%d lines)", it.text or "", it.lines)
  end
  local lines = body(it.body)
  table.insert(lines, 1, "  ⎿  " .. (it.is_error and "Error: " or "") .. text)
  add(c, buf, lines)
  local n = vim.api.nvim_buf_line_count(buf)
  fold(c, n - #(it.body or {}), n)
  c.last = "tool"
end

-- An earlier prompt of a resumed conversation.
function render.prompt(c, buf, it)
  local quoted = {}
  for _, l in ipairs(vim.split(it.text, "\n", { plain = true })) do
    table.insert(quoted, "> " .. l)
  end
  add(c, buf, quoted, true)
  c.last = "user"
end

function render.user(c, buf, it)
  add(c, buf, { "_" .. first_line(it.text) .. "_" }, true)
  c.last = "user"
end

function render.permission(c, buf, it)
  if it.review then
    -- An edit: the host shows it in the diff review and answers it.
    add(c, buf, { string.format("? %s(%s): review the proposed change in the diff", it.name, about(c, it)) }, c.last ~= "tool")
    c.last = "tool"
    return
  end
  add(c, buf, { string.format("? %s(%s) asks for permission", it.name, about(c, it)) }, c.last ~= "tool")
  c.last = "tool"
  table.insert(c.queue, it)
  -- Asked after this batch is rendered: the host's call must not wait on the user.
  vim.schedule(function()
    ask_next(c)
  end)
end

function render.answered(c, buf, it)
  add(c, buf, { "  ⎿  " .. it.text })
end

function render.cancelled(c, buf, it)
  c.withdrawn[it.id] = true
  add(c, buf, { "  ⎿  permission request withdrawn (the turn was interrupted)" })
end

function render.finish(c, buf, it)
  if it.is_error then
    local why = it.errors and #it.errors > 0 and table.concat(it.errors, "; ") or it.subtype
    add(c, buf, { "**Error:** " .. first_line(why) }, true)
  end
  add(c, buf, {
    string.format(
      "─── %s · %d tokens in, %d out · $%.4f (session)",
      duration(it.duration_ms or 0),
      it.tokens_in or 0,
      it.tokens_out or 0,
      it.cost_usd or 0
    ),
  }, true)
  c.busy, c.last = false, "end"
end

function render.exited(c, buf, it)
  local how = it.signal and it.signal ~= "" and ("signal " .. it.signal) or ("code " .. tostring(it.code or 0))
  if it.mid_turn then
    add(c, buf, { string.format("**Claude exited mid-turn (%s).** Send again to resume the conversation.", how) }, true)
  else
    add(c, buf, { string.format("_Claude exited (%s)._", how) }, true)
  end
  c.busy, c.last, c.queue = false, "end", {}
end

function render.error(c, buf, it)
  add(c, buf, { "**Error:** " .. first_line(it.text) }, true)
end

render["end"] = render.finish

--- Renders one batch of the host's events (host/chat.go). Not for users.
---@param dir string
---@param items table[]
function M._events(dir, items)
  local c = chat(dir)
  write(c, function(buf)
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
  write(c, function(buf)
    add(c, buf, quoted, true)
  end)
  c.last, c.busy = "user", true
  update_status(c)
  follow(c)
  require("claude.host").call("ClaudeHostChatSend", dir, text, images)
end

--- Attaches an image file (png, jpeg, gif, webp) to the chat's next
--- message; the host reads and checks it when the message is sent.
---@param path string
---@param dir string|nil
function M.attach(path, dir)
  dir = dir or current_dir()
  local abs = vim.fn.fnamemodify(vim.fn.expand(path), ":p")
  if vim.fn.filereadable(abs) ~= 1 then
    require("claude.notify").error("no such file: " .. path)
    return false
  end
  local c = chat(dir)
  c.attached = c.attached or {}
  table.insert(c.attached, abs)
  update_status(c)
  open_windows(c)
  return true
end

--- Replaces the chat input with the previous (step -1) or next (step 1)
--- prompt sent in this chat; past the newest, with what was typed before.
--- With at_edge, only from the input's first (or last) line: elsewhere the
--- cursor moves up (or down) as usual.
---@param dir string|nil
---@param step integer
---@param at_edge boolean|nil
function M.recall(dir, step, at_edge)
  dir = dir or current_dir()
  local c = chats[dir]
  if not c or not valid(c.ibuf) then
    return
  end
  local win = window(c.ibuf)
  if at_edge and win then
    local row = vim.api.nvim_win_get_cursor(win)[1]
    if (step < 0 and row > 1) or (step > 0 and row < vim.api.nvim_buf_line_count(c.ibuf)) then
      vim.cmd("normal! " .. vim.v.count1 .. (step < 0 and "k" or "j"))
      return
    end
  end
  local newest = #c.history + 1 -- the draft
  local i = (c.recalled or newest) + step
  if i < 1 or i > newest then
    return
  end
  if not c.recalled then
    c.draft = vim.api.nvim_buf_get_lines(c.ibuf, 0, -1, false)
  end
  local lines
  if i == newest then
    lines, c.recalled = c.draft or { "" }, nil
  else
    lines, c.recalled = vim.split(c.history[i], "\n", { plain = true }), i
  end
  vim.api.nvim_buf_set_lines(c.ibuf, 0, -1, false, lines)
  if win then
    -- On the edge the next press goes on from.
    local row = step < 0 and 1 or #lines
    vim.api.nvim_win_set_cursor(win, { row, step < 0 and 0 or math.max(0, #lines[row] - 1) })
  end
end

-- The @path under completion: from the @ before the cursor.
local function path_items(c, base)
  local items = {}
  for _, p in ipairs(vim.fn.globpath(vim.fn.escape(c.dir, ","), base .. "*", false, true)) do
    local rel = p:sub(#c.dir + 2)
    if vim.fn.isdirectory(p) == 1 then
      rel = rel .. "/"
    end
    table.insert(items, { word = "@" .. rel, abbr = rel })
  end
  return items
end

--- completefunc/omnifunc of the chat's input: slash commands from the CLI's
--- list at the start of the message, workspace paths after @. Not called
--- directly.
function M.complete(findstart, base)
  local c = chats[vim.b.claude_chat_dir]
  if not c then
    return findstart == 1 and -3 or {}
  end
  local line = vim.api.nvim_get_current_line()
  local col = vim.fn.col(".") - 1
  local before = line:sub(1, col)
  if findstart == 1 then
    local at = before:find("@[^%s]*$")
    if at then
      return at - 1
    end
    local slash = before:find("/[%w:_-]*$")
    if slash and vim.fn.line(".") == 1 and before:sub(1, slash - 1):match("^%s*$") then
      return slash - 1
    end
    return -3
  end
  if base:sub(1, 1) == "@" then
    return path_items(c, base:sub(2))
  end
  local items = {}
  for _, cmd in ipairs(c.commands or {}) do
    local word = "/" .. cmd.name
    if vim.startswith(word, base) then
      table.insert(items, { word = word, menu = cmd.hint ~= "" and cmd.hint or nil, info = cmd.description })
    end
  end
  return items
end

-- The chat shown in the current tab page, if any.
local function chat_in_tab()
  for _, c in pairs(chats) do
    if (valid(c.ibuf) and window(c.ibuf)) or (valid(c.tbuf) and window(c.tbuf)) then
      return c
    end
  end
end

--- :ClaudeSend and :ClaudeAdd go to the chat instead of the terminal when
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
  if vim.startswith(path, c.dir .. "/") then
    rel = path:sub(#c.dir + 2)
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
  open_windows(c)
  vim.api.nvim_win_set_cursor(0, { n, #text })
  return true
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

return M
