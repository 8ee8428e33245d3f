-- Checkpoints in the chat: from a prompt the user sent, put the files
-- Claude changed since back as they were before it, cut the conversation
-- back to just before it, or both; fork a new conversation from there; or
-- edit the prompt and run it again. R (or :Claude chat rewind) on a prompt
-- asks the host for the dry run first; it waits in the transcript, never
-- in a dialog that would take the keys of a user typing elsewhere, until
-- <CR> there (or :Claude chat rewind {what}) chooses. The host's answers come
-- as "rewind" (the dry run) and "rewound" items (chatctl/rewind.go).
local M = {}

local state = require("claude.chat.state")
local chats = state.chats

-- What the user may choose, in the picker's order.
M.choices = {
  { what = "both", label = "Rewind the code and the conversation to before this prompt" },
  { what = "conversation", label = "Rewind the conversation only (the files stay as they are)" },
  { what = "code", label = "Rewind the code only (the conversation goes on)" },
  { what = "fork", label = "Fork a new conversation from before this prompt (this one is kept)" },
  { what = "edit", label = "Edit this prompt and run it again (code and conversation rewound)" },
}

local function info(msg)
  require("claude.notify").info(msg)
end

local function first_line(s)
  return (tostring(s or ""):gsub("\n.*", ""))
end

-- The chat whose transcript is the current buffer, or nil after saying why.
local function this_chat()
  local dir = vim.b.claude_chat_dir
  local c = type(dir) == "string" and chats[dir] or nil
  if not c or vim.api.nvim_get_current_buf() ~= c.tbuf then
    info("put the cursor on one of your prompts in the chat's transcript first")
    return nil
  end
  return c
end

-- Why chat c cannot rewind now, or nil: a turn that runs would go on
-- writing into what is cut.
local function busy(c)
  if c.busy or require("claude.chat.queue").count(c) > 0 or state.waiting(c) then
    return "Claude is working: wait for the turn to end, or interrupt it (<C-c>), then rewind"
  end
end

--- Asks for the dry run of a rewind to the prompt at the cursor of the
--- chat's transcript; the transcript then shows it and waits for a choice.
function M.start()
  local c = this_chat()
  if not c then
    return
  end
  local mark = require("claude.chat.keys").prompt_at(c.tbuf, vim.api.nvim_win_get_cursor(0)[1] - 1)
  local p = mark and c.prompts and c.prompts[mark]
  if not p then
    return info("no prompt of yours that can be rewound is at or above the cursor")
  end
  local why = busy(c)
  if why then
    return info(why)
  end
  -- A CLI that exited since is started again on the conversation, as a
  -- message would start it: the CLI answers the dry run.
  if not require("claude.chat.revive").start(c) then
    return
  end
  c.rewinding = { id = p.id, text = p.text, mark = mark }
  require("claude.host").rewind_chat(c.dir, p.id, "preview")
end

