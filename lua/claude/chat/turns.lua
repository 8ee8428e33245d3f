-- The native chat's turns: what the user sends, interrupts, the
-- permission mode and the end of the chat's CLI.
local M = {}

local state = require("claude.chat.state")
local revive = require("claude.chat.revive")
local chats, valid, current_dir, update_status, follow =
  state.chats, state.valid, state.current_dir, state.update_status, state.follow

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
  if (text == "" and #images == 0) or not revive.start(c) then
    return
  end
  c.attached = nil
  vim.api.nvim_buf_set_lines(c.ibuf, 0, -1, false, {})
  M.send(c, text, images)
end

--- Sends text (and images) as chat c's next turn, as typed in its input
--- (chat/rewind.lua sends an edited prompt so); its CLI runs.
---@param c table
---@param text string
---@param images string[]
function M.send(c, text, images)
  local dir = c.dir
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
  c.sent = (c.sent or 0) + 1
  local id = "m" .. c.sent
  local view, queue = require("claude.chat.render"), require("claude.chat.queue")
  if c.busy or queue.count(c) > 0 then
    -- Claude works: the CLI keeps the message until a turn takes it in,
    -- and the prompt lines go where that happens (render.message). Never
    -- into the text streaming now.
    queue.add(c, id, text, quoted)
    view.write(c, function() end)
  else
    view.write(c, function(buf)
      view.add_prompt(c, buf, quoted, id, text)
    end)
    c.last, c.busy = "user", true
  end
  update_status(c)
  follow(c)
  if require("claude.host").send_to_chat(dir, text, images, id) == nil then
    -- The host was not reached (the user was told why): the message goes
    -- back to the input, as a turn the host could not send does.
    view.write(c, function(buf)
      view.render.unsent(c, buf, { id = id, text = text, images = images, errors = { "the Go host did not take it" } })
    end)
    update_status(c)
  end
end

--- Takes back the newest message still queued in the chat (the CLI drops
--- it), so that it can be edited and sent again: its text goes back to the
--- input once the CLI confirms (render.message).
---@param dir string|nil
function M.unqueue(dir)
  dir = dir or current_dir()
  local c = chats[dir]
  local q = c and c.queued and c.queued[#c.queued]
  if not q then
    require("claude.notify").info("no message waits in the chat's queue")
    return
  end
  require("claude.host").withdraw_chat(dir, q.id)
end

--- Interrupts the chat's running turn.
---@param dir string|nil
function M.interrupt(dir)
  dir = dir or current_dir()
  if chats[dir] and require("claude.host").running() then
    require("claude.host").interrupt_chat(dir)
  end
end

--- Switches the chat's permission mode (one of state.modes, or "manual"
--- for default); nil lets the user pick, each mode shown with what it
--- means for the review; "next" takes the next one, as shift+tab does in
--- the CLI. bypassPermissions asks for a typed confirmation first. The
--- winbar and the transcript show it once the CLI confirms.
---@param mode string|nil
---@param dir string|nil
function M.set_mode(mode, dir)
  dir = dir or current_dir()
  local c = chats[dir]
  if not c or not require("claude.host").running() then
    require("claude.notify").info("no chat runs for " .. dir .. "; :ClaudeChat starts one")
    return
  end
  local modes = require("claude.chat.modes")
  if mode == nil then
    return modes.pick(c, function(m)
      M.set_mode(m, dir)
    end)
  elseif mode == "next" then
    mode = modes.next(c.mode_wanted or c.mode or "default")
  end
  mode = modes.canonical(mode)
  if not vim.tbl_contains(state.modes, mode) then
    require("claude.notify").error("unknown chat mode " .. mode .. "; use one of: " .. table.concat(state.modes, ", "))
    return
  end
  if mode == "bypassPermissions" and c.mode ~= mode then
    return modes.confirm_bypass(c)
  end
  c.mode_wanted = mode
  require("claude.host").set_chat_mode(dir, mode)
end

--- Ends the chat's CLI; the transcript stays, the next turn starts a new conversation.
---@param dir string|nil
function M.stop(dir)
  dir = dir or current_dir()
  if not chats[dir] or not require("claude.host").running() then
    require("claude.notify").info("no chat runs for " .. dir)
    return
  end
  -- Stopped on purpose: no later start resumes it, not even after the
  -- Go host died (chat/revive.lua).
  chats[dir].conversation, chats[dir].revive = nil, nil
  require("claude.host").stop_chat(dir)
end

return M
