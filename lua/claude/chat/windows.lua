-- The native chat's windows: the transcript and input buffers (with their
-- keys), the windows they open in, and :ClaudeChat's open.
local M = {}

local state = require("claude.chat.state")
local turns = require("claude.chat.turns")
local input = require("claude.chat.input")
local keys = require("claude.keys")
local chats, valid, window, follow, update_status = state.chats, state.valid, state.window, state.follow, state.update_status

local function cfg()
  return require("claude.config").get()
end

-- Lines of the input window.
local INPUT_HEIGHT = 5


-- A <C-c> typed while Neovim is busy (rendering a streamed answer, say)
-- is taken as an interrupt of that work: Neovim sets got_int and hands the
-- key on raw, past every mapping, so the chat's <C-c> maps never see it and
-- the user's press would be lost. on_key still sees it, unmapped: a raw
-- CTRL-C in a chat buffer during a turn interrupts the turn as the maps do.
-- A mapped <C-c> reaches on_key as its mapping's key, never as CTRL-C, so
-- no press interrupts twice.
local watching_ctrl_c = false
local function watch_ctrl_c()
  if watching_ctrl_c then
    return
  end
  watching_ctrl_c = true
  vim.on_key(function(key)
    if key ~= "\3" then
      return
    end
    local dir = vim.b.claude_chat_dir
    local c = dir and chats[dir]
    if c and c.busy then
      vim.schedule(function()
        turns.interrupt(dir)
      end)
    end
  end, vim.api.nvim_create_namespace("claude_chat_ctrl_c"))
end

