-- terminal.provider = "native": the CLI in a terminal buffer of ours, in
-- a window terminal/window.lua places (termopen on 0.10, jobstart with
-- term = true on 0.11+).
local M = {}

local window = require("claude.terminal.window")

--- Runs cmd in a terminal in win's buffer (termopen on 0.10, jobstart
--- with term = true on 0.11+, where termopen is deprecated); the job id,
--- 0 or -1 when it did not start.
function M.open_job(win, cmd, opts)
  local job
  vim.api.nvim_win_call(win, function()
    if vim.fn.has("nvim-0.11") == 1 then
      job = vim.fn.jobstart(cmd, vim.tbl_extend("force", opts, { term = true }))
    else
      job = vim.fn.termopen(cmd, opts)
    end
  end)
  return job
end

--- Starts session s's CLI (cmd with env) in a new terminal; on_exit(job,
--- code) runs, scheduled, when it exits. Returns whether it started.
function M.start(s, cmd, env, on_exit)
  if not require("claude.cli").check_program() then
    return false
  end
  local id = s.id
  local buf = vim.api.nvim_create_buf(false, false)
  local win = window.open(buf)
  local opts = {
    cwd = s.cwd,
    env = env,
    on_exit = function(job, code)
      vim.schedule(function()
        on_exit(job, code)
      end)
    end,
  }
  local job = M.open_job(win, cmd, opts)
  if not job or job <= 0 then
    pcall(vim.api.nvim_buf_delete, buf, { force = true })
    require("claude.notify").notify("claude.nvim: could not start " .. vim.inspect(cmd), vim.log.levels.ERROR)
    return false
  end
  s.buf, s.job = buf, job
  -- A tab page of its own (terminal.position = "tab") is the session's too.
  vim.t.claude_session = id
  vim.bo[buf].bufhidden = "hide"
  vim.bo[buf].buflisted = false
  vim.b[buf].claude_terminal = true
  -- For statusline plugins: the mode the CLI started in (nil: its arguments
  -- chose), then the one its hooks tell of after a switch (attention.lua).
  vim.b[buf].claude_permission_mode = s.permission and s.permission.mode
  -- A name and a filetype statusline plugins and autocmds can match on.
  local name = "claude://" .. opts.cwd
  require("claude.buffers").set_buf_name(buf, name, buf)
  vim.bo[buf].filetype = "claude"
  local group = vim.api.nvim_create_augroup("ClaudeTerminal" .. id, { clear = true })
  vim.api.nvim_create_autocmd("BufEnter", {
    group = group,
    buffer = buf,
    desc = "claude.nvim: type straight into Claude (terminal.auto_insert)",
    callback = window.entered,
  })
  -- A terminal window scrolls with new output only while its cursor is on
  -- the last line: put it there when the user leaves, so Claude's answer
  -- stays in view while they read a diff or edit.
  vim.api.nvim_create_autocmd("VimResized", {
    group = group,
    desc = "claude.nvim: keep the floating terminal centred",
    callback = function()
      local w = vim.api.nvim_buf_is_valid(buf) and window.in_tab(buf) or nil
      if w and vim.api.nvim_win_get_config(w).relative ~= "" then
        vim.api.nvim_win_set_config(w, window.float_config())
      end
    end,
  })
  vim.api.nvim_create_autocmd("WinLeave", {
    group = group,
    buffer = buf,
    desc = "claude.nvim: keep following Claude's output",
    callback = function()
      pcall(vim.api.nvim_win_set_cursor, 0, { vim.api.nvim_buf_line_count(buf), 0 })
    end,
  })
  return true
end

return M