-- "1 file, +2 −3: a.txt" for the files of a rewind item.
local function files_text(c, it)
  local files = it.files or {}
  if #files == 0 then
    return "no file to put back"
  end
  local names = {}
  for i, f in ipairs(files) do
    names[i] = vim.startswith(f, (c.cwd or c.dir) .. "/") and f:sub(#(c.cwd or c.dir) + 2) or f
    local b = require("claude.buffers").find_buf(f)
    if b and vim.bo[b].modified then
      names[i] = names[i] .. " (unsaved changes in Neovim: its buffer keeps them)"
    end
  end
  return string.format(
    "%d file%s, +%d −%d: %s",
    #files,
    #files > 1 and "s" or "",
    it.insertions or 0,
    it.deletions or 0,
    table.concat(names, ", ")
  )
end

--- Renders the dry run (a "rewind" item) in transcript buf.
function M.show_preview(c, buf, it)
  local r = c.rewinding
  if not r or r.id ~= it.id then
    return -- asked for another prompt since
  end
  r.preview, r.code_error = it, it.is_error and (it.errors or {})[1] or nil
  local view = require("claude.chat.render")
  local code = r.code_error and ("the code cannot be rewound: " .. r.code_error) or ("code: " .. files_text(c, it))
  view.add(c, buf, {
    "⏪ Rewind to your prompt: " .. first_line(r.text),
    "  ⎿  " .. code,
    "  ⎿  <CR> here to choose: rewind code and/or conversation, fork, edit and rerun",
  }, true)
  c.last = "end"
  -- The user pressed R up at the prompt: the answer is at the end, shown
  -- at the window's bottom (a jump: <C-o> goes back). Only cursors move.
  local last = vim.api.nvim_buf_line_count(buf)
  for _, win in ipairs(vim.fn.win_findbuf(buf)) do
    vim.api.nvim_win_call(win, function()
      vim.cmd("normal! m'")
      vim.api.nvim_win_set_cursor(win, { last, 0 })
      vim.cmd("normal! zb")
    end)
  end
  c.followed = last
end

-- Removes the transcript from the prompt marked mark to its end: the
-- conversation as it now is. Prompts, folds and the highlighting below go
-- with it.
local function cut(c, buf, mark)
  local keys = require("claude.chat.keys")
  local pos = vim.api.nvim_buf_get_extmark_by_id(buf, keys.NS, mark, {})
  local row = pos[1]
  if not row then
    return
  end
  for _, m in ipairs(vim.api.nvim_buf_get_extmarks(buf, keys.NS, { row, 0 }, -1, {})) do
    vim.api.nvim_buf_del_extmark(buf, keys.NS, m[1])
    if c.prompts then
      c.prompts[m[1]] = nil
    end
  end
  if row > 0 and vim.api.nvim_buf_get_lines(buf, row - 1, row, false)[1] == "" then
    row = row - 1 -- the blank line that set the prompt apart
  end
  vim.api.nvim_buf_set_lines(buf, row, -1, false, {})
  local left = vim.api.nvim_buf_line_count(buf)
  local folds = {}
  for _, f in ipairs(c.folds or {}) do
    if f[2] <= left then
      table.insert(folds, f)
    end
  end
  c.folds, c.streaming, c.last, c.followed = folds, nil, "end", nil
  for _, win in ipairs(vim.fn.win_findbuf(buf)) do
    require("claude.chat.render").refold(c, win)
  end
end

-- Puts text before what the input holds: typed text is never lost.
local function to_input(c, text)
  if not (c.ibuf and vim.api.nvim_buf_is_valid(c.ibuf)) or text == "" then
    return
  end
  local lines = vim.split(text, "\n", { plain = true })
  local typed = vim.api.nvim_buf_get_lines(c.ibuf, 0, -1, false)
  if #typed > 1 or typed[1] ~= "" then
    vim.list_extend(lines, typed)
  end
  vim.api.nvim_buf_set_lines(c.ibuf, 0, -1, false, lines)
end

--- Renders what a rewind did (a "rewound" item) in transcript buf.
function M.show_done(c, buf, it)
  local r = c.rewinding
  if not r or r.id ~= it.id then
    return
  end
  c.rewinding = nil
  local view = require("claude.chat.render")
  if it.is_error then
    view.add(c, buf, { "**Error:** rewind failed: " .. first_line((it.errors or {})[1]) }, true)
    if r.resend then
      to_input(c, r.resend)
      view.add(c, buf, { "  ⎿  your edited prompt is in the input" })
    end
    return
  end
  local lines = {}
  if it.summary ~= "code" then
    cut(c, buf, r.mark)
    table.insert(lines, "⏪ Rewound the conversation to before your prompt: " .. first_line(r.text))
  else
    table.insert(lines, "⏪ Rewound the code to before your prompt: " .. first_line(r.text))
  end
  if it.summary ~= "conversation" then
    table.insert(lines, "  ⎿  code: " .. files_text(c, it))
  end
  view.add(c, buf, lines, true)
  if it.summary ~= "conversation" and require("claude.config").get().auto_reload then
    -- As after Claude's own edits: a buffer with unsaved changes is not
    -- reloaded (reload.lua warns), the others show the files put back.
    for _, f in ipairs(it.files or {}) do
      local b = require("claude.buffers").find_buf(f)
      if b and vim.api.nvim_buf_is_loaded(b) then
        require("claude.reload").check(b)
      end
    end
  end
  if r.resend then
    local text = r.resend
    vim.schedule(function() -- after this write to the transcript
      require("claude.chat.turns").send(c, text, {})
    end)
  elseif it.summary ~= "code" then
    to_input(c, it.text ~= "" and it.text or r.text or "")
  end
end

-- Forks the conversation just before r's prompt: the chat's CLI is
-- replaced by one that holds the turns before it, as a new stored
-- conversation; the transcript shows those turns, the prompt's text waits
-- in the input.
local function fork(c, r)
  if not state.start(c, { fork = r.id }) then
    return
  end
  c.rewinding = nil
  local view = require("claude.chat.render")
  view.write(c, function(buf)
    cut(c, buf, r.mark)
    view.add(c, buf, {
      "⑂ Forked: a new conversation from before your prompt: " .. first_line(r.text),
      "  ⎿  the earlier one is kept as it was (:ClaudeChat resume); your prompt is in the input",
    }, true)
  end)
  to_input(c, r.text or "")
  state.update_status(c)
  state.follow(c)
end

local EDIT_WINBAR = "Your prompt: edit it · <C-s> rewinds to before it and sends it · :q cancels"

-- Opens r's prompt in a markdown buffer of its own; <C-s> there rewinds
-- code and conversation (the dry run is in the transcript) and sends it.
local function edit(c, r)
  local buf = vim.api.nvim_create_buf(false, true)
  pcall(vim.api.nvim_buf_set_name, buf, "claude-prompt://" .. r.id)
  vim.bo[buf].filetype = "markdown"
  vim.b[buf].claude_chat_dir = c.dir
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, vim.split(r.text or "", "\n", { plain = true }))
  vim.bo[buf].modified = false
  local function send()
    local text = vim.trim(table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n"))
    if text == "" then
      return info("the prompt is empty: type what Claude should do, or q to cancel")
    end
    if c.rewinding ~= r then
      return info("this rewind no longer waits (R on the prompt asks again); your text stays here")
    end
    local why = busy(c)
    if why then
      return info(why)
    end
    r.resend = text
    require("claude.host").rewind_chat(c.dir, r.id, r.code_error and "conversation" or "both")
    vim.cmd("stopinsert")
    vim.api.nvim_buf_delete(buf, { force = true })
  end
  require("claude.keys").map(buf, "rewind.send", send)
  vim.cmd("botright split")
  vim.api.nvim_win_set_buf(0, buf)
  local preview = r.code_error and "the code cannot be rewound" or ("code: " .. files_text(c, r.preview))
  vim.api.nvim_set_option_value("winbar", EDIT_WINBAR .. " · " .. state.clean(preview), { scope = "local", win = 0 })
end

--- Does what the user chose (one of M.choices' what) for the rewind that
--- waits in chat c.
---@param c table
---@param what string
function M.choose(c, what)
  local r = c.rewinding
  if not (r and r.preview) then
    return info("no rewind waits: R on one of your prompts in the transcript (or :Claude chat rewind there) shows one")
  end
  local why = busy(c)
  if why then
    return info(why)
  end
  if what == "fork" then
    return fork(c, r)
  elseif what == "edit" then
    return edit(c, r)
  elseif what ~= "both" and what ~= "code" and what ~= "conversation" then
    return require("claude.notify").error("unknown rewind " .. tostring(what) .. "; use one of: both, conversation, code, fork, edit")
  elseif r.code_error and what ~= "conversation" then
    return info("the code cannot be rewound: " .. r.code_error)
  end
  require("claude.host").rewind_chat(c.dir, r.id, what)
end

--- Whether a rewind of chat c waits for the user's choice.
function M.waits(c)
  return c.rewinding ~= nil and c.rewinding.preview ~= nil
end

--- The choices for the rewind that waits in chat c, in a picker (the user
--- asked for it with <CR> in the transcript).
function M.pick(c)
  vim.ui.select(M.choices, {
    prompt = "Your prompt: " .. first_line(c.rewinding and c.rewinding.text),
    kind = "claude_rewind",
    format_item = function(ch)
      return ch.label
    end,
  }, function(ch)
    if ch then
      M.choose(c, ch.what)
    end
  end)
end

--- :Claude chat rewind [what]: with what, and a rewind waiting, does it;
--- else shows the dry run for the prompt at the cursor.
---@param what string|nil
function M.command(what)
  local dir = vim.b.claude_chat_dir
  local c = type(dir) == "string" and chats[dir] or nil
  if what and c and M.waits(c) then
    return M.choose(c, what)
  end
  M.start()
end

return M