local function make_buffers(c)
  watch_ctrl_c()
  if not valid(c.tbuf) then
    local buf = vim.api.nvim_create_buf(false, true) -- nofile, hidden when closed
    require("claude.buffers").set_buf_name(buf, "claude-chat://" .. c.dir, buf)
    vim.bo[buf].filetype = "markdown"
    require("claude.chat.highlight").attach(buf)
    vim.bo[buf].modifiable = false
    vim.b[buf].claude_chat_dir = c.dir
    keys.map(buf, "chat.interrupt", function()
      turns.interrupt(c.dir)
    end)
    keys.map(buf, "chat.mode", function()
      turns.set_mode("next", c.dir)
    end)
    -- Going to the transcript is deliberate, and Enter there has nothing
    -- else to do: it opens the answers to the permission request waiting.
    keys.map(buf, "chat.answer", function()
      if c.trust then
        vim.schedule(function()
          require("claude.chat.trust").answer(c.dir, nil)
        end)
        return ""
      end
      if not state.waiting(c) then
        if require("claude.chat.rewind").waits(c) then
          vim.schedule(function()
            require("claude.chat.rewind").pick(c)
          end)
          return ""
        end
        return "<CR>"
      end
      vim.schedule(function()
        require("claude.chat.render").answer(c, nil)
      end)
      return ""
    end, { expr = true })
    keys.map(buf, "chat.input", function()
      M.open(c.dir)
      vim.cmd.startinsert()
    end)
    -- [r and ]r go from prompt (request) to prompt; [[ and ]] stay the
    -- markdown ftplugin's, as every default leaves Vim's commands alone.
    keys.map(buf, "chat.prev_prompt", "<Plug>(ClaudeChatPrevPrompt)")
    keys.map(buf, "chat.next_prompt", "<Plug>(ClaudeChatNextPrompt)")
    -- The task list (chat/tasks.lua) and subagents (chat/agents.lua).
    keys.map(buf, "chat.tasks", function()
      require("claude.chat.tasks").toggle(c)
    end)
    keys.map(buf, "chat.cancel_agent", function()
      require("claude.chat.agents").stop(c)
    end)
    -- R: the transcript is read-only, Replace mode has nothing to do there.
    keys.map(buf, "chat.rewind", "<Plug>(ClaudeChatRewind)")
    keys.map(buf, "chat.help", require("claude.chat.keys").help)
    c.tbuf, c.streaming, c.last = buf, nil, nil
  end
  if not valid(c.ibuf) then
    local buf = vim.api.nvim_create_buf(false, true)
    require("claude.buffers").set_buf_name(buf, "claude-chat-input://" .. c.dir, buf)
    vim.bo[buf].filetype = "markdown"
    vim.b[buf].claude_chat_dir = c.dir
    local function submit()
      turns.submit(c.dir)
    end
    keys.map(buf, "input.submit", submit)
    keys.map(buf, "input.send", submit)
    keys.map(buf, "input.interrupt", function()
      turns.interrupt(c.dir)
    end)
    -- In Insert mode <C-c> still leaves it, as Vim's does (the text stays),
    -- and interrupts a turn only while there is one.
    keys.map(buf, "input.interrupt_insert", function()
      if c.busy then
        vim.schedule(function()
          turns.interrupt(c.dir)
        end)
      end
      return "<Esc>"
    end, { expr = true })
    keys.map(buf, "input.mode", function()
      turns.set_mode("next", c.dir)
    end)
    -- The CLI's Ctrl+B: the running command or subagent goes on in the
    -- background and the turn with it.
    keys.map(buf, "input.background", function()
      require("claude.chat.background").send(c.dir)
    end)
    keys.map(buf, "input.recall_up", function()
      input.recall(c.dir, -1, true)
    end)
    keys.map(buf, "input.recall_down", function()
      input.recall(c.dir, 1, true)
    end)
    keys.map(buf, "input.recall_prev", function()
      input.recall(c.dir, -1)
    end)
    keys.map(buf, "input.recall_next", function()
      input.recall(c.dir, 1)
    end)
    -- /commands and @paths: <C-x><C-u> (or <C-x><C-o>), or <Tab> after / or @.
    vim.bo[buf].completefunc = "v:lua.require'claude.chat.input'.complete"
    vim.bo[buf].omnifunc = "v:lua.require'claude.chat.input'.complete"
    vim.api.nvim_create_autocmd("CompleteDone", {
      group = vim.api.nvim_create_augroup("ClaudeChatContext" .. buf, { clear = true }),
      buffer = buf,
      desc = "claude.nvim: an @-context picked in the chat's input becomes its block",
      callback = function()
        input.completed(buf)
      end,
    })
    keys.map(buf, "input.complete", function()
      if vim.fn.pumvisible() == 1 then
        return "<C-n>"
      end
      local before = vim.api.nvim_get_current_line():sub(1, vim.fn.col(".") - 1)
      if before:match("@[^%s]*$") and c.running and not c.agent then
        -- The CLI's own @ completions, asked off the mapping (no RPC under
        -- its text lock); the menu opens when they come. An ACP agent has
        -- none: the workspace is read here for it.
        vim.schedule(function()
          input.suggest(c)
        end)
        return ""
      end
      if before:match("^%s*/[%w:_-]*$") or before:match("@[^%s]*$") then
        return "<C-x><C-u>"
      end
      return "<Tab>"
    end, { expr = true })
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
M.chat = chat

