-- terminal.provider = "snacks": Snacks.terminal runs the CLI in a window
-- it makes (with its terminal style and keys). The session keeps the
-- buffer and the job as for a terminal of ours, so typing into Claude,
-- :Claude close and the exit handling work the same; showing it again asks
-- snacks (terminal/init.lua's show).
local M = {}

local function cfg()
  return require("claude.config").get()
end

-- Where terminal.position puts a snacks window; "tab" is a tab page of
-- its own, the window filling it.
local SNACKS_POSITION = { right = "right", left = "left", above = "top", below = "bottom", float = "float" }

local function snacks_win()
  local t = cfg().terminal
  local pos = SNACKS_POSITION[t.position]
  if not pos then
    vim.cmd.tabnew()
    vim.bo.bufhidden = "wipe"
    return { position = "current" }
  elseif pos == "float" then
    return { position = pos, width = t.float.width, height = t.float.height, border = t.float.border }
  end
  local vertical = pos == "left" or pos == "right"
  return { position = pos, width = vertical and t.size or nil, height = (not vertical) and t.size or nil }
end

--- Starts session s's CLI (cmd with env) in a snacks terminal; on_exit(job,
--- code) runs, scheduled, when it exits. Returns whether it started.
function M.start(s, cmd, env, on_exit)
  local ok, snacks = pcall(require, "snacks")
  if not ok or type(snacks) ~= "table" or not snacks.terminal then
    require("claude.notify").error('terminal.provider = "snacks" needs folke/snacks.nvim, which is not installed; install it or use provider = "native"')
    return false
  end
  if not require("claude.cli").check_program() then
    return false
  end
  local win
  ok, win = pcall(snacks.terminal.open, cmd, {
    cwd = s.cwd,
    env = env,
    -- on_exit closes it (and keeps it after a failure), as for ours.
    auto_close = false,
    -- Terminal mode is ours to start, as for a terminal of ours
    -- (terminal/window.lua): by hand per terminal.auto_insert, by a
    -- command only when asked.
    start_insert = false,
    auto_insert = false,
    win = snacks_win(),
  })
  local buf = ok and type(win) == "table" and win.buf or nil
  local job = buf and vim.api.nvim_buf_is_valid(buf) and vim.b[buf].terminal_job_id or nil
  if not job then
    if buf then
      pcall(vim.api.nvim_buf_delete, buf, { force = true })
    end
    require("claude.notify").error("Snacks.terminal could not start " .. vim.inspect(cmd) .. (ok and "" or (": " .. tostring(win))))
    return false
  end
  s.buf, s.job, s.snacks = buf, job, win
  vim.t.claude_session = s.id
  vim.b[buf].claude_terminal = true
  -- For statusline plugins: the mode the CLI started in (nil: its arguments
  -- chose), then the one its hooks tell of after a switch (attention.lua).
  vim.b[buf].claude_permission_mode = s.permission and s.permission.mode
  require("claude.buffers").set_buf_name(buf, "claude://" .. s.cwd, buf)
  local group = vim.api.nvim_create_augroup("ClaudeTerminal" .. s.id, { clear = true })
  vim.api.nvim_create_autocmd("BufEnter", {
    group = group,
    buffer = buf,
    desc = "claude.nvim: type straight into Claude (terminal.auto_insert)",
    callback = require("claude.terminal.window").entered,
  })
  vim.api.nvim_create_autocmd("TermClose", {
    group = group,
    buffer = buf,
    once = true,
    desc = "claude.nvim: Claude exited in its snacks terminal",
    callback = function()
      local code = vim.v.event.status
      vim.schedule(function()
        on_exit(job, code)
      end)
    end,
  })
  return true
end

return M
