-- :qa with Claude working or waiting for the user asks first, as Neovim does
-- for a changed buffer (issue 36): while a session works or needs the
-- user, a hidden buffer of ours is "changed", so :qa and :q in the last
-- window stop with E37/E162 and 'confirm' asks; :qa! quits anyway (the
-- sessions end with Neovim), and writing the buffer (:wqa, "Yes" in the
-- 'confirm' dialog) means the user means it. ExitPre says what works.
local M = {}

local buf -- the guard buffer, while one exists
local why = "" -- what works or waits, for the message

local NAME = "claude://Claude is working"

local function ensure()
  if buf and vim.api.nvim_buf_is_valid(buf) then
    return buf
  end
  buf = vim.api.nvim_create_buf(false, false)
  pcall(vim.api.nvim_buf_set_name, buf, NAME)
  vim.bo[buf].buftype = "acwrite"
  vim.bo[buf].bufhidden = "hide"
  vim.bo[buf].swapfile = false
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, { "claude.nvim: Claude is working or waits for you; :qa! quits anyway." })
  local group = vim.api.nvim_create_augroup("ClaudeQuitGuard", { clear = true })
  vim.api.nvim_create_autocmd("BufWriteCmd", {
    group = group,
    buffer = buf,
    desc = "claude.nvim: writing the quit guard lets Neovim quit",
    callback = function()
      vim.bo[buf].modified = false
    end,
  })
  vim.api.nvim_create_autocmd("User", {
    group = group,
    pattern = "ClaudeHostExit",
    desc = "claude.nvim: the host is gone, and what worked with it: nothing keeps Neovim",
    callback = function()
      vim.bo[buf].modified = false
    end,
  })
  vim.api.nvim_create_autocmd("ExitPre", {
    group = group,
    desc = "claude.nvim: say why :qa stops while Claude works",
    callback = function()
      if buf and vim.api.nvim_buf_is_valid(buf) and vim.bo[buf].modified then
        require("claude.notify").warn(why .. ": :qa! quits anyway and ends it, :ClaudeSessions shows it")
      end
    end,
  })
  return buf
end

--- Sets the guard from the sessions' states ({ key, state, kind }): up
--- while one works or needs the user, down otherwise.
function M.update(sessions)
  local working, waiting = 0, 0
  for _, s in ipairs(sessions) do
    if s.state == "working" then
      working = working + 1
    elseif s.state == "needs_you" and s.kind ~= "idle" then
      waiting = waiting + 1
    end
  end
  if working + waiting == 0 then
    if buf and vim.api.nvim_buf_is_valid(buf) then
      vim.bo[buf].modified = false
    end
    return
  end
  local parts = {}
  if working > 0 then
    table.insert(parts, working == 1 and "Claude is working" or (working .. " Claude sessions are working"))
  end
  if waiting > 0 then
    table.insert(parts, waiting == 1 and "Claude waits for you" or (waiting .. " Claude sessions wait for you"))
  end
  why = table.concat(parts, " and ")
  vim.bo[ensure()].modified = true
end

--- Whether the guard is up (tests, :checkhealth).
function M.up()
  return buf ~= nil and vim.api.nvim_buf_is_valid(buf) and vim.bo[buf].modified
end

return M