-- The narrowest transcript worth reading (a prompt, a tool line, the
-- winbar's model and state), and the narrowest a window beside it may
-- become to make room for it.
local MIN_WIDTH = 40
local MIN_BESIDE = 20

-- The window with the most cells in this tab page (floats aside).
local function biggest_window()
  local best, area = nil, -1
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if vim.api.nvim_win_get_config(win).relative == "" then
      local a = vim.api.nvim_win_get_width(win) * vim.api.nvim_win_get_height(win)
      if a > area then
        best, area = win, a
      end
    end
  end
  return best
end

-- The first window of a winlayout() node.
local function first_leaf(node)
  while node[1] ~= "leaf" do
    node = node[2][1]
  end
  return node[2]
end

-- The columns a full-height split may take: what the tab page's columns
-- hold beyond MIN_BESIDE, except a column that keeps its width (Claude's
-- terminal does), which gives none.
local function spare_columns()
  local layout = vim.fn.winlayout()
  local spare = 0
  for _, col in ipairs(layout[1] == "row" and layout[2] or { layout }) do
    local win = first_leaf(col)
    if not (col[1] == "leaf" and vim.wo[win].winfixwidth) then
      spare = spare + math.max(0, vim.api.nvim_win_get_width(win) + 1 - MIN_BESIDE)
    end
  end
  return spare
end

-- Opens the transcript where the terminal would go (terminal.position and
-- size; a float becomes a right split). Where that would leave it, or the
-- windows beside it, too narrow (Claude's terminal already keeps its side's
-- columns: the chat got 19 of 80), it splits the biggest window instead:
-- beside it when both halves stay readable, else below it.
local function open_transcript(c)
  local pos = cfg().terminal.position
  pos = pos == "float" and "right" or pos
  local vertical = pos == "right" or pos == "left"
  local size = cfg().terminal.size
  local want = size < 1 and math.floor(vim.o.columns * size) or math.floor(size)
  if not vertical or math.min(want, MIN_WIDTH) <= spare_columns() - 1 then
    return require("claude.terminal.window").open(c.tbuf, pos)
  end
  local big = biggest_window()
  local width, height = vim.api.nvim_win_get_width(big), vim.api.nvim_win_get_height(big)
  if width >= 2 * MIN_WIDTH + 1 then
    return vim.api.nvim_open_win(c.tbuf, true, { split = "right", win = big, width = math.floor(width / 2) })
  end
  -- Below: room for the input too (it is taken from the transcript's rows).
  local rows = math.max(math.floor(height / 2), math.min(height - 4, INPUT_HEIGHT + 1 + 8))
  return vim.api.nvim_open_win(c.tbuf, true, { split = "below", win = big, height = rows })
end

-- Opens the transcript (open_transcript) and the input below it.
local function open_windows(c)
  local twin = window(c.tbuf)
  if not twin then
    twin = open_transcript(c)
    vim.wo[twin].wrap = true
    vim.wo[twin].linebreak = true
    vim.wo[twin].number = false
    -- %< at the end: too long, it loses its end (the least important
    -- parts, state.lua), not its start.
    vim.wo[twin].winbar = "%{get(b:, 'claude_chat_status', '')}%<"
    vim.wo[twin].foldmethod = "manual"
    vim.wo[twin].foldtext = "" -- the fold's first line, highlighted
    vim.wo[twin].foldenable = true
    vim.wo[twin].fillchars = "fold: "
    require("claude.chat.render").refold(c, twin)
  end
  local iwin = window(c.ibuf)
  if not iwin then
    iwin = vim.api.nvim_open_win(c.ibuf, true, { split = "below", win = twin, height = INPUT_HEIGHT })
    vim.wo[iwin].winfixheight = true
    vim.wo[iwin].number = false
  end
  require("claude.chat.tasks").reopen(c)
  vim.api.nvim_set_current_win(iwin)
  c.followed = nil
  follow(c)
end
M.open_windows = open_windows

--- Opens (or focuses) the chat of dir (default: the current workspace).
---@param dir string|nil
function M.open(dir)
  dir = dir or state.current_dir()
  local first = chats[dir] or { dir = dir }
  local started, why, remote = require("claude.chat.revive").start(first)
  if why == "connecting" then
    -- The chat's remote connects first (chat/state.lua); the chat opens
    -- once it is connected, or the user is told why not.
    require("claude.notify").info(string.format("claude.nvim: connecting to remote %s; the chat opens once it is connected", remote))
    require("claude.remote").when_connected(remote, function(s)
      if s.state == "connected" then
        M.open(dir)
      else
        require("claude.notify").error(string.format("claude.nvim: remote %s: %s", remote, s.error or s.state))
      end
    end)
    return false
  end
  if not started and why ~= "untrusted" then
    return false
  end
  -- Untrusted: the windows open on the question (chat/trust.lua).
  local c = chat(dir)
  -- A new chat knows its CLI runs: its first message then goes straight
  -- to it, without a second trust check and Start (state.start).
  c.running = c.running or first.running
  open_windows(c)
  return started
end

return M
