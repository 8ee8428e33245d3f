-- :qa with Claude working or waiting for the user asks first, as Neovim does
-- for a changed buffer (issue 36): while a session works or needs the
-- user, a quit (:qa, :q in the last window) makes a hidden buffer of ours
-- "changed" in ExitPre, so Neovim stops with E37/E162 or 'confirm' asks;
-- :qa! quits anyway (the sessions end with Neovim), and "Yes" in the
-- 'confirm' dialog writes the buffer, which lets Neovim quit.
local M = {}

local buf -- the guard buffer, while one exists
local why = "" -- what works or waits, for the message

local NAME = "claude://Claude is working"

-- The guard buffer, made only when a quit is tried while Claude works:
-- a buffer more from the first busy turn on changed the layout of the
-- diff and terminal windows (the e2e terminal-size check).
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
  vim.api.nvim_create_autocmd("BufWriteCmd", {
    group = vim.api.nvim_create_augroup("ClaudeQuitGuardBuffer", { clear = true }),
    buffer = buf,
    desc = "claude.nvim: writing the quit guard lets Neovim quit",
    callback = function()
      vim.bo[buf].modified = false
    end,
  })
  return buf
end

local watching = false

-- ExitPre runs before Neovim checks for changed buffers (:qa, :q in the
-- last window): the guard goes up there, only then, when Claude works.
local function watch()
  if watching then
    return
  end
  watching = true
  local group = vim.api.nvim_create_augroup("ClaudeQuitGuard", { clear = true })
  vim.api.nvim_create_autocmd("User", {
    group = group,
    pattern = "ClaudeHostExit",
    desc = "claude.nvim: the host is gone, and what worked with it: nothing keeps Neovim",
    callback = function()
      M.update({})
    end,
  })
  vim.api.nvim_create_autocmd("ExitPre", {
    group = group,
    desc = "claude.nvim: :qa stops while Claude works, and says why",
    callback = function()
      if why ~= "" then
        vim.bo[ensure()].modified = true
        require("claude.notify").warn(why .. ": :qa! quits anyway and ends it, :Claude sessions shows it")
      end
    end,
  })
end

--- Notes from the sessions' states ({ key, state, kind }) whether a quit
--- must stop: while one works or needs the user.
function M.update(sessions)
  watch()
  local working, waiting = 0, 0
  for _, s in ipairs(sessions) do
    if s.state == "working" then
      working = working + 1
    elseif s.state == "needs_you" and s.kind ~= "idle" then
      waiting = waiting + 1
    end
  end
  local parts = {}
  if working > 0 then
    table.insert(parts, working == 1 and "Claude is working" or (working .. " Claude sessions are working"))
  end
  if waiting > 0 then
    table.insert(parts, waiting == 1 and "Claude waits for you" or (waiting .. " Claude sessions wait for you"))
  end
  why = table.concat(parts, " and ")
  if why == "" and buf and vim.api.nvim_buf_is_valid(buf) then
    vim.bo[buf].modified = false
  end
end

--- Whether a quit would stop now (tests, :checkhealth).
function M.up()
  return why ~= ""
end

return M
